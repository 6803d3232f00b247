// Mutant: the bound test is i <= n, so one thread writes y[n], past the end. Must fail as a
// write outside the output array (the guard bytes change).
#include "lab01.h"

__global__ void scale_past_end(float a, const float *x, float *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        y[i] = a * (i < n ? x[i] : 1.0f);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    scale_past_end<<<(unsigned)((n + 256) / 256), 256>>>(a, x, y, n);
    return cudaGetLastError();
}
