// Mutant (hostile, red team B): the strided tile copy of A done one lane at a time.
// expect: FAIL
// expect-stage: coalescing
//
// What it does: a 32 x 32 tiled product whose tile of A is copied down A's columns (lane tx
// takes row row0 + tx: the lanes of a warp k floats apart, 32 sectors a request), but never as
// one warp-wide load: the copy runs 32 times, `if (tx == j)`, with a __syncwarp() between, so
// that every load the trace records has one active lane. One lane's 4 bytes sit in one sector,
// which is also the least that lane could touch: per request, 100% efficient. B's tile and C
// are copied the solution's way.
// Rule attacked: rule 1 (yardstick = the task). Under per-request efficiency alone this was
// "coalesced".
// Must get: FAIL, coalescing (loads): against the task, A's elements cost a sector each per
// pass, 8x a 16x16-tiled kernel's share of A, so the loads' task efficiency is about 0.44.
#include "lab04.h"

#define TILE 32

__global__ void matmul_tiles_lane_by_lane(const float *a, const float *b, float *c, int m, int n,
                                          int k)
{
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    int row = row0 + ty, col = col0 + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        // as[r][i] = A(row0 + r, t + i), copied with lane tx on the row: one lane at a time.
#pragma unroll 1
        for (int j = 0; j < 32; ++j) {
            if (tx == j)
                as[tx][ty] =
                    row0 + tx < m && t + ty < k ? a[(size_t)(row0 + tx) * k + t + ty] : 0.0f;
            __syncwarp();
        }
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
    matmul_tiles_lane_by_lane<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
