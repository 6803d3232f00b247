// Mutant (hostile): the reference solution's coalesced kernel, run only at the size the grader
// uses (n = 3 * 2^24 + 7, read in its source); at any other size the launcher launches a kernel
// that writes zeros. Correctness is also checked on small extra shapes (odd sizes, n = 1): must
// fail on correctness.
#include "lab01.h"

#define GRADED_N ((size_t)3 * (1u << 24) + 7)

__global__ void scale_coalesced(float a, const float *x, float *y, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a * x[i];
}

__global__ void write_zeros(float *y, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = 0.0f;
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    const unsigned threads = 256;
    size_t wanted = (n + threads - 1) / threads;
    unsigned blocks = (unsigned)(wanted < 4096 ? (wanted ? wanted : 1) : 4096);
    if (n == GRADED_N)
        scale_coalesced<<<blocks, threads>>>(a, x, y, n);
    else
        write_zeros<<<blocks, threads>>>(y, n);
    return cudaGetLastError();
}
