// Mutant: partly coalesced. Tiled and correct, and C's stores run along rows, but both tiles
// are copied with threadIdx.x on the rows: every load touches 32 sectors. Must fail on loads.
#include "lab04.h"

#define TILE 32

// Tiled as in the solution, except for the copy into shared memory.
__global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        // Transposed copy: lane tx loads row (tile row tx) of A and row (t + tx) of B, so a
        // warp's 32 lanes read 32 different rows, k or n floats apart.
        int arow = blockIdx.y * TILE + tx, bcol = blockIdx.x * TILE + ty;
        as[tx][ty] = arow < m && t + ty < k ? a[(size_t)arow * k + t + ty] : 0.0f;
        bs[tx][ty] = t + tx < k && bcol < n ? b[(size_t)(t + tx) * n + bcol] : 0.0f;
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
    matmul_tiled<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
