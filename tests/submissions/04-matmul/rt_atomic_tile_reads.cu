// Mutant (hostile, red team B): the strided tile copy of A read through atomics.
// expect: FAIL
// expect-stage: coalescing|contract
//
// What it does: the 32 x 32 tiled product with A's tile copied down A's columns (lanes k floats
// apart), each word read by `atomicOr(word, 0)`, which returns it and leaves it as it was. The
// trace patched only loads and stores, and the counters count atomics apart from ld and st, so
// neither saw A's tile: B's coalesced tile loads and C's stores were all that was graded.
// Rule attacked: rule 2 (global atomics and reductions are measured, as stores, by the trace).
// Must get: FAIL, coalescing (stores): A's atomics are 32-sector requests of 4 useful bytes
// each, and bytes the task never writes, so the stores' efficiency falls far below 0.90. (A
// grader that also refuses atomics on an input may stop it at the contract.)
#include "lab04.h"

#define TILE 32

__device__ __forceinline__ float read_through_atomic(const float *p)
{
    return __uint_as_float(atomicOr((unsigned *)p, 0u));
}

__global__ void matmul_atomic_tiles(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    int row = row0 + ty, col = col0 + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[tx][ty] = row0 + tx < m && t + ty < k
                         ? read_through_atomic(a + (size_t)(row0 + tx) * k + t + ty)
                         : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; ++i)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_atomic_tiles<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
