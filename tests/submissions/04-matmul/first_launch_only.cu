// Mutant (hostile): changes what the timed launches do. The naive kernel with x on the columns
// (correct and coalesced, no faster than the speed gate's baseline) keeps a __device__ flag:
// once a launch has computed C, every later launch returns at once, so repeated, timed
// launches of it would look ever so fast. Every replay starts from freshly loaded device code,
// so every timed one computes: must fail the speed part only, as naive_x_on_columns does.
#include "lab04.h"

__device__ int computed;

__global__ void matmul_naive_once(const float *a, const float *b, float *c, int m, int n, int k)
{
    if (computed)
        return;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int i = 0; i < k; ++i)
            sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

__global__ void mark_computed(void)
{
    computed = 1;
}

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
    matmul_naive_once<<<grid, block>>>(a, b, c, m, n, k);
    mark_computed<<<1, 1>>>();
    return cudaGetLastError();
}
