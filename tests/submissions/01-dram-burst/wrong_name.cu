// Mutant: the launcher was renamed, so the lab's contract is broken. Must fail with a message
// that names the missing launcher.
#include <cuda_runtime.h>
#include <stddef.h>

__global__ void scale(float a, const float *x, float *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}

extern "C" cudaError_t my_scale(float a, const float *x, float *y, size_t n)
{
    scale<<<(unsigned)((n + 255) / 256), 256>>>(a, x, y, n);
    return cudaGetLastError();
}
