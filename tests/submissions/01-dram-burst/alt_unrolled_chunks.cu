// Alternative solution: no vectors. A block owns a chunk of 4 x 256 consecutive floats and each
// thread takes four of them, 256 apart, so every load and store still has 32 lanes on 32
// consecutive words; four loads are in flight before the first store. The grid is capped at
// 2^31 - 1 blocks and loops over the chunks. Must pass.
#include "lab01.h"

#define THREADS 256
#define PER_THREAD 4
#define CHUNK (THREADS * PER_THREAD) // floats per block and pass

// Thread t of the block reads elements base + t, base + 256 + t, base + 512 + t and base + 768 + t:
// at each of the four steps the warp's lanes are on consecutive words. All four values are
// loaded before any is stored, so a thread has four independent requests waiting on DRAM.
__global__ void scale_unrolled(float a, const float *x, float *y, size_t n)
{
    for (size_t base = (size_t)blockIdx.x * CHUNK; base < n; base += (size_t)gridDim.x * CHUNK) {
        float v[PER_THREAD];
#pragma unroll
        for (int j = 0; j < PER_THREAD; ++j) {
            size_t i = base + (size_t)j * THREADS + threadIdx.x;
            v[j] = i < n ? x[i] : 0.0f;
        }
#pragma unroll
        for (int j = 0; j < PER_THREAD; ++j) {
            size_t i = base + (size_t)j * THREADS + threadIdx.x;
            if (i < n)
                y[i] = a * v[j];
        }
    }
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    const size_t max_blocks = 0x7fffffff; // the limit of gridDim.x
    size_t chunks = (n + CHUNK - 1) / CHUNK;
    unsigned blocks = (unsigned)(chunks == 0 ? 1 : chunks < max_blocks ? chunks : max_blocks);
    scale_unrolled<<<blocks, THREADS>>>(a, x, y, n);
    return cudaGetLastError();
}
