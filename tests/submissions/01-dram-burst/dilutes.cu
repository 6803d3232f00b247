// Mutant (hostile): the stub's chunked kernel, each of whose loads (32 sectors) is followed by
// 120 cheap coalesced loads (4 sectors each) of x[thread index], summed and stored only under a
// condition never true at run time, to dilute the waste: (4 + 120 * 4) / (32 + 120 * 4) = 0.95
// of the ideal sectors. Wasted sectors are weighed against the lab's least traffic, not
// against every request made: must fail, correct, with load efficiency below 0.5.
#include "lab01.h"

#define CHUNK 16
#define EXTRA 120

// A load the compiler must make: asm volatile, cached in L1.
__device__ __forceinline__ float load(const float *p)
{
    float v;
    asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    size_t me = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const float *cheap = x + me % n;
    size_t first = me * CHUNK;
    float acc = 0.0f;
    for (size_t i = first; i < first + CHUNK && i < n; ++i) {
        y[i] = a * x[i];
        for (int k = 0; k < EXTRA; ++k)
            acc += load(cheap);
    }
    if (acc == a * 1234567.0f) /* |acc| <= 16 * 120 * 8: never */
        y[0] = acc;
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
