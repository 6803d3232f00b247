// Alternative solution (red team, honest): the kernel takes one parameter, a packed structure
// passed by value that holds both pointers at unaligned offsets (in at byte 1, out at byte 11),
// and runs 992-thread blocks (31 warps). A block stages 496 whole frames: its 992 threads read
// the run of 496 * channels words in order (consecutive threads, consecutive words), then
// write the 496 * channels outputs in plane order, thread j taking output j of the block (a
// warp may end one plane's run and start the next: both runs are whole sectors, since 496
// floats are 1984 bytes, 62 sectors).
// Tests rule 6: pointers at unaligned offsets inside a packed structure parameter must be
// found by the recording and relocated in every replay.
// Must pass.
// expect: PASS
// expect-stage: passed
#include "lab02.h"

#define THREADS 992 // 31 warps
#define TILE 496    // frames a block
#define MAX_CHANNELS 16

struct __attribute__((packed)) planes {
    unsigned char channels; // byte 0
    const float *in;        // bytes 1..8
    unsigned short tile;    // bytes 9..10
    float *out;             // bytes 11..18
    unsigned long long n;   // bytes 19..26
};

__global__ void deinterleave_packed(planes p)
{
    __shared__ float stage[TILE * MAX_CHANNELS];
    const int channels = p.channels, tile = p.tile;
    const size_t n = p.n, first = (size_t)blockIdx.x * tile;
    const int frames = n - first < (size_t)tile ? (int)(n - first) : tile;
    const int words = frames * channels;
    const float *src = p.in + first * channels;
    for (int w = threadIdx.x; w < words; w += THREADS)
        stage[w] = src[w];
    __syncthreads();
    for (int o = threadIdx.x; o < words; o += THREADS) {
        int c = o / frames, f = o % frames;
        p.out[(size_t)c * n + first + f] = stage[f * channels + c];
    }
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    if (channels < 1 || channels > MAX_CHANNELS)
        return cudaErrorInvalidValue;
    planes p;
    p.channels = (unsigned char)channels;
    p.in = in;
    p.tile = TILE;
    p.out = out;
    p.n = n;
    deinterleave_packed<<<(unsigned)((n + TILE - 1) / TILE), THREADS>>>(p);
    return cudaGetLastError();
}
