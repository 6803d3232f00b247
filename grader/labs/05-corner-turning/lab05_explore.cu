/*
 * lab05_explore.cu - the kernels behind lab 05's explore run: a transpose three ways (naive,
 * tiled, tiled with a padding column) and C = A^T B three ways (tile of A^T copied along A^T's
 * rows, corner-turned, corner-turned with a padding column).
 */
#include <cuda_runtime.h>

__global__ void t_naive(const float *in, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && col < cols)
        out[(size_t)col * rows + r] = in[(size_t)r * cols + col];
}

template <int PAD> __global__ void t_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][32 + PAD];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (y + j < rows && x < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8)
        if (y + j < cols && x < rows)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

/* TURN 0: lane tx copies A^T(row, t + tx), a column of A; 1: lane tx copies A(t + ty, row0 + tx)
 * into as[tx][ty]. PAD: a padding column in as. */
template <int TURN, int PAD>
__global__ void mm_at_b(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[32][32 + PAD];
    __shared__ float bs[32][32];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * 32, row = row0 + ty, col = blockIdx.x * 32 + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += 32) {
        if (TURN)
            as[tx][ty] = row0 + tx < m && t + ty < k ? a[(size_t)(t + ty) * m + row0 + tx] : 0.0f;
        else
            as[ty][tx] = row < m && t + tx < k ? a[(size_t)(t + tx) * m + row] : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < 32; ++i)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

/* way: 0 naive, 1 tiled, 2 tiled and padded. */
extern "C" cudaError_t lab05_transpose_way(int way, const float *in, float *out, int rows, int cols)
{
    if (way == 0)
        t_naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(in, out, rows, cols);
    else if (way == 1)
        t_tiled<0><<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 8)>>>(in, out, rows, cols);
    else
        t_tiled<1><<<dim3((cols + 31) / 32, (rows + 31) / 32), dim3(32, 8)>>>(in, out, rows, cols);
    return cudaGetLastError();
}

/* way: 0 strided tile copy, 1 corner-turned, 2 corner-turned and padded. */
extern "C" cudaError_t lab05_matmul_way(int way, const float *a, const float *b, float *c, int m,
                                        int n, int k)
{
    dim3 grid((n + 31) / 32, (m + 31) / 32), block(32, 32);
    if (way == 0)
        mm_at_b<0, 0><<<grid, block>>>(a, b, c, m, n, k);
    else if (way == 1)
        mm_at_b<1, 0><<<grid, block>>>(a, b, c, m, n, k);
    else
        mm_at_b<1, 1><<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
