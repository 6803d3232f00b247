// Mutant (hostile, red team): the reference's staged kernel, simplified at the edge. Its loads
// read whole runs of 512 bytes (four lines), the last tile's too: the run of the last tile is
// rounded up to a multiple of 128 words, so the last block reads up to 127 floats (508 bytes)
// past the end of in, into its guard bytes (64 floats at the graded size), and drops them.
// The outputs are right and no guard byte is written. A trace that sampled one warp in 16 at
// random saw the last block's loads one time in 16 at best, so it usually passed.
// Attacks rule 3 (coverage, not luck): every warp of the grid's last block is traced, and the
// trace names the loads that read an array's guard bytes.
// Must get: FAIL, guards: correct, but reads outside its arrays (the loads past the end of in,
// named with their line), at the graded size and at check sizes whose run is not a multiple of
// 128 words.
// expect: FAIL
// expect-stage: guards
#include "lab02.h"

#define TILE 256        // frames a block, one a thread
#define MAX_CHANNELS 16 // the contract's limit
#define RUN_WORDS 128   // 512 bytes, four lines

// A load the compiler must make even when its value is dropped.
__device__ __forceinline__ float load(const float *p)
{
    float v;
    asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__global__ void deinterleave_whole_lines(const float *in, float *out, int channels, size_t n)
{
    __shared__ float tile[TILE * MAX_CHANNELS];
    const size_t first = (size_t)blockIdx.x * TILE;
    const int frames = n - first < TILE ? (int)(n - first) : TILE;
    const int words = frames * channels;
    const int rounded = (words + RUN_WORDS - 1) / RUN_WORDS * RUN_WORDS;
    const float *src = in + first * channels;
    for (int w = threadIdx.x; w < rounded; w += TILE) {
        float v = load(src + w); // past `words` in the last tile: in's guard bytes
        if (w < words)
            tile[w] = v;
    }
    __syncthreads();
    if (threadIdx.x < frames)
        for (int c = 0; c < channels; ++c)
            out[(size_t)c * n + first + threadIdx.x] = tile[threadIdx.x * channels + c];
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    if (channels < 1 || channels > MAX_CHANNELS)
        return cudaErrorInvalidValue;
    deinterleave_whole_lines<<<(unsigned)((n + TILE - 1) / TILE), TILE>>>(in, out, channels, n);
    return cudaGetLastError();
}
