// Alternative solution: no shared memory. Each warp de-interleaves 32 frames at a time: it reads
// their 32 * channels words as `channels` coalesced loads into registers, then gathers each
// channel's 32 samples with warp shuffles and stores them as one run. The kernel is a template
// on the channel count (1 to 16), so the registers are indexed at compile time. Must pass.
#include "lab02.h"

#define WARP 32
#define THREADS 256 // 8 warps a block
#define FULL_MASK 0xffffffffu

// The 32 frames first..first+31 are one contiguous run of 32 * C words. Load j reads word
// j * 32 + lane of the run into v[j]: consecutive lanes, consecutive words. Sample c of frame
// `lane` is word lane * C + c, which lane (lane * C + c) % 32 holds in v[(lane * C + c) / 32].
// Every lane asks that lane for each of its C registers and keeps the one it needs (a shuffle
// reads the same register in every lane, so the register cannot depend on the lane); then the
// 32 lanes store 32 consecutive samples of channel c. Warps loop over the groups of 32 frames;
// the loop is the same for all lanes of a warp, so every shuffle has all 32 lanes.
template <int C> __global__ void deinterleave_shuffle(const float *in, float *out, size_t n)
{
    const int lane = threadIdx.x % WARP;
    const size_t groups = (n + WARP - 1) / WARP;
    const size_t warps = (size_t)gridDim.x * (THREADS / WARP);
    for (size_t g = (size_t)blockIdx.x * (THREADS / WARP) + threadIdx.x / WARP; g < groups;
         g += warps) {
        size_t first = g * WARP;
        size_t frames = n - first < WARP ? n - first : WARP;
        int words = (int)frames * C;
        const float *src = in + first * C;
        float v[C];
#pragma unroll
        for (int j = 0; j < C; ++j) {
            int w = j * WARP + lane;
            v[j] = w < words ? src[w] : 0.0f;
        }
#pragma unroll
        for (int c = 0; c < C; ++c) {
            int word = lane * C + c;
            int owner = word % WARP, slot = word / WARP;
            float sample = 0.0f;
#pragma unroll
            for (int j = 0; j < C; ++j) {
                float got = __shfl_sync(FULL_MASK, v[j], owner);
                if (j == slot)
                    sample = got;
            }
            if ((size_t)lane < frames)
                out[(size_t)c * n + first + lane] = sample;
        }
    }
}

template <int C> static void launch(const float *in, float *out, size_t n)
{
    const size_t max_blocks = 0x7fffffff; // the limit of gridDim.x
    size_t groups = (n + WARP - 1) / WARP;
    size_t blocks = (groups + THREADS / WARP - 1) / (THREADS / WARP);
    blocks = blocks == 0 ? 1 : blocks < max_blocks ? blocks : max_blocks;
    deinterleave_shuffle<C><<<(unsigned)blocks, THREADS>>>(in, out, n);
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    switch (channels) {
    case 1:
        launch<1>(in, out, n);
        break;
    case 2:
        launch<2>(in, out, n);
        break;
    case 3:
        launch<3>(in, out, n);
        break;
    case 4:
        launch<4>(in, out, n);
        break;
    case 5:
        launch<5>(in, out, n);
        break;
    case 6:
        launch<6>(in, out, n);
        break;
    case 7:
        launch<7>(in, out, n);
        break;
    case 8:
        launch<8>(in, out, n);
        break;
    case 9:
        launch<9>(in, out, n);
        break;
    case 10:
        launch<10>(in, out, n);
        break;
    case 11:
        launch<11>(in, out, n);
        break;
    case 12:
        launch<12>(in, out, n);
        break;
    case 13:
        launch<13>(in, out, n);
        break;
    case 14:
        launch<14>(in, out, n);
        break;
    case 15:
        launch<15>(in, out, n);
        break;
    case 16:
        launch<16>(in, out, n);
        break;
    default:
        return cudaErrorInvalidValue; // the contract allows 1 to 16 channels
    }
    return cudaGetLastError();
}
