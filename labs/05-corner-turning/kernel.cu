/*
 * Lab 05 - corner turning.  Your file: edit only between the STUDENT markers.
 *
 * Both launchers are correct. The product reads A^T through A, which is stored the other way
 * round: copying a tile of A^T row by row walks down a column of A, lanes m floats apart. The
 * transpose reads rows of its input and writes columns of its output, lanes rows floats apart.
 * Turn the corner in shared memory: read the global array along its rows, with consecutive
 * threads on consecutive words, and let the transposition happen on chip.
 *
 *   grade it:     make -f Makefile.student grade LAB=05
 *   read first:   handouts/05-corner-turning.md
 */
#include "lab05.h"

// ---- STUDENT BEGIN ----

#define TILE 32

// Tiled as in lab 04: a block computes a TILE x TILE tile of C. Its tile of A^T is copied the
// way A^T is read, row by row: lane tx takes A^T(row, t + tx) = a[(t + tx) * m + row], a whole
// row of A (m floats) away from its neighbour.
__global__ void matmul_at_b_strided(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[ty][tx] = row < m && t + tx < k ? a[(size_t)(t + tx) * m + row] : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; ++i)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

// One thread per element: reads along a row of in, writes down a column of out.
__global__ void transpose_naive(const float *in, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && col < cols)
        out[(size_t)col * rows + r] = in[(size_t)r * cols + col];
}

extern "C" cudaError_t lab05_matmul_at_b(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_at_b_strided<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}

extern "C" cudaError_t lab05_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    transpose_naive<<<grid, block>>>(in, out, rows, cols);
    return cudaGetLastError();
}

// ---- STUDENT END ----
