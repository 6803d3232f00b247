// Alternative solution: the product with register blocking, 64 x 64 tiles of C on 16 x 16
// threads, 4 x 4 elements each; the tile of A is read along A's rows and turned on its way into
// shared memory (a stride of 17 words keeps that store free of bank conflicts). The transpose
// runs on a 1D grid that loops over all the tiles, with 32 x 16 threads moving two elements each.
// Must pass.
#include "lab05.h"

#define BM 64 // rows of C per block: columns of A
#define BN 64 // columns of C per block
#define BK 16 // steps along k per shared tile: rows of A and B
#define TX 16
#define TY 16
#define RM (BM / TY)
#define RN (BN / TX)
#define THREADS (TX * TY)

// The copy of A numbers the block's threads 0..255: word w of the 16 x 64 tile is A(t + w / 64,
// row0 + w % 64), so a warp reads 32 consecutive words of a row of A. It stores the word turned,
// at as[w % 64][w / 64] = A^T(row0 + w % 64, t + w / 64): from there on it is lab 04's register
// tiling. The rows of as are BK + 1 words long, so the 32 lanes' stores, 17 words apart, fall in
// 32 banks. Blocks loop down the rows of tiles past gridDim.y's 65535.
__global__ void matmul_at_b_registers(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[BM][BK + 1]; // as[r][i] = A^T(row0 + r, t + i)
    __shared__ float bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y, id = ty * TX + tx;
    int col0 = blockIdx.x * BN;
    int tiles_m = m / BM + (m % BM != 0), tiles_k = k / BK + (k % BK != 0);
    for (int tm = blockIdx.y; tm < tiles_m; tm += gridDim.y) {
        int row0 = tm * BM;
        float acc[RM][RN] = {};
        for (int tk = 0; tk < tiles_k; ++tk) {
            int t = tk * BK;
#pragma unroll
            for (int p = 0; p < BK * BM / THREADS; ++p) {
                int w = id + p * THREADS, i = t + w / BM, r = row0 + w % BM;
                as[w % BM][w / BM] = i < k && r < m ? a[(size_t)i * m + r] : 0.0f;
            }
#pragma unroll
            for (int p = 0; p < BK * BN / THREADS; ++p) {
                int w = id + p * THREADS, i = t + w / BN, col = col0 + w % BN;
                bs[w / BN][w % BN] = i < k && col < n ? b[(size_t)i * n + col] : 0.0f;
            }
            __syncthreads();
#pragma unroll
            for (int i = 0; i < BK; ++i) {
                float av[RM], bv[RN];
#pragma unroll
                for (int y = 0; y < RM; ++y)
                    av[y] = as[ty + TY * y][i];
#pragma unroll
                for (int x = 0; x < RN; ++x)
                    bv[x] = bs[i][tx + TX * x];
#pragma unroll
                for (int y = 0; y < RM; ++y)
#pragma unroll
                    for (int x = 0; x < RN; ++x)
                        acc[y][x] += av[y] * bv[x];
            }
            __syncthreads();
        }
#pragma unroll
        for (int y = 0; y < RM; ++y) {
            int row = row0 + ty + TY * y;
#pragma unroll
            for (int x = 0; x < RN; ++x) {
                int col = col0 + tx + TX * x;
                if (row < m && col < n)
                    c[(size_t)row * n + col] = acc[y][x];
            }
        }
    }
}

// Tile number t of a rows x cols matrix, counted row by row over tiles_x tiles a row, covers
// in's rows 32 (t / tiles_x) onwards and columns 32 (t % tiles_x) onwards. A 32 x 16 block reads
// it in two passes of 16 rows (consecutive lanes, consecutive words of a row of in) and writes
// the transposed tile in two passes of 16 rows of out, reading the shared tile down its columns;
// the padding column puts those 32 words in 32 banks. The grid is one-dimensional and its blocks
// take tiles t, t + gridDim.x, ..., so no dimension of it limits the matrix.
__global__ void transpose_tile_loop(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
    int tx = threadIdx.x, ty = threadIdx.y;
    size_t tiles_x = (size_t)(cols / 32 + (cols % 32 != 0));
    size_t tiles = tiles_x * (size_t)(rows / 32 + (rows % 32 != 0));
    for (size_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        int y0 = (int)(t / tiles_x) * 32, x0 = (int)(t % tiles_x) * 32;
        for (int j = ty; j < 32; j += 16)
            if (y0 + j < rows && x0 + tx < cols)
                tile[j][tx] = in[(size_t)(y0 + j) * cols + x0 + tx];
        __syncthreads();
        for (int j = ty; j < 32; j += 16)
            if (x0 + j < cols && y0 + tx < rows)
                out[(size_t)(x0 + j) * rows + y0 + tx] = tile[tx][j];
        __syncthreads(); // the tile is read before the next pass overwrites it
    }
}

extern "C" cudaError_t lab05_matmul_at_b(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    int tiles_n = n / BN + (n % BN != 0), tiles_m = m / BM + (m % BM != 0);
    dim3 block(TX, TY);
    dim3 grid(tiles_n > 0 ? tiles_n : 1, tiles_m < 1 ? 1 : tiles_m < 65535 ? tiles_m : 65535);
    matmul_at_b_registers<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}

extern "C" cudaError_t lab05_transpose(const float *in, float *out, int rows, int cols)
{
    size_t tiles = (size_t)(cols / 32 + (cols % 32 != 0)) * (size_t)(rows / 32 + (rows % 32 != 0));
    const size_t max_blocks = 0x7fffffff; // the limit of gridDim.x
    unsigned blocks = (unsigned)(tiles == 0 ? 1 : tiles < max_blocks ? tiles : max_blocks);
    transpose_tile_loop<<<blocks, dim3(32, 16)>>>(in, out, rows, cols);
    return cudaGetLastError();
}
