// Mutant: partly coalesced. One thread per input sample reads consecutive words, but a warp's
// writes spread over all six channel planes, a few consecutive floats in each (measured: 50%
// of each store's sectors used). Correct; must fail on stores.
#include "lab02.h"

__global__ void deinterleave_scatter(const float *in, float *out, int channels, size_t n)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < (size_t)channels * n) {
        size_t f = t / channels, c = t % channels;
        out[c * n + f] = in[t];
    }
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    size_t total = (size_t)channels * n;
    deinterleave_scatter<<<(unsigned)((total + 255) / 256), 256>>>(in, out, channels, n);
    return cudaGetLastError();
}
