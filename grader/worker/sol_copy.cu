/*
 * sol_copy.cu - the copies that set this GPU's bandwidth ceiling: the fastest plain ways it
 * moves bytes from DRAM to DRAM, timed in the same run as the student's kernel so a bandwidth
 * can be stated as a fraction of what this GPU really reaches. No one shape of copy is the
 * fastest on every GPU (nor on every size), so the ceiling is the best of a few.
 */
#include <cuda_runtime.h>

#include <stddef.h>

// Consecutive threads copy consecutive 16-byte vectors; a grid-stride loop over a grid sized
// to the GPU keeps every multiprocessor busy with several loads in flight.
__global__ void copy_float4(const float4 *__restrict__ src, float4 *__restrict__ dst, size_t n4)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride)
        dst[i] = src[i];
}

// The same, each thread loading four vectors before it stores any: four loads in flight per
// thread instead of one.
__global__ void copy_float4_x4(const float4 *__restrict__ src, float4 *__restrict__ dst, size_t n4)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + 3 * stride < n4; i += 4 * stride) {
        float4 a = src[i], b = src[i + stride], c = src[i + 2 * stride], d = src[i + 3 * stride];
        dst[i] = a;
        dst[i + stride] = b;
        dst[i + 2 * stride] = c;
        dst[i + 3 * stride] = d;
    }
    for (; i < n4; i += stride)
        dst[i] = src[i];
}

// The same with one float a thread: four times the instructions for the same bytes, which on
// some GPUs keeps more requests in flight than the vector copy does.
__global__ void copy_float(const float *__restrict__ src, float *__restrict__ dst, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        dst[i] = src[i];
}

extern "C" cudaError_t wk_multiprocessors(int *sms)
{
    int device = 0;
    cudaError_t err = cudaGetDevice(&device);
    return err == cudaSuccess ? cudaDeviceGetAttribute(sms, cudaDevAttrMultiProcessorCount, device)
                              : err;
}

// The copies, by number: what each runs and with how many 256-thread blocks per
// multiprocessor (0: as many blocks as it takes for one vector a thread, no loop).
static const struct {
    const char *name;
    int vectors, unrolled, blocks_per_sm;
} copies[] = {
    {"float4 16/SM", 1, 0, 16}, /* copy 0: the explore runs' same-run copy */
    {"float4 8/SM", 1, 0, 8},    {"float4 32/SM", 1, 0, 32}, {"float4 1/thread", 1, 0, 0},
    {"float4 x4 8/SM", 1, 1, 8}, {"float 16/SM", 0, 0, 16},
};

extern "C" int wk_sol_copies(void)
{
    return (int)(sizeof copies / sizeof copies[0]);
}

extern "C" const char *wk_sol_copy_name(int k)
{
    return k >= 0 && k < wk_sol_copies() ? copies[k].name : "";
}

extern "C" cudaError_t wk_sol_copy_run(int k, const void *src, void *dst, size_t bytes)
{
    if (k < 0 || k >= wk_sol_copies())
        return cudaErrorInvalidValue;
    int sms = 0;
    cudaError_t err = wk_multiprocessors(&sms);
    if (err != cudaSuccess)
        return err;
    const unsigned threads = 256;
    size_t n4 = bytes / sizeof(float4);
    size_t blocks = copies[k].blocks_per_sm ? (size_t)sms * copies[k].blocks_per_sm
                                            : (n4 + threads - 1) / threads;
    if (blocks < 1)
        blocks = 1;
    if (blocks > 0x7fffffff)
        blocks = 0x7fffffff;
    if (!copies[k].vectors)
        copy_float<<<(unsigned)blocks, threads>>>((const float *)src, (float *)dst,
                                                  bytes / sizeof(float));
    else if (copies[k].unrolled)
        copy_float4_x4<<<(unsigned)blocks, threads>>>((const float4 *)src, (float4 *)dst, n4);
    else
        copy_float4<<<(unsigned)blocks, threads>>>((const float4 *)src, (float4 *)dst, n4);
    return cudaGetLastError();
}

extern "C" cudaError_t wk_sol_copy(const void *src, void *dst, size_t bytes)
{
    return wk_sol_copy_run(0, src, dst, bytes);
}
