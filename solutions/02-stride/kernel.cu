/*
 * Lab 02 - stride.  Your file: edit only between the STUDENT markers.
 *
 * De-interleaving is correct here, with one thread per output sample: the writes are
 * consecutive, but each warp's reads are `channels` floats apart. Make both coalesced.
 *
 *   grade it:     make -f Makefile.student grade LAB=02
 *   read first:   handouts/02-stride.md
 */
#include "lab02.h"

// ---- STUDENT BEGIN ----

#define TILE 256        // frames per block, one per thread
#define MAX_CHANNELS 16 // the contract's limit

// A block stages TILE whole frames in shared memory: it reads them as one contiguous run
// (consecutive threads, consecutive words), then writes each channel's TILE samples as
// another contiguous run. The stride moves into shared memory, where it costs little.
// The run is TILE * channels words, so each thread reads word threadIdx.x + k * TILE for
// k < channels; the loop runs to MAX_CHANNELS, a constant, so the compiler unrolls it and the
// thread's loads are all in flight before the first store to shared memory (a loop of
// channels steps would wait for each load in turn, and the memory would sit idle).
__global__ void deinterleave_staged(const float *in, float *out, int channels, size_t n)
{
    __shared__ float tile[TILE * MAX_CHANNELS];
    size_t first = (size_t)blockIdx.x * TILE;
    int frames = n - first < TILE ? (int)(n - first) : TILE;
    int words = frames * channels;
    const float *src = in + first * channels;
    float v[MAX_CHANNELS];
#pragma unroll
    for (int k = 0; k < MAX_CHANNELS; ++k)
        if (k < channels && threadIdx.x + k * TILE < words)
            v[k] = src[threadIdx.x + k * TILE];
#pragma unroll
    for (int k = 0; k < MAX_CHANNELS; ++k)
        if (k < channels && threadIdx.x + k * TILE < words)
            tile[threadIdx.x + k * TILE] = v[k];
    __syncthreads();
    if (threadIdx.x < frames)
        for (int c = 0; c < channels; ++c)
            out[(size_t)c * n + first + threadIdx.x] = tile[threadIdx.x * channels + c];
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    if (channels < 1 || channels > MAX_CHANNELS)
        return cudaErrorInvalidValue;
    deinterleave_staged<<<(unsigned)((n + TILE - 1) / TILE), TILE>>>(in, out, channels, n);
    return cudaGetLastError();
}

// ---- STUDENT END ----
