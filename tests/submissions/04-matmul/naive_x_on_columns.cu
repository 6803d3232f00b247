// Mutant: the first half of the task only. The naive kernel with x on the columns is correct
// and coalesced (A's element is a broadcast, B and C run along rows), but it is the speed gate's
// own baseline: no faster than itself. Must fail the speed part only.
#include "lab04.h"

__global__ void matmul_naive_x_on_columns(const float *a, const float *b, float *c, int m, int n,
                                          int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i)
            sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
    matmul_naive_x_on_columns<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
