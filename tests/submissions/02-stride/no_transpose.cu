// Mutant: a swapped index. Reads and writes are both coalesced because nothing is
// de-interleaved: out[t] = in[t]. Must fail correctness, with the first wrong coordinates.
#include "lab02.h"

__global__ void deinterleave_copy(const float *in, float *out, int channels, size_t n)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < (size_t)channels * n)
        out[t] = in[t];
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    size_t total = (size_t)channels * n;
    deinterleave_copy<<<(unsigned)((total + 255) / 256), 256>>>(in, out, channels, n);
    return cudaGetLastError();
}
