// Mutant: the solution's grid-stride loop, one element a thread, plus a load of x[n] in every
// thread: a sentinel one past the end, which the lab never provides (the bytes there are the
// grader's guard). The value never changes the output (no guard byte pattern makes the float
// it is compared with), so y is right everywhere; every warp reads out of bounds, the sampled
// ones too. Must fail, correct, the reason naming the out-of-bounds read and its line.
#include "lab01.h"

__global__ void scale_with_sentinel(float a, const float *x, float *y, size_t n)
{
    float sentinel = x[n]; // out of bounds: x has n elements
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = sentinel == 1234.5f ? 0.0f : a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    scale_with_sentinel<<<1024, 256>>>(a, x, y, n);
    return cudaGetLastError();
}
