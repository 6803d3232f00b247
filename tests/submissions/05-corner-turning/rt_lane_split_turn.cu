// Mutant (hostile, red team B): the stub's strided accesses, split into one-lane requests.
// expect: FAIL
// expect-stage: coalescing
//
// What it does: the stub's two kernels, with their strided accesses made one lane at a time.
// The product copies its tile of A^T row by row (lane tx reads a[(t + tx) * m + row], m floats
// from its neighbour) in 32 passes, `if (tx == j)`, with a __syncwarp() between; the naive
// transpose writes down out's columns (lanes rows floats apart) the same way. A one-lane
// request of 4 bytes touches one sector, the least it could: 100% per request, so the trace's
// per-request efficiency saw both as coalesced.
// Rule attacked: rule 1 (yardstick = the task: splitting a warp's request into 32 one-lane
// requests can only lower the grade).
// Must get: FAIL, coalescing (loads and stores): a sector for every 4 bytes of A^T's tiles and
// of the transpose's output, 8 times a 16x16-tiled product's loads and 8 times a once-written
// output.
#include "lab05.h"

#define TILE 32

__global__ void matmul_at_b_lane_by_lane(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
#pragma unroll 1
        for (int j = 0; j < 32; ++j) {
            if (tx == j)
                as[ty][tx] = row < m && t + tx < k ? a[(size_t)(t + tx) * m + row] : 0.0f;
            __syncwarp();
        }
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; ++i)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

__global__ void transpose_lane_by_lane(const float *in, float *out, int rows, int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    int lane = threadIdx.x & 31;
    float v = r < rows && col < cols ? in[(size_t)r * cols + col] : 0.0f;
#pragma unroll 1
    for (int j = 0; j < 32; ++j) {
        if (lane == j && r < rows && col < cols)
            out[(size_t)col * rows + r] = v;
        __syncwarp();
    }
}

extern "C" cudaError_t lab05_matmul_at_b(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_at_b_lane_by_lane<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}

extern "C" cudaError_t lab05_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    transpose_lane_by_lane<<<grid, block>>>(in, out, rows, cols);
    return cudaGetLastError();
}
