// Mutant (hostile): launches on a stream of its own, where the timing engine's events on the
// default stream would not wait for it. Must fail: the contract asks for the default stream,
// and the recording says which call broke it.
#include "lab01.h"

__global__ void scale(float a, const float *x, float *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    static cudaStream_t s;
    if (!s)
        cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    scale<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(a, x, y, n);
    return cudaGetLastError();
}
