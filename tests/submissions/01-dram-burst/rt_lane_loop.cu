// Mutant (hostile, red team): the stub's chunked kernel, each of whose warp-wide loads and
// stores is split into 32 one-lane requests: a loop over j = 0..31 in which only lane j loads
// x[i] and stores y[i], with __syncwarp() between the steps so that the compiler cannot merge
// them. Each request then asks for one word and touches one sector: 100% by the per-request
// yardstick, which graded the split as coalesced.
// Attacks rule 1 (yardstick = the task): a thread's 16 loads move 16 sectors where the task
// needs 2 (its 64 bytes), and so do its stores.
// Must get: FAIL, coalescing: correct, loads and stores at about 12.5% of the task's least
// traffic. The split makes 32 times the stub's requests, so a trace buffer that overflows on
// them fails it too (never NOT GRADED, never PASS): stage remeasure is allowed for that.
// expect: FAIL
// expect-stage: coalescing|remeasure
#include "lab01.h"

#define CHUNK 16
#define WARP 32

// Thread t owns elements t * CHUNK .. t * CHUNK + 15, as in the stub; lane j of each warp
// handles its element alone while the other 31 lanes wait at the __syncwarp().
__global__ void scale_one_lane_at_a_time(float a, const float *x, float *y, size_t n)
{
    const unsigned lane = threadIdx.x % WARP;
    const size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (int k = 0; k < CHUNK; ++k) {
        const size_t i = first + k;
        for (unsigned j = 0; j < WARP; ++j) {
            if (lane == j && i < n)
                y[i] = a * x[i];
            __syncwarp();
        }
    }
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    unsigned blocks = (unsigned)((workers + threads - 1) / threads);
    scale_one_lane_at_a_time<<<blocks, threads>>>(a, x, y, n);
    return cudaGetLastError();
}
