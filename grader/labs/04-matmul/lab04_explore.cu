/*
 * lab04_explore.cu - the grader's own matrix products: the naive kernel with either mapping
 * (the speed gate's baseline is x on the columns) and tiled kernels for the explore run.
 * C (m x n) = A (m x k) B (k x n), all row-major.
 */
#include <cuda_runtime.h>

__global__ void naive_x_on_rows(const float *a, const float *b, float *c, int m, int n, int k)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x, col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i)
            sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

__global__ void naive_x_on_columns(const float *a, const float *b, float *c, int m, int n, int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i)
            sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

template <int T>
__global__ void tiled(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[T][T], bs[T][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += T) {
        as[ty][tx] = row < m && t + tx < k ? a[(size_t)row * k + t + tx] : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < T; ++i)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

/* Tiles of T x T, T x (T / R) threads a block: each thread computes R elements of a column of
 * the tile, keeping their sums in registers, so one value of B read from shared memory serves R
 * products (A's value is the same for the whole warp: a broadcast from shared memory). */
template <int T, int R>
__global__ void tiled_coarse(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[T][T], bs[T][T];
    const int step = T / R;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * T, col = blockIdx.x * T + tx;
    float sum[R] = {};
    for (int t = 0; t < k; t += T) {
        for (int r = ty; r < T; r += step) {
            int row = row0 + r;
            as[r][tx] = row < m && t + tx < k ? a[(size_t)row * k + t + tx] : 0.0f;
            bs[r][tx] = t + r < k && col < n ? b[(size_t)(t + r) * n + col] : 0.0f;
        }
        __syncthreads();
        for (int i = 0; i < T; ++i) {
            float bv = bs[i][tx];
            for (int j = 0; j < R; ++j)
                sum[j] += as[ty + j * step][i] * bv;
        }
        __syncthreads();
    }
    for (int j = 0; j < R; ++j) {
        int row = row0 + ty + j * step;
        if (row < m && col < n)
            c[(size_t)row * n + col] = sum[j];
    }
}

/* The naive kernel, 32 x 8 threads a block, x on the rows of C or on its columns. */
extern "C" cudaError_t lab04_naive(int x_on_columns, const float *a, const float *b, float *c,
                                   int m, int n, int k)
{
    dim3 block(32, 8);
    if (x_on_columns)
        naive_x_on_columns<<<dim3((n + 31) / 32, (m + 7) / 8), block>>>(a, b, c, m, n, k);
    else
        naive_x_on_rows<<<dim3((m + 31) / 32, (n + 7) / 8), block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}

/* 32 x 32 tiles, 32 x 8 threads a block, 4 elements of C a thread. */
extern "C" cudaError_t lab04_tiled_coarse(const float *a, const float *b, float *c, int m, int n,
                                          int k)
{
    dim3 grid((n + 31) / 32, (m + 31) / 32), block(32, 8);
    tiled_coarse<32, 4><<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}

/* A tile x tile block per tile of C; tile is 16 or 32. */
extern "C" cudaError_t lab04_tiled(int tile, const float *a, const float *b, float *c, int m, int n,
                                   int k)
{
    dim3 grid((n + tile - 1) / tile, (m + tile - 1) / tile), block(tile, tile);
    if (tile == 16)
        tiled<16><<<grid, block>>>(a, b, c, m, n, k);
    else if (tile == 32)
        tiled<32><<<grid, block>>>(a, b, c, m, n, k);
    else
        return cudaErrorInvalidValue;
    return cudaGetLastError();
}
