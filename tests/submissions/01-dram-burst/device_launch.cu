// Mutant (hostile): hides the real kernel behind dynamic parallelism: the launcher launches
// one thread that launches, from the device, a coalesced kernel the recording never sees as a
// launch of its own. The grader compiles without relocatable device code: must fail to
// compile (or, were it compiled, fail on the contract or when run).
#include "lab01.h"

__global__ void scale_child(float a, const float *x, float *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}

__global__ void scale_parent(float a, const float *x, float *y, size_t n)
{
    scale_child<<<(unsigned)((n + 255) / 256), 256>>>(a, x, y, n);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    scale_parent<<<1, 1>>>(a, x, y, n);
    return cudaGetLastError();
}
