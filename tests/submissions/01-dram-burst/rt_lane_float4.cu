// Mutant (hostile, red team): the best a split can do. Each thread owns the stub's chunk of 16
// floats and moves it as four float4, but one lane at a time: __ballot_sync() names the lanes
// with work, and the lowest of them (__ffs) moves its whole chunk while the others wait. Every
// request is then one lane's 16 bytes inside one sector: 100% per request, with no waste for
// the old rule to weigh against the task.
// Attacks rule 1 (yardstick = the task): a chunk's 64 bytes are 2 sectors, and its four
// one-lane requests move 4: half the least traffic, however the lanes take turns.
// Must get: FAIL, coalescing: correct, loads and stores at about 50% of the task's least
// traffic (8 times the stub's requests: an overflowing trace fails it too, stage remeasure).
// expect: FAIL
// expect-stage: coalescing|remeasure
#include "lab01.h"

#define CHUNK 16 // floats a thread: four float4
#define WARP 32
#define FULL_MASK 0xffffffffu

// One thread's chunk, by the thread alone. cudaMalloc's alignment and a chunk of 64 bytes keep
// every float4 aligned; a chunk cut by the end of the array goes one float at a time.
__device__ void scale_chunk(float a, const float *x, float *y, size_t first, size_t n)
{
    if (first + CHUNK <= n) {
        const float4 *x4 = (const float4 *)(x + first);
        float4 *y4 = (float4 *)(y + first);
        for (int k = 0; k < CHUNK / 4; ++k) {
            float4 v = x4[k];
            y4[k] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
        }
    } else {
        for (size_t i = first; i < n; ++i)
            y[i] = a * x[i];
    }
}

__global__ void scale_lanes_in_turn(float a, const float *x, float *y, size_t n)
{
    const unsigned lane = threadIdx.x % WARP;
    const size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    unsigned pending = __ballot_sync(FULL_MASK, first < n);
    while (pending) {
        unsigned leader = __ffs(pending) - 1;
        if (lane == leader)
            scale_chunk(a, x, y, first, n);
        pending &= pending - 1;
        __syncwarp();
    }
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    unsigned blocks = (unsigned)((workers + threads - 1) / threads);
    scale_lanes_in_turn<<<blocks, threads>>>(a, x, y, n);
    return cudaGetLastError();
}
