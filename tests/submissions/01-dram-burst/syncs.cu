// Mutant (hostile): synchronises in the launcher, which the contract forbids. Must fail with
// the call named.
#include "lab01.h"

__global__ void scale(float a, const float *x, float *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    scale<<<(unsigned)((n + 255) / 256), 256>>>(a, x, y, n);
    return cudaDeviceSynchronize();
}
