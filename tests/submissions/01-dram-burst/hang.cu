// Mutant: a loop whose index never reaches its bound. Must be stopped by the time limit and
// reported as timed out; the grader itself must not hang.
#include "lab01.h"

__global__ void scale_forever(float a, const float *x, float *y, size_t n)
{
    for (size_t i = threadIdx.x; i < n; i += 0 * blockDim.x)
        y[i] = a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    scale_forever<<<1, 256>>>(a, x, y, n);
    return cudaGetLastError();
}
