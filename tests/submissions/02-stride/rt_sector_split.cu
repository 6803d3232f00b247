// Mutant (hostile, red team): the stub's strided reads, split by sector. Each lane works out
// the 32-byte sector its word lies in; __match_any_sync() groups the lanes that share one, and
// the groups load in turn, each a request of its own (a per-lane predicate: the lane loads
// only when its group's turn comes). With 6 channels, lanes are 24 bytes apart and a group
// holds one or two lanes: every request touches exactly the one sector it needs, 100% by the
// per-request yardstick, with no waste within any request. The stores stay the stub's, one run
// of consecutive words a warp.
// Attacks rule 1 (yardstick = the task): the split moves the stub's 24 sectors for every 4 the
// task needs, in 24 requests instead of one.
// Must get: FAIL, coalescing: correct, loads at about 1/6 of the task's least (stores
// coalesced). Its 24 times the stub's load requests may overflow the trace, which fails it
// too (stage remeasure allowed for that).
// expect: FAIL
// expect-stage: coalescing|remeasure
#include <stdint.h>

#include "lab02.h"

#define THREADS 256
#define FULL_MASK 0xffffffffu

// Thread t writes out[t], sample f of channel c, read from in[f * channels + c] as the stub
// does; the load goes one sector's group of lanes at a time. Lanes past the end take part in
// the grouping (every lane must reach __match_any_sync) but load nothing.
__global__ void deinterleave_sector_split(const float *in, float *out, int channels, size_t n)
{
    const size_t total = (size_t)channels * n;
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const bool active = t < total;
    const float *src = in;
    if (active) {
        size_t c = t / n, f = t % n;
        src = in + f * channels + c;
    }
    // A sector number no real address has for the lanes with nothing to load.
    unsigned long long sector = active ? (unsigned long long)(uintptr_t)src / 32 : ~0ull;
    unsigned group = __match_any_sync(FULL_MASK, sector);
    unsigned lane = threadIdx.x % 32;
    unsigned pending = __ballot_sync(FULL_MASK, active);
    float v = 0.0f;
    while (pending) {
        unsigned leader = __ffs(pending) - 1;
        unsigned turn = __shfl_sync(FULL_MASK, group, leader); // the leader's group
        if ((turn >> lane) & 1)
            v = *(volatile const float *)src;
        pending &= ~turn;
        __syncwarp();
    }
    if (active)
        out[t] = v;
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    size_t total = (size_t)channels * n;
    deinterleave_sector_split<<<(unsigned)((total + THREADS - 1) / THREADS), THREADS>>>(
        in, out, channels, n);
    return cudaGetLastError();
}
