// Mutant: coalesced, but blocks overlap: the block offset uses 256 while blocks have 128
// threads, so half of y is never written. Must fail correctness (unwritten elements).
#include "lab01.h"

__global__ void scale_gaps(float a, const float *x, float *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * 256 + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    scale_gaps<<<(unsigned)((n + 255) / 256), 128>>>(a, x, y, n);
    return cudaGetLastError();
}
