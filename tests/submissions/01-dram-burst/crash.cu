// Mutant: writes a terabyte past the output: an illegal address. Must fail with the CUDA
// error named, not crash the grader.
#include "lab01.h"

__global__ void scale_wild(float a, const float *x, float *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i + ((size_t)1 << 38)] = a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    scale_wild<<<(unsigned)((n + 255) / 256), 256>>>(a, x, y, n);
    return cudaGetLastError();
}
