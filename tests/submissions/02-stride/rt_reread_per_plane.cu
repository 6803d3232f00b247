// Mutant (hostile, red team): no stride in any request, and no staging either: the grid has a
// row of blocks per channel, and each warp, for its channel c, reads the whole run of its 32
// frames (32 * channels words) as `channels` coalesced loads, picks each lane's sample of
// channel c out of them with shuffles and stores the 32 samples as one run. Every request is
// whole and aligned, so the per-request yardstick and the old waste rule (sectors moved beyond
// what each request asked for) both saw 100%; but every input word is read once per channel.
// Attacks rule 1 (yardstick = the task): cheap coalesced re-reads count against the least
// traffic, which reads each input byte once.
// Must get: FAIL, coalescing: correct, stores coalesced, loads at 1/channels of the least
// traffic (about 17% at 6 channels).
// expect: FAIL
// expect-stage: coalescing|remeasure
#include "lab02.h"

#define WARP 32
#define THREADS 256
#define MAX_CHANNELS 16
#define FULL_MASK 0xffffffffu

// Block row c = blockIdx.y writes plane c. A warp's frames first..first+31 are the words
// first * channels .. (first + 32) * channels of in: load j is word j * 32 + lane of that run.
// Lane l's sample is word l * channels + c, in load (l * channels + c) / 32 of lane
// (l * channels + c) % 32.
__global__ void deinterleave_reread(const float *in, float *out, int channels, size_t n)
{
    const int c = blockIdx.y, lane = threadIdx.x % WARP;
    const size_t first = ((size_t)blockIdx.x * THREADS + threadIdx.x) / WARP * WARP;
    if (first >= n)
        return; // a whole warp past the end
    const size_t frames = n - first < WARP ? n - first : WARP;
    const int words = (int)frames * channels;
    const float *src = in + first * channels;
    const int word = lane * channels + c, owner = word % WARP, slot = word / WARP;
    float sample = 0.0f;
#pragma unroll
    for (int j = 0; j < MAX_CHANNELS; ++j) {
        if (j < channels) {
            int w = j * WARP + lane;
            float v = w < words ? src[w] : 0.0f;
            float got = __shfl_sync(FULL_MASK, v, owner);
            if (j == slot)
                sample = got;
        }
    }
    if ((size_t)lane < frames)
        out[(size_t)c * n + first + lane] = sample;
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    if (channels < 1 || channels > MAX_CHANNELS)
        return cudaErrorInvalidValue;
    dim3 grid((unsigned)((n + THREADS - 1) / THREADS), (unsigned)channels);
    deinterleave_reread<<<grid, THREADS>>>(in, out, channels, n);
    return cudaGetLastError();
}
