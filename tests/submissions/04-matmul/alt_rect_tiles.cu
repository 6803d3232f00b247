// Alternative solution: rectangular tiles. A block of 64 x 4 threads computes a 32 x 64 tile of
// C (32 rows, 64 columns), each thread 8 elements down one column, stepping along k 16 at a time.
// The tile copies flatten the block into 256 threads that walk each tile row by row, lanes along
// the rows of A and B. Must pass, faster than the reference.
#include "lab04.h"

#define BM 32        // rows of C per block
#define BN 64        // columns of C per block, one per threadIdx.x
#define BK 16        // steps along k per shared tile
#define TY 4         // threadIdx.y
#define RM (BM / TY) // rows each thread computes: ty, ty + 4, ..., ty + 28
#define THREADS (BN * TY)

// A warp is 32 threads of one threadIdx.y: in the product each of its lanes reads its own column
// of bs (32 consecutive words) and all of them the same word of as (a broadcast), and each store
// covers 32 consecutive columns of a row of C. For the copies, thread id takes the words id,
// id + 256, ... of a tile in row-major order: half a warp on a 16-float row of A's tile, a warp
// on 32 floats of a row of B's. Zeros fill the tiles outside the matrices. Blocks loop down the
// rows of tiles, so that m may need more than the 65535 blocks gridDim.y allows.
__global__ void matmul_rect_tiles(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[BM][BK];
    __shared__ float bs[BK][BN];
    int tx = threadIdx.x, ty = threadIdx.y, id = ty * BN + tx;
    int col0 = blockIdx.x * BN, col = col0 + tx;
    int tiles_m = m / BM + (m % BM != 0), tiles_k = k / BK + (k % BK != 0);
    for (int tm = blockIdx.y; tm < tiles_m; tm += gridDim.y) {
        int row0 = tm * BM;
        float acc[RM] = {};
        for (int tk = 0; tk < tiles_k; ++tk) {
            int t = tk * BK;
#pragma unroll
            for (int p = 0; p < BM * BK / THREADS; ++p) {
                int w = id + p * THREADS, r = row0 + w / BK, i = t + w % BK;
                as[w / BK][w % BK] = r < m && i < k ? a[(size_t)r * k + i] : 0.0f;
            }
#pragma unroll
            for (int p = 0; p < BK * BN / THREADS; ++p) {
                int w = id + p * THREADS, i = t + w / BN, cc = col0 + w % BN;
                bs[w / BN][w % BN] = i < k && cc < n ? b[(size_t)i * n + cc] : 0.0f;
            }
            __syncthreads();
#pragma unroll
            for (int i = 0; i < BK; ++i) {
                float bv = bs[i][tx];
#pragma unroll
                for (int y = 0; y < RM; ++y)
                    acc[y] += as[ty + TY * y][i] * bv;
            }
            __syncthreads();
        }
#pragma unroll
        for (int y = 0; y < RM; ++y) {
            int row = row0 + ty + TY * y;
            if (row < m && col < n)
                c[(size_t)row * n + col] = acc[y];
        }
    }
}

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    int tiles_n = n / BN + (n % BN != 0), tiles_m = m / BM + (m % BM != 0);
    dim3 block(BN, TY);
    dim3 grid(tiles_n > 0 ? tiles_n : 1, tiles_m < 1 ? 1 : tiles_m < 65535 ? tiles_m : 65535);
    matmul_rect_tiles<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
