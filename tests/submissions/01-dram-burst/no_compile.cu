// Mutant: a syntax error. Must fail as "does not compile" with nvcc's message and line.
#include "lab01.h"

__global__ void scale_typo(float a, const float *x, float *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x if (i < n) y[i] = a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    scale_typo<<<(unsigned)((n + 255) / 256), 256>>>(a, x, y, n);
    return cudaGetLastError();
}
