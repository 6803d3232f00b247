// Alternative solution (red team, honest): a persistent kernel. The grid is four blocks an SM;
// each block takes tiles of 4096 floats (1024 float4) from an atomic counter in a `__device__`
// variable until none are left, its 256 threads reading and writing each tile's float4 in
// consecutive order (a warp moves 512 contiguous bytes). A one-thread kernel launched just
// before sets the counter to 0, so every launch starts from the first tile however often the
// launcher runs in one process (the recording calls it at every size). Loads and stores are
// the task's least; the only other traffic is one atomic a tile (about 0.2% of the stores).
// Tests rule 6 (a persistent kernel with an atomic tile counter must pass) and rule 2 (atomics
// are measured, as stores: the counter's few must not fail it).
// Must pass.
// expect: PASS
// expect-stage: passed
#include "lab01.h"

#define THREADS 256
#define TILE_VECTORS 1024 // float4 a tile: four a thread

__device__ unsigned int next_tile;

__global__ void reset_tiles(void)
{
    next_tile = 0;
}

__global__ void scale_persistent(float a, const float4 *x4, float4 *y4, size_t n4, const float *x,
                                 float *y, size_t n)
{
    __shared__ unsigned int taken;
    const size_t tiles = (n4 + TILE_VECTORS - 1) / TILE_VECTORS;
    for (;;) {
        if (threadIdx.x == 0)
            taken = atomicAdd(&next_tile, 1u);
        __syncthreads();
        const size_t tile = taken;
        __syncthreads(); // every thread has read it before thread 0 takes the next
        if (tile >= tiles)
            break;
        const size_t base = tile * TILE_VECTORS;
#pragma unroll
        for (int k = 0; k < TILE_VECTORS / THREADS; ++k) {
            size_t i = base + (size_t)k * THREADS + threadIdx.x;
            if (i < n4) {
                float4 v = x4[i];
                y4[i] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
            }
        }
    }
    // The last n % 4 floats, one a thread of block 0.
    if (blockIdx.x == 0 && threadIdx.x < n % 4) {
        size_t i = 4 * n4 + threadIdx.x;
        y[i] = a * x[i];
    }
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    int device = 0, sms = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (err != cudaSuccess)
        return err;
    size_t n4 = n / 4, tiles = (n4 + TILE_VECTORS - 1) / TILE_VECTORS;
    size_t blocks = (size_t)sms * 4;
    if (blocks > tiles)
        blocks = tiles ? tiles : 1;
    reset_tiles<<<1, 1>>>();
    scale_persistent<<<(unsigned)blocks, THREADS>>>(a, (const float4 *)x, (float4 *)y, n4, x, y, n);
    return cudaGetLastError();
}
