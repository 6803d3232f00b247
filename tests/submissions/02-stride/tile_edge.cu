// Mutant: the staged solution with an off-by-one tile edge: the grid has n / TILE blocks, so
// the last, partial tile of frames is never written. Must fail correctness (unwritten).
#include "lab02.h"

#define TILE 256

__global__ void deinterleave_tiles(const float *in, float *out, int channels, size_t n)
{
    __shared__ float tile[TILE * 16];
    size_t first = (size_t)blockIdx.x * TILE;
    const float *src = in + first * channels;
    for (int i = threadIdx.x; i < TILE * channels; i += blockDim.x)
        tile[i] = src[i];
    __syncthreads();
    for (int c = 0; c < channels; ++c)
        out[(size_t)c * n + first + threadIdx.x] = tile[threadIdx.x * channels + c];
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    deinterleave_tiles<<<(unsigned)(n / TILE), TILE>>>(in, out, channels, n);
    return cudaGetLastError();
}
