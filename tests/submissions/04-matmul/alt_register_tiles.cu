// Alternative solution: register blocking. A block of 16 x 16 threads computes a 64 x 64 tile of
// C, each thread a 4 x 4 grid of it in registers, stepping along k 16 at a time through shared
// tiles of 64 x 16 (A) and 16 x 64 (B) that every thread helps copy, lanes along the rows. Each
// value read from shared memory serves 4 products. Must pass, faster than the reference.
#include "lab04.h"

#define BM 64        // rows of C per block
#define BN 64        // columns of C per block
#define BK 16        // steps along k per shared tile
#define TX 16        // threads along a row of the tile (threadIdx.x)
#define TY 16        // threads along a column (threadIdx.y)
#define RM (BM / TY) // rows each thread computes
#define RN (BN / TX) // columns each thread computes
#define THREADS (TX * TY)

// The copies number the block's threads 0..255 and give thread id the words id, id + 256, ... of
// a tile in row-major order, so consecutive lanes read consecutive words of a row of A (16 of
// them: half a warp per row) or of B (32). Thread (tx, ty) owns the rows ty + 16 y and the columns
// tx + 16 x of the tile: the lanes of a warp read 16 consecutive words of bs and two words of as
// (broadcasts), and store 16 consecutive columns of C in each of two rows. Outside the matrices
// the tiles hold zeros, which add nothing. Blocks loop down the rows of tiles, so that m may
// need more than the 65535 blocks gridDim.y allows.
__global__ void matmul_register_tiles(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[BM][BK];
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
            for (int p = 0; p < BM * BK / THREADS; ++p) {
                int w = id + p * THREADS, r = row0 + w / BK, i = t + w % BK;
                as[w / BK][w % BK] = r < m && i < k ? a[(size_t)r * k + i] : 0.0f;
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

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    int tiles_n = n / BN + (n % BN != 0), tiles_m = m / BM + (m % BM != 0);
    dim3 block(TX, TY);
    dim3 grid(tiles_n > 0 ? tiles_n : 1, tiles_m < 1 ? 1 : tiles_m < 65535 ? tiles_m : 65535);
    matmul_register_tiles<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
