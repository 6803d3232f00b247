// Alternative solution: deep tiles in dynamic shared memory past the default 48 KiB. A block of
// 128 threads computes a 64 x 64 tile of C, each thread 8 rows x 4 columns of it, stepping along k
// 96 at a time: tiles of 64 x 96 of A and 96 x 64 of B, 50688 bytes, so the launcher raises the
// kernel's limit with cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize). Global
// loads are float4 along the rows of A and B where k and n are multiples of 4 (scalar otherwise),
// A's tile is stored k-major, and C is stored as float4. Must pass: correct, coalesced, well over
// 1.1x the naive kernel, A and B read once per 64 columns and rows of C.
#include "lab04.h"

#define BM 64
#define BN 64
#define BK 96
#define THREADS 128
#define AS_STRIDE (BM + 4) // floats per k-row of A's tile: 16-byte rows, fewer conflicts
#define SMEM_BYTES ((BK * AS_STRIDE + BK * BN) * (int)sizeof(float))

__global__ void __launch_bounds__(THREADS)
    matmul_deep_tiles(const float *a, const float *b, float *c, int m, int n, int k)
{
    extern __shared__ float4 smem4[];
    float *as = (float *)smem4;      // as[i * AS_STRIDE + r] = A(row0 + r, t + i)
    float *bs = as + BK * AS_STRIDE; // bs[i * BN + x] = B(t + i, col0 + x)
    int id = threadIdx.x, tx = id % 16, ty = id / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int vec_a = k % 4 == 0, vec_b = n % 4 == 0;
    float acc[8][4] = {};
    for (int t = 0; t < k; t += BK) {
        if (vec_a) {
            for (int q = id; q < BM * BK / 4; q += THREADS) {
                int r = q / (BK / 4), i = 4 * (q % (BK / 4));
                float4 v = row0 + r < m && t + i < k
                               ? *(const float4 *)(a + (size_t)(row0 + r) * k + t + i)
                               : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                as[(i + 0) * AS_STRIDE + r] = v.x;
                as[(i + 1) * AS_STRIDE + r] = v.y;
                as[(i + 2) * AS_STRIDE + r] = v.z;
                as[(i + 3) * AS_STRIDE + r] = v.w;
            }
        } else {
            for (int q = id; q < BM * BK; q += THREADS) {
                int r = q / BK, i = q % BK;
                as[i * AS_STRIDE + r] =
                    row0 + r < m && t + i < k ? a[(size_t)(row0 + r) * k + t + i] : 0.0f;
            }
        }
        if (vec_b) {
            for (int q = id; q < BK * BN / 4; q += THREADS) {
                int i = q / (BN / 4), x = 4 * (q % (BN / 4));
                *(float4 *)(bs + i * BN + x) =
                    t + i < k && col0 + x < n
                        ? *(const float4 *)(b + (size_t)(t + i) * n + col0 + x)
                        : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            }
        } else {
            for (int q = id; q < BK * BN; q += THREADS) {
                int i = q / BN, x = q % BN;
                bs[i * BN + x] =
                    t + i < k && col0 + x < n ? b[(size_t)(t + i) * n + col0 + x] : 0.0f;
            }
        }
        __syncthreads();
#pragma unroll 4
        for (int i = 0; i < BK; ++i) {
            float4 a0 = *(const float4 *)(as + i * AS_STRIDE + 8 * ty);
            float4 a1 = *(const float4 *)(as + i * AS_STRIDE + 8 * ty + 4);
            float4 bv = *(const float4 *)(bs + i * BN + 4 * tx);
            float av[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float bw[4] = {bv.x, bv.y, bv.z, bv.w};
#pragma unroll
            for (int y = 0; y < 8; ++y)
#pragma unroll
                for (int x = 0; x < 4; ++x)
                    acc[y][x] += av[y] * bw[x];
        }
        __syncthreads();
    }
    int col = col0 + 4 * tx;
#pragma unroll
    for (int y = 0; y < 8; ++y) {
        int row = row0 + 8 * ty + y;
        if (row >= m)
            break;
        float *dst = c + (size_t)row * n + col;
        if (vec_b && col < n)
            *(float4 *)dst = make_float4(acc[y][0], acc[y][1], acc[y][2], acc[y][3]);
        else
            for (int x = 0; x < 4; ++x)
                if (col + x < n)
                    dst[x] = acc[y][x];
    }
}

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    cudaError_t err = cudaFuncSetAttribute(matmul_deep_tiles,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
    if (err != cudaSuccess)
        return err;
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    matmul_deep_tiles<<<grid, THREADS, SMEM_BYTES>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
