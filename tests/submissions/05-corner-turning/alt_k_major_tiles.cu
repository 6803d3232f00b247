// Alternative solution: the corner is turned by indexing, not by a transposed store. The product
// copies its tile of A as A is stored (rows of A, lanes along them) and reads it down a column in
// the product loop, where the whole warp wants one word (a broadcast); 32 x 8 threads, 4 elements
// of C each. The transpose uses 32 x 32 threads and an unpadded tile whose columns are swizzled
// (column x of row y at x ^ y), which keeps both of its shared accesses free of bank conflicts.
// Must pass.
#include "lab05.h"

#define TILE 32
#define ROWS 8                   // threadIdx.y of the product's blocks
#define PER_THREAD (TILE / ROWS) // elements of C per thread: rows ty, ty + 8, ty + 16, ty + 24
#define MAX_GRID_Y 65535

// C(r, col) = sum over i of A(i, r) B(i, col). The block's tile of A is the rows t..t+31 of A,
// columns row0..row0+31 (its columns are the rows of C the block computes); lane tx copies
// as[i][tx] = A(t + i, row0 + tx), consecutive lanes on consecutive words of a row of A, and
// nothing is transposed on the way in. In the product, thread (tx, ty) needs A(t + i, row) for
// its rows ty + 8 j: the same word for all the lanes of its warp, which share ty. Blocks loop
// down the rows of tiles, so that m may need more than 65535 of them.
__global__ void matmul_at_b_k_major(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE]; // as[i][r]: A(t + i, row0 + r), as stored
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE + tx;
    int tiles_m = m / TILE + (m % TILE != 0), tiles_k = k / TILE + (k % TILE != 0);
    for (int tm = blockIdx.y; tm < tiles_m; tm += gridDim.y) {
        int row0 = tm * TILE;
        float sum[PER_THREAD] = {};
        for (int tk = 0; tk < tiles_k; ++tk) {
            int t = tk * TILE;
#pragma unroll
            for (int j = 0; j < PER_THREAD; ++j) {
                int i = ty + ROWS * j;
                as[i][tx] = t + i < k && row0 + tx < m ? a[(size_t)(t + i) * m + row0 + tx] : 0.0f;
                bs[i][tx] = t + i < k && col < n ? b[(size_t)(t + i) * n + col] : 0.0f;
            }
            __syncthreads();
#pragma unroll
            for (int i = 0; i < TILE; ++i) {
                float bv = bs[i][tx];
#pragma unroll
                for (int j = 0; j < PER_THREAD; ++j)
                    sum[j] += as[i][ty + ROWS * j] * bv;
            }
            __syncthreads();
        }
#pragma unroll
        for (int j = 0; j < PER_THREAD; ++j) {
            int row = row0 + ty + ROWS * j;
            if (row < m && col < n)
                c[(size_t)row * n + col] = sum[j];
        }
    }
}

// One thread per element of a 32 x 32 tile. Thread (tx, ty) reads in(y0 + ty, x0 + tx), a row of
// the tile, and stores it at tile[ty][tx ^ ty]; then it writes out(x0 + ty, y0 + tx), a row of the
// transposed tile, from in(y0 + tx, x0 + ty), which sits at tile[tx][ty ^ tx]. For a fixed row,
// x ^ y runs over all 32 columns once, so the 32 lanes of both accesses hit 32 different banks
// without the padding column. Blocks loop down the rows of tiles past 65535.
__global__ void transpose_swizzled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * TILE; // the tile's first column of in, first row of out
    int tiles_y = rows / TILE + (rows % TILE != 0);
    for (int by = blockIdx.y; by < tiles_y; by += gridDim.y) {
        int y0 = by * TILE; // the tile's first row of in, first column of out
        if (y0 + ty < rows && x0 + tx < cols)
            tile[ty][tx ^ ty] = in[(size_t)(y0 + ty) * cols + x0 + tx];
        __syncthreads();
        if (x0 + ty < cols && y0 + tx < rows)
            out[(size_t)(x0 + ty) * rows + y0 + tx] = tile[tx][ty ^ tx];
        __syncthreads(); // the tile is read before the next pass overwrites it
    }
}

static unsigned grid_y(int rows_of_tiles)
{
    return rows_of_tiles < 1 ? 1 : rows_of_tiles < MAX_GRID_Y ? rows_of_tiles : MAX_GRID_Y;
}

extern "C" cudaError_t lab05_matmul_at_b(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    int tiles_n = n / TILE + (n % TILE != 0), tiles_m = m / TILE + (m % TILE != 0);
    dim3 block(TILE, ROWS), grid(tiles_n > 0 ? tiles_n : 1, grid_y(tiles_m));
    matmul_at_b_k_major<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}

extern "C" cudaError_t lab05_transpose(const float *in, float *out, int rows, int cols)
{
    int tiles_x = cols / TILE + (cols % TILE != 0), tiles_y = rows / TILE + (rows % TILE != 0);
    dim3 block(TILE, TILE), grid(tiles_x > 0 ? tiles_x : 1, grid_y(tiles_y));
    transpose_swizzled<<<grid, block>>>(in, out, rows, cols);
    return cudaGetLastError();
}
