// Mutant: coalesced, every element written, but lanes read their neighbour's word (i ^ 1).
// Must fail correctness with the first wrong coordinates.
#include "lab01.h"

__global__ void scale_swapped(float a, const float *x, float *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t j = i ^ 1;
    if (i < n)
        y[i] = a * x[j < n ? j : i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    scale_swapped<<<(unsigned)((n + 255) / 256), 256>>>(a, x, y, n);
    return cudaGetLastError();
}
