// Mutant (hostile): correct and coalesced, but it leaves its result behind in its input, where
// the next replay would find it (x is const only in the signature): each thread writes y[i]
// over x[i] once it has read it. Replays share nothing: every input is compared with its copy
// after every replay, and one that changed breaks the contract, the input named.
#include "lab01.h"

__global__ void scale_then_overwrite(float a, const float *x, float *y, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float v = a * x[i];
        y[i] = v;
        ((float *)x)[i] = v;
    }
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    size_t blocks = (n + 255) / 256;
    scale_then_overwrite<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256>>>(a, x, y, n);
    return cudaGetLastError();
}
