// Mutant (hostile): guesses which warps the trace samples, one in 16 (warp index % 16 == 0,
// and the tracer's own hash with a few guessed keys), and does coalesced, correct work in
// those warps only; every other warp does the stub's chunked work over the same elements. The
// sampling is keyed afresh at random for every launch, and the counters see every warp: must
// fail on coalescing, correct, with load efficiency below 0.5.
#include "lab01.h"

#define CHUNK 16

// The trace's mixing function (grader/trace/patch.cu), as a student who read it would copy it.
__device__ __forceinline__ unsigned mix(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

__device__ bool guessed_sampled(unsigned warp)
{
    const unsigned keys[] = {0u, 1u, 0xffffffffu, 0x9e3779b9u, 0x12345678u};
    bool sampled = warp % 16 == 0;
    for (int k = 0; k < 5; ++k)
        sampled |= mix(warp ^ keys[k]) % 16 == 0;
    return sampled;
}

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    unsigned warps_per_block = (blockDim.x + 31) / 32;
    unsigned warp = blockIdx.x * warps_per_block + threadIdx.x / 32;
    if (guessed_sampled(warp)) {
        // The same 32 * CHUNK elements this warp's chunks cover, read 32 consecutive at a time.
        size_t base = ((size_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u)) * CHUNK;
        for (unsigned j = 0; j < CHUNK; ++j) {
            size_t i = base + 32 * j + (threadIdx.x & 31);
            if (i < n)
                y[i] = a * x[i];
        }
        return;
    }
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (size_t i = first; i < first + CHUNK && i < n; ++i)
        y[i] = a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
