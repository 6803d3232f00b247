// Mutant (hostile, red team): the stub's chunked kernel, whose last block first makes four
// million cheap loads a thread (x[threadIdx.x], cached in L1, summed and stored under a
// condition never true). Rule 3 traces every warp of the grid's last block, whatever the
// sampling, so its 8 warps hand the trace 32 million records: more than any record buffer
// holds, at any sampling. Where the counters cannot run (no rights to them), the trace was the
// only engine, and an engine that failed used to give NOT GRADED, the 40 points kept and no
// FAIL; where they run, the counters graded alone. (Unlike `fills_trace`, which fills the
// buffer from the first 64 blocks and hoped they were sampled.)
// Attacks rule 2 (no verdict from half the evidence): a trace that the kernel made overflow is
// the kernel's doing.
// Must get: FAIL, not NOT GRADED: graded with --no-counters (tests/gpu/lab01.sh), the trace
// overflowed because of the kernel's own accesses (stage coalescing, or remeasure where the
// overflow is reported as a failed measurement).
// expect: FAIL
// expect-stage: coalescing|remeasure
#include "lab01.h"

#define CHUNK 16
#define FILLER (1 << 22)

// A load the compiler must make, cached in L1.
__device__ __forceinline__ float load(const float *p)
{
    float v;
    asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    if (blockIdx.x == gridDim.x - 1) {
        const float *cheap = x + threadIdx.x % n;
        float acc = 0.0f;
        for (int k = 0; k < FILLER; ++k)
            acc += load(cheap);
        if (acc == a * 1.0e30f) /* |acc| <= 8 * FILLER: never */
            y[0] = acc;
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
