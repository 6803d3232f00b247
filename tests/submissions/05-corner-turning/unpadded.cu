// Not a failing mutant: the solution without the padding columns. Correct and coalesced, so it
// passes; its transposed shared-memory accesses hit one bank 32 times, which the report shows
// as bank conflicts when the counters can be read.
#include "lab05.h"

#define TILE 32

// Corner turning as in the solution, but as has no padding column: lanes tx store as[tx][ty]
// 32 words apart, all in one bank.
__global__ void matmul_at_b_turned(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE]; // no padding column
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, row = row0 + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[tx][ty] = row0 + tx < m && t + ty < k ? a[(size_t)(t + ty) * m + row0 + tx] : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; ++i)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

// The tiled transpose as in the solution, but the tile has no padding column: reading a column
// of tile[32][32], the 32 lanes hit one bank.
__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][32]; // no padding column
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (y + j < rows && x < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x; // out's column: a row of in
    y = blockIdx.x * 32 + threadIdx.y; // out's row: a column of in
    for (int j = 0; j < 32; j += 8)
        if (y + j < cols && x < rows)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" cudaError_t lab05_matmul_at_b(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_at_b_turned<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}

extern "C" cudaError_t lab05_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 31) / 32);
    transpose_tiled<<<grid, block>>>(in, out, rows, cols);
    return cudaGetLastError();
}
