// Mutant (hostile, red team B): outlasts the traced replay, so that the counters grade alone.
// expect: FAIL
// expect-stage: remeasure|coalescing|run
//
// What it does: 32 x 32 tiles with A's tile copied down A's columns (32 sectors a request),
// diluted by 64 cheap coalesced re-reads a tile step (rt_dilute_rereads: 0.90 per request). On
// the problem the trace replays (136 x 200 by 104, which the launcher knows from the grader's
// source), it also passes a flag that keeps one thread of block 0 asleep for 200 s, bounded
// by %globaltimer, past the trace's 180 s limit; at every other size the flag is 0. It does not
// sleep in the recording, which runs that launch too: a constructor of the library, which only
// the recording loads, sets a __device__ flag there first (the replays load the device code
// afresh, flag 0). So only the traced replay sleeps, and the trace is killed; before, a trace that
// did not finish left the counters to grade alone, and at the graded size they saw requests 90%
// efficient (labs 04 and 05 weighed nothing against the task). Rule attacked: rule 2 (no verdict
// from half the evidence: a trace that timed out because of the kernel is never a PASS; it fails).
// Must get: FAIL, the trace timed out on the kernel's own launch (or, should the trace be given
// the time, coalescing: the loads' task efficiency is a few percent).
#include "lab04.h"

#define TILE 32
#define REREADS 64
#define SLEEP_NS 200000000000ull /* 200 s */

__device__ __forceinline__ unsigned long long now_ns(void)
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// 1 only in the recording's process: its constructor (below) ran there.
__device__ int in_recording;

__global__ void note_recording(void)
{
    in_recording = 1;
}

__attribute__((constructor)) static void loaded_by_the_recording(void)
{
    note_recording<<<1, 1>>>();
}

__global__ void matmul_diluted_sleepy(const float *a, const float *b, float *c, int m, int n, int k,
                                      int sleep)
{
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    int row = row0 + ty, col = col0 + tx;
    float sum = 0.0f, extra = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[tx][ty] = row0 + tx < m && t + ty < k ? a[(size_t)(row0 + tx) * k + t + ty] : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        const float *brow = b + (size_t)(t + ty) * n + col0;
        if (t + ty < k && col0 + TILE <= n)
            for (int r = 1; r <= REREADS; ++r)
                extra += brow[(tx + r) % TILE];
        __syncthreads();
        for (int i = 0; i < TILE; ++i)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum + extra * 0.0f;
    if (sleep && !in_recording && blockIdx.x == 0 && blockIdx.y == 0 && tx == 0 && ty == 0) {
        unsigned long long start = now_ns();
        while (now_ns() - start < SLEEP_NS)
            __nanosleep(1000000);
    }
}

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    int traced = m == 136 && n == 200 && k == 104; /* LAB04_TRACE_M, _N, _K */
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_diluted_sleepy<<<grid, block>>>(a, b, c, m, n, k, traced);
    return cudaGetLastError();
}
