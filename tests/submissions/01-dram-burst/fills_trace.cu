// Mutant (hostile): the stub's kernel, whose first 64 blocks first make 3 million cheap
// coalesced loads per thread (summed, stored under a condition never true), to fill the
// trace's record buffer, even at its last setting (one warp in 128, 2^21 records), before the
// chunked work is seen. A trace that still overflows is not graded: must fail, correct, and not
// be graded by the trace at high efficiency (loads below 0.5, or another engine graded).
#include "lab01.h"

#define CHUNK 16
#define FILLING_BLOCKS 64
#define FILLER 3000000

__device__ __forceinline__ float load(const float *p)
{
    float v;
    asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    if (blockIdx.x < FILLING_BLOCKS) {
        const float *cheap = x + ((size_t)blockIdx.x * blockDim.x + threadIdx.x) % n;
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
