/*
 * lab01_explore.cu - the kernels behind lab 01's explore run: how bandwidth depends on how
 * many contiguous bytes each warp request asks for.
 *
 * Every warp request reads 32 lanes x elem bytes. Lanes are grouped so that each group reads
 * one contiguous run of run_bytes; runs lie gap bytes apart, and the skipped bytes are never
 * read by anyone, so every wasted sector is really fetched from DRAM for nothing.
 */
#include <cuda_runtime.h>
#include <stdint.h>

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
    int device = 0, sms = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
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
