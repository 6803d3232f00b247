/*
 * lab01_explore.cu - the kernels behind lab 01's explore run: how bandwidth depends on how
 * many contiguous bytes each warp request asks for.
 *
 * Every warp request reads 32 lanes x elem bytes. Lanes are grouped so that each group reads
 * one contiguous run of run_bytes; runs lie gap bytes apart, and the skipped bytes are never
 * read by anyone, so every wasted sector is really fetched from DRAM for nothing.
 *
 * read_chunks reads a whole buffer once, every byte, in chunks of chunk bytes whose order is
 * shuffled (or not): the same bytes, the same whole sectors, only where each next access falls.
 */
#include <cuda_runtime.h>
#include <stdint.h>

// The SMs of the current device: both launchers size their grids by it.
static cudaError_t sm_count(int *sms)
{
    int device = 0;
    cudaError_t err = cudaGetDevice(&device);
    return err == cudaSuccess ? cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device)
                              : err;
}

template <typename T>
__global__ void read_runs(const char *__restrict__ base, size_t requests, unsigned lanes_per_run,
                          size_t run_spacing, float *__restrict__ sink)
{
    const unsigned lane = threadIdx.x & 31;
    const size_t warp = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const size_t warps = ((size_t)gridDim.x * blockDim.x) >> 5;
    const unsigned runs_per_request = 32 / lanes_per_run;
    float acc = 0.0f;
    for (size_t r = warp; r < requests; r += warps) {
        size_t run = r * runs_per_request + lane / lanes_per_run;
        const T *p = (const T *)(base + run * run_spacing) + lane % lanes_per_run;
        T v = *p;
        acc += *(const float *)&v;
    }
    if (acc == 1234.5f) // never true for the data used; keeps the loads alive
        sink[0] = acc;
}

extern "C" cudaError_t lab01_read_runs(const void *base, size_t requests, unsigned elem_bytes,
                                       unsigned run_bytes, size_t run_spacing, float *sink)
{
    int sms = 0;
    cudaError_t err = sm_count(&sms);
    if (err != cudaSuccess)
        return err;
    unsigned lanes = run_bytes / elem_bytes;
    if (lanes < 1 || lanes > 32 || 32 % lanes)
        return cudaErrorInvalidValue;
    dim3 grid(sms * 16), block(256);
    const char *b = (const char *)base;
    switch (elem_bytes) {
    case 4:
        read_runs<float><<<grid, block>>>(b, requests, lanes, run_spacing, sink);
        break;
    case 8:
        read_runs<float2><<<grid, block>>>(b, requests, lanes, run_spacing, sink);
        break;
    case 16:
        read_runs<float4><<<grid, block>>>(b, requests, lanes, run_spacing, sink);
        break;
    default:
        return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}

// A bijection of the low `bits` bits of x (each step is one: a multiplication by an odd number
// modulo 2^bits, and x ^= x >> s), so that chunk i is read at place shuffle(i), every place once,
// neighbours far apart.
__device__ __forceinline__ size_t shuffle(size_t x, unsigned bits)
{
    const size_t mask = bits >= 64 ? ~(size_t)0 : ((size_t)1 << bits) - 1;
    for (int round = 0; round < 3; ++round) {
        x = (x * 0x9e3779b97f4a7c15ull) & mask;
        x ^= x >> (bits / 2 + 1);
    }
    return x;
}

// Chunk c of the buffer (chunk_bytes, a power of two from 16 up) is read by chunk_bytes / 16
// lanes as float4, up to a whole warp; a larger chunk takes a warp several requests, in order.
__global__ void read_chunks(const float4 *__restrict__ base, size_t chunks, unsigned chunk_bytes,
                            unsigned bits, int shuffled, float *__restrict__ sink)
{
    const unsigned lane = threadIdx.x & 31, vectors = chunk_bytes / 16;
    const unsigned lanes = vectors < 32 ? vectors : 32, groups = 32 / lanes;
    const size_t warp = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const size_t warps = ((size_t)gridDim.x * blockDim.x) >> 5;
    float acc = 0.0f;
    for (size_t first = warp * groups; first < chunks; first += warps * groups) {
        size_t i = first + lane / lanes;
        size_t c = shuffled ? shuffle(i, bits) : i;
        const float4 *p = base + c * vectors + lane % lanes;
        for (unsigned v = 0; v < vectors; v += lanes) {
            float4 x = p[v];
            acc += x.x + x.w;
        }
    }
    if (acc == 1234.5f) // never true for the data used; keeps the loads alive
        sink[0] = acc;
}

extern "C" cudaError_t lab01_read_chunks(const void *base, size_t bytes, unsigned chunk_bytes,
                                         int shuffled, float *sink)
{
    int sms = 0;
    cudaError_t err = sm_count(&sms);
    if (err != cudaSuccess)
        return err;
    size_t chunks = bytes / chunk_bytes;
    unsigned bits = 0;
    while (((size_t)1 << bits) < chunks)
        ++bits;
    if (chunk_bytes < 16 || (chunk_bytes & (chunk_bytes - 1)) || ((size_t)1 << bits) != chunks)
        return cudaErrorInvalidValue; /* powers of two only: the shuffle is a bijection of bits */
    read_chunks<<<sms * 16, 256>>>((const float4 *)base, chunks, chunk_bytes, bits, shuffled, sink);
    return cudaGetLastError();
}
