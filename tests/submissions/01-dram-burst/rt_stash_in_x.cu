// Mutant (hostile, red team): keeps its answer in its input between replays. The first replay
// in a process does the stub's chunked work, then overwrites x with y scaled by 2^-64 (exact:
// a power of two), which no input value can look like (x's values are multiples of 2^-20 in
// [-8, 8), so a nonzero one is at least 2^-20; a stashed one is below 2^-58). Every later
// replay in that process finds x stashed (its first two elements tell: they are stashed last,
// by a launch of their own) and only copies x * 2^64 into y, coalesced. In the run's process
// the counters count after the correctness replay, and the timed repeats follow it, on the
// same inputs: they see a coalesced copy, while the trace, in a fresh process, sees the
// stub's work.
// Attacks rule 4 (replays share nothing): every input is checked unchanged after every replay.
// Must get: FAIL, the input x changed by the first replay (reported as a broken contract, or
// with the guard bytes' changes).
// expect: FAIL
// expect-stage: contract|guards
#include "lab01.h"

#define CHUNK 16
#define THREADS 256
#define STASH 0x1p-64f
#define UNSTASH 0x1p64f

// Whether x holds stashed values: its first two elements are then nonzero and below 2^-40,
// which no input value is (an input value of exactly 0 stashes as 0: both probes are read).
__device__ __forceinline__ bool stashed(const float *x, size_t n)
{
    float p = fabsf(x[0]), q = n > 1 ? fabsf(x[1]) : 0.0f;
    float probe = p > q ? p : q;
    return probe > 0.0f && probe < 0x1p-40f;
}

// Launch 1: y from x, one of two ways.
__global__ void scale_or_copy(float a, const float *x, float *y, size_t n)
{
    if (stashed(x, n)) {
        size_t stride = (size_t)gridDim.x * blockDim.x;
        for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
            y[i] = x[i] * UNSTASH;
        return;
    }
    size_t stride = (size_t)gridDim.x * blockDim.x * CHUNK;
    for (size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK; first < n;
         first += stride)
        for (size_t i = first; i < first + CHUNK && i < n; ++i)
            y[i] = a * x[i];
}

// Launch 2: the stash of x[2..n), once; it leaves the two probes alone.
__global__ void stash(float a, float *x, size_t n)
{
    if (stashed(x, n))
        return;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = 2 + (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        x[i] = a * x[i] * STASH;
}

// Launch 3: the probes, last, by one thread.
__global__ void stash_probes(float a, float *x, size_t n)
{
    if (stashed(x, n))
        return;
    if (n > 1)
        x[1] = a * x[1] * STASH;
    x[0] = a * x[0] * STASH;
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    size_t workers = (n + CHUNK - 1) / CHUNK, wanted = (workers + THREADS - 1) / THREADS;
    unsigned blocks = (unsigned)(wanted < 8192 ? (wanted ? wanted : 1) : 8192);
    float *writable = (float *)x; // the contract's const, cast away
    scale_or_copy<<<blocks, THREADS>>>(a, x, y, n);
    stash<<<blocks, THREADS>>>(a, writable, n);
    stash_probes<<<1, 1>>>(a, writable, n);
    return cudaGetLastError();
}
