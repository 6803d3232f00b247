// Mutant: a corner turn that still strides. The tile of A is stored transposed in shared memory
// and used accordingly, so the product is right, but lane tx reads row t + tx of A: lanes m floats
// apart. Correct; must fail on loads.
#include "lab05.h"

#define TILE 32

// The tile of A is stored transposed (as[p][q] = A(t + p, row0 + q) = A^T(row0 + q, t + p)) and
// read as as[i][ty]; lane tx copies A(t + tx, row0 + ty), down a column of A.
__global__ void matmul_at_b_turned(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, row = row0 + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        // lane tx takes A(t + tx, row0 + ty): the transposed store, but the lanes still walk
        // down a column of A
        as[tx][ty] = row0 + ty < m && t + tx < k ? a[(size_t)(t + tx) * m + row0 + ty] : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; ++i)
            sum += as[i][ty] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

// A 32 x 8 block moves a 32 x 32 tile: it reads rows of the tile from in (consecutive lanes,
// consecutive words), and writes rows of the transposed tile to out, reading the shared tile
// down its columns. The padding column puts the 32 words of a tile column in 32 banks.
__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
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
