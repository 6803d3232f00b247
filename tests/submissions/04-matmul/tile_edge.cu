// Mutant: an off-by-one tile edge. A's last tile along k takes one column too many (t + tx <= k).
// In every row but the last that column is the next row's first element, multiplied by a zero of
// B's tile, so it does no harm; in the last row it lies past the end of A, where the grader's
// guard holds NaN, and the whole last row of C comes out NaN. Must fail correctness.
#include "lab04.h"

#define TILE 32

// A block computes a TILE x TILE tile of C. For each step along k, its threads copy a tile of A
// and a tile of B into shared memory, threadIdx.x along the rows of both (consecutive lanes read
// consecutive words), then every thread reads TILE pairs from shared memory. Each element loaded
// from global memory is used TILE times. Past the edge of a matrix, tiles are filled with zeros,
// which add nothing to the sums.
__global__ void matmul_tiled(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[ty][tx] = row < m && t + tx <= k ? a[(size_t)row * k + t + tx] : 0.0f;
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
    matmul_tiled<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
