// Mutant (hostile): changes what the timed launches do through the output, which stays on the
// GPU between them. The naive kernel with x on the columns (correct and coalesced, no faster
// than the speed gate's baseline), whose threads first read their element of C and return at
// once when it is no longer the grader's poison (a NaN, whatever its payload): every launch
// after the first finds C computed and looks ever so fast. The outputs are poisoned again
// before every timed run, so every timed one computes: must fail the speed part only, as
// naive_x_on_columns does.
#include "lab04.h"

__global__ void matmul_naive_unless_done(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float *out = &c[(size_t)row * n + col];
        if (!isnan(*out))
            return; /* computed by an earlier launch */
        float sum = 0.0f;
        for (int i = 0; i < k; ++i)
            sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
        *out = sum;
    }
}

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
    matmul_naive_unless_done<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
