// Mutant (hostile): coalesced only on the problem the trace measures. The trace runs a smaller
// product (136 x 104 times 104 x 200) than the one checked and timed; one kernel serves both,
// told by the launcher which way to lay its threads: x on the columns (coalesced) on a small
// product, the stub's x on the rows (neither loads nor stores coalesced) on the full one. The
// full-size accesses must count as well: must fail, correct, keeping only the stub's 40 points.
#include "lab04.h"

__global__ void matmul_naive(const float *a, const float *b, float *c, int m, int n, int k,
                             int x_on_columns)
{
    int u = blockIdx.x * blockDim.x + threadIdx.x, v = blockIdx.y * blockDim.y + threadIdx.y;
    int row = x_on_columns ? v : u, col = x_on_columns ? u : v;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i)
            sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    int small = (long long)m * n <= 200 * 200;
    dim3 block(32, 8);
    dim3 grid = small ? dim3((n + 31) / 32, (m + 7) / 8) : dim3((m + 31) / 32, (n + 7) / 8);
    matmul_naive<<<grid, block>>>(a, b, c, m, n, k, small);
    return cudaGetLastError();
}
