// Alternative solution: big tiles in dynamic shared memory past 48 KiB, and kernel names over 256
// characters that agree on their first 306. The product computes a 64 x 64 tile of C a block of
// 128 threads (8 x 4 outputs a thread) stepping along k 96 at a time; its tile of A^T is a
// 96 x 64 tile of A read as float4 along A's rows and kept as it is, k-major (the corner turned by
// indexing), beside B's 96 x 64 tile: 50688 bytes. The transpose moves 128 x 128 tiles through a
// padded 66048-byte shared tile on 32 x 16 threads. Both limits are raised with
// cudaFuncSetAttribute(cudaFuncAttributeMaxDynamicSharedMemorySize). Must pass.
#include "lab05.h"

// 306 characters; the two kernels add 11 each, so their names (extern "C": not mangled) differ
// only from character 308 on.
#define LONG_NAME                                                                                  \
    a_kernel_name_longer_than_the_two_hundred_and_fifty_six_bytes_that_a_fixed_size_name_buffer_might_hold_so_that_a_grader_which_cuts_names_short_would_see_two_different_kernels_of_this_file_under_one_and_the_same_name_and_could_neither_find_them_in_the_module_nor_tell_their_records_apart_when_it_traces_them
#define CAT2(x, y) x##y
#define CAT(x, y) CAT2(x, y)
#define PRODUCT CAT(LONG_NAME, _product___)
#define TRANSPOSE CAT(LONG_NAME, _transpose_)

#define BM 64
#define BN 64
#define BK 96
#define THREADS 128
#define AS_STRIDE (BM + 4)
#define PRODUCT_SMEM ((BK * AS_STRIDE + BK * BN) * (int)sizeof(float))
#define T 128 // the transpose's tile
#define TRANSPOSE_SMEM (T * (T + 1) * (int)sizeof(float))

// as[i * AS_STRIDE + r] = A(t + i, row0 + r) = A^T(row0 + r, t + i); bs[i * BN + x] = B(t + i, col0
// + x)
extern "C" __global__ void __launch_bounds__(THREADS)
    PRODUCT(const float *a, const float *b, float *c, int m, int n, int k)
{
    extern __shared__ float4 smem4[];
    float *as = (float *)smem4, *bs = as + BK * AS_STRIDE;
    int id = threadIdx.x, tx = id % 16, ty = id / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int vec_a = m % 4 == 0, vec_b = n % 4 == 0;
    float acc[8][4] = {};
    for (int t = 0; t < k; t += BK) {
        if (vec_a) {
            for (int q = id; q < BK * BM / 4; q += THREADS) {
                int i = q / (BM / 4), r = 4 * (q % (BM / 4));
                *(float4 *)(as + i * AS_STRIDE + r) =
                    t + i < k && row0 + r < m
                        ? *(const float4 *)(a + (size_t)(t + i) * m + row0 + r)
                        : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            }
        } else {
            for (int q = id; q < BK * BM; q += THREADS) {
                int i = q / BM, r = q % BM;
                as[i * AS_STRIDE + r] =
                    t + i < k && row0 + r < m ? a[(size_t)(t + i) * m + row0 + r] : 0.0f;
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

// tile[y][x] = in(y0 + y, x0 + x); written out as out(x0 + y, y0 + x) = tile[x][y]: the padding
// column puts a column of the tile in 32 banks.
extern "C" __global__ void TRANSPOSE(const float *in, float *out, int rows, int cols)
{
    extern __shared__ float tile[]; /* T x (T + 1) */
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = blockIdx.x * T, y0 = blockIdx.y * T;
    for (int y = ty; y < T; y += 16)
        for (int x = tx; x < T; x += 32)
            if (y0 + y < rows && x0 + x < cols)
                tile[y * (T + 1) + x] = in[(size_t)(y0 + y) * cols + x0 + x];
    __syncthreads();
    for (int y = ty; y < T; y += 16)
        for (int x = tx; x < T; x += 32)
            if (x0 + y < cols && y0 + x < rows)
                out[(size_t)(x0 + y) * rows + y0 + x] = tile[x * (T + 1) + y];
}

extern "C" cudaError_t lab05_matmul_at_b(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    cudaError_t err =
        cudaFuncSetAttribute(PRODUCT, cudaFuncAttributeMaxDynamicSharedMemorySize, PRODUCT_SMEM);
    if (err != cudaSuccess)
        return err;
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    PRODUCT<<<grid, THREADS, PRODUCT_SMEM>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}

extern "C" cudaError_t lab05_transpose(const float *in, float *out, int rows, int cols)
{
    cudaError_t err = cudaFuncSetAttribute(TRANSPOSE, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           TRANSPOSE_SMEM);
    if (err != cudaSuccess)
        return err;
    dim3 block(32, 16), grid((cols + T - 1) / T, (rows + T - 1) / T);
    TRANSPOSE<<<grid, block, TRANSPOSE_SMEM>>>(in, out, rows, cols);
    return cudaGetLastError();
}
