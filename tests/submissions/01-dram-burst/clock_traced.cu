// Mutant (hostile): a kernel that knows when it is traced. Each warp first times, with
// clock64(), a chain of 64 dependent global loads of x[lane] (L1 hits, ~30 cycles each) against
// the same chain in shared memory: only global accesses are instrumented, so under the tracer
// the global chain costs several times the shared one. Watched, it writes y = x, coalesced and
// wrong; otherwise it does the stub's correct, chunked work. The traced replay's outputs are
// checked too: must fail, the reason naming the trace (or the engines disagreeing).
#include "lab01.h"

#define CHUNK 16
#define PROBE 64
#define WATCHED_RATIO 4 /* global chain over shared chain: ~1 plain, far more instrumented */

__device__ __forceinline__ float load_global(const float *p)
{
    float v;
    asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__device__ __forceinline__ float load_shared(const float *p)
{
    float v;
    asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"((unsigned)__cvta_generic_to_shared(p)));
    return v;
}

// Whether this warp's global loads cost far more than its shared ones: a tool is watching.
__device__ bool watched(const float *x, size_t n, const float *s)
{
    unsigned lane = threadIdx.x & 31;
    size_t at = lane < n ? lane : 0;
    unsigned sat = lane;
    long long t0 = clock64();
    for (int k = 0; k < PROBE; ++k) {
        float v = load_global(x + at);
        at = __float_as_uint(v) == 0x7fc00001u ? 0 : at; /* never: but the next load waits */
    }
    long long t1 = clock64();
    for (int k = 0; k < PROBE; ++k) {
        float v = load_shared(s + sat);
        sat = __float_as_uint(v) == 0x7fc00001u ? 0 : sat;
    }
    long long t2 = clock64();
    // Every lane of the warp decides alike: the slowest lane's view.
    long long g = t1 - t0, sh = t2 - t1;
    for (int o = 16; o > 0; o /= 2) {
        g = max(g, __shfl_xor_sync(0xffffffffu, g, o));
        sh = max(sh, __shfl_xor_sync(0xffffffffu, sh, o));
    }
    return g > WATCHED_RATIO * (sh > 0 ? sh : 1) + 1000;
}

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    __shared__ float s[32];
    if (threadIdx.x < 32)
        s[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    if (watched(x, n, s)) {
        size_t base = (size_t)blockIdx.x * blockDim.x * CHUNK;
        for (unsigned j = 0; j < CHUNK; ++j) {
            size_t i = base + (size_t)j * blockDim.x + threadIdx.x;
            if (i < n)
                y[i] = x[i];
        }
        return;
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
