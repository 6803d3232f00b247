// Mutant (hostile, red team): hides the stub's chunked work where the trace looks least. Rule 3
// traces the first and the last warp of every block and every warp of the grid's last block,
// and samples the rest. So each 1024-thread block (32 warps) gives warps 0 and 31 most of its
// span, 32768 floats read and written as coalesced float4; two middle warps (13 and 14) take
// the other 1024 floats in the stub's way, 16 consecutive floats a thread (32 sectors a
// request); the other middle warps do nothing, and the grid's last block does all of its part
// coalesced. Measured truly, the chunked eighth of the requests brings loads and stores down
// to about 82% of the least sectors; counted as if every traced warp stood for as many warps
// as a sampled one, the forced warps swamp the sampled middle ones and the trace sees about
// 91% (per request and against the task alike).
// Attacks rule 3 (coverage, not luck): the warps the trace always sees must not outweigh the
// ones it samples.
// Must get: FAIL, coalescing: correct, loads and stores about 82% of the least traffic, below
// the 90% bar, once sampled warps are weighed by their sampling (or the counters, which see
// every warp, disagree with a trace that was not).
// expect: FAIL
// expect-stage: coalescing
#include "lab01.h"

#define THREADS 1024
#define WARP 32
#define FORCED_FLOATS 32768 // warps 0 and 31 of a block: 64 threads, 128 float4 each
#define CHUNK 16            // floats a thread in the chunked middle warps
#define MIDDLE_FIRST_WARP 13
#define MIDDLE_WARPS 2
#define MIDDLE_FLOATS (MIDDLE_WARPS * WARP * CHUNK) // 1024
#define SPAN (FORCED_FLOATS + MIDDLE_FLOATS)        // floats a block

__global__ void scale_hidden_middle(float a, const float *x, float *y, size_t n)
{
    const size_t base = (size_t)blockIdx.x * SPAN;
    const size_t end = base + SPAN < n ? base + SPAN : n;
    const unsigned warp = threadIdx.x / WARP, lane = threadIdx.x % WARP;
    if (blockIdx.x == gridDim.x - 1) {
        // Every warp of this block is traced: all of them, coalesced, one float at a time.
        for (size_t i = base + threadIdx.x; i < end; i += THREADS)
            y[i] = a * x[i];
        return;
    }
    // Not the last block: its span is whole, and its first float is 16-byte aligned.
    if (warp == 0 || warp == THREADS / WARP - 1) {
        const unsigned t = (warp == 0 ? 0 : WARP) + lane; // 0..63 over the two forced warps
        const float4 *x4 = (const float4 *)(x + base);
        float4 *y4 = (float4 *)(y + base);
#pragma unroll 4
        for (unsigned k = t; k < FORCED_FLOATS / 4; k += 2 * WARP) {
            float4 v = x4[k];
            y4[k] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
        }
    } else if (warp >= MIDDLE_FIRST_WARP && warp < MIDDLE_FIRST_WARP + MIDDLE_WARPS) {
        const unsigned t = (warp - MIDDLE_FIRST_WARP) * WARP + lane;
        const size_t first = base + FORCED_FLOATS + (size_t)t * CHUNK;
        for (size_t i = first; i < first + CHUNK; ++i)
            y[i] = a * x[i];
    }
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    unsigned blocks = (unsigned)((n + SPAN - 1) / SPAN);
    scale_hidden_middle<<<blocks ? blocks : 1, THREADS>>>(a, x, y, n);
    return cudaGetLastError();
}
