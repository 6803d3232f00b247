// Alternative solution (red team, honest): a staged kernel whose stage is 56 KiB of shared
// memory, 16 KiB static and 40 KiB dynamic. Over 48 KiB in all, a kernel must ask for it: the
// launcher calls cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize, 40 KiB)
// before it launches. Its dynamic part alone stays under 48 KiB, so a replay that sets the
// attribute only where the dynamic part passes 48 KiB (the kernel's static part forgotten)
// cannot launch it. A block of 512 threads stages as many whole frames as the 14336 words
// hold, rounded down to a multiple of 32 (2368 frames at 6 channels), reads their run in
// order, then writes them plane after plane, thread j taking output j of the block: every
// run starts and ends on a 128-byte line.
// Tests rule 6: static + dynamic shared memory over 48 KiB, with cudaFuncSetAttribute.
// Must pass.
// expect: PASS
// expect-stage: passed
#include "lab02.h"

#define THREADS 512
#define STATIC_WORDS 4096   // 16 KiB
#define DYNAMIC_WORDS 10240 // 40 KiB
#define MAX_CHANNELS 16

// Word w of the stage: the static part first, then the dynamic one.
__device__ __forceinline__ float *slot(float *fixed, float *extra, int w)
{
    return w < STATIC_WORDS ? &fixed[w] : &extra[w - STATIC_WORDS];
}

__global__ void deinterleave_big_stage(const float *in, float *out, int channels, size_t n,
                                       int tile)
{
    __shared__ float fixed[STATIC_WORDS];
    extern __shared__ float extra[];
    const size_t first = (size_t)blockIdx.x * tile;
    const int frames = n - first < (size_t)tile ? (int)(n - first) : tile;
    const int words = frames * channels;
    const float *src = in + first * channels;
    for (int w = threadIdx.x; w < words; w += THREADS)
        *slot(fixed, extra, w) = src[w];
    __syncthreads();
    for (int o = threadIdx.x; o < words; o += THREADS) {
        int c = o / frames, f = o % frames;
        out[(size_t)c * n + first + f] = *slot(fixed, extra, f * channels + c);
    }
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    if (channels < 1 || channels > MAX_CHANNELS)
        return cudaErrorInvalidValue;
    const int dynamic = DYNAMIC_WORDS * (int)sizeof(float);
    cudaError_t err = cudaFuncSetAttribute(deinterleave_big_stage,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, dynamic);
    if (err != cudaSuccess)
        return err;
    int tile = (STATIC_WORDS + DYNAMIC_WORDS) / channels / 32 * 32;
    deinterleave_big_stage<<<(unsigned)((n + tile - 1) / tile), THREADS, dynamic>>>(
        in, out, channels, n, tile);
    return cudaGetLastError();
}
