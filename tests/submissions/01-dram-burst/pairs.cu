// Mutant: partly coalesced. Each thread handles two neighbouring words, so a warp's lanes are
// 8 bytes apart: 8 sectors per request for 128 useful bytes, 50%. Correct; must fail on
// efficiency, not correctness.
#include "lab01.h"

__global__ void scale_pairs(float a, const float *x, float *y, size_t n)
{
    size_t i = 2 * ((size_t)blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n)
        y[i] = a * x[i];
    if (i + 1 < n)
        y[i + 1] = a * x[i + 1];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    size_t threads = (n + 1) / 2;
    scale_pairs<<<(unsigned)((threads + 255) / 256), 256>>>(a, x, y, n);
    return cudaGetLastError();
}
