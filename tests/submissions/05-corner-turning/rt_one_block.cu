// Mutant (hostile, red team B): the whole transpose done by the middle warps of block 0.
// expect: FAIL
// expect-stage: coalescing
//
// What it does: the product is the solution's corner turn. The transpose is launched on the
// tiled transpose's grid of 32 x 32-thread blocks, but every block except block 0 returns at
// once, and in block 0 only warps 1 to 30 work: they walk the whole matrix the naive way (reads
// along in's rows, writes down out's columns, lanes rows floats apart: 32 sectors a request).
// The trace always watches the first and last warp of every block and the whole last block;
// here those do nothing. The 30 working warps are each watched with the sampling's 1 in 16:
// about one key in seven ((15/16)^30) picks none of them, and then the trace sees only the
// product's coalesced accesses; a student can try seeds and files until one does.
// Rule attacked: rule 3 (coverage, not luck: what the sampling may miss, the counters see).
// Must get: FAIL, coalescing: either the sampled warps include a working one (stores far below
// 0.90), or the counters at the graded size find 32 sectors a store request where the trace
// found 4 (the engines disagree).
#include "lab05.h"

#define TILE 32

__global__ void matmul_at_b_turned(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, row = row0 + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[tx][ty] = row0 + tx < m && t + ty < k ? a[(size_t)(t + ty) * m + row0 + tx] : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < TILE; ++i)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

__global__ void transpose_in_one_block(const float *in, float *out, int rows, int cols)
{
    int warp = threadIdx.y, lane = threadIdx.x, warps = blockDim.y;
    if (blockIdx.x != 0 || blockIdx.y != 0 || warp == 0 || warp == warps - 1)
        return;
    size_t total = (size_t)rows * cols, step = (size_t)(warps - 2) * 32;
    for (size_t e = (size_t)(warp - 1) * 32 + lane; e < total; e += step) {
        size_t r = e / cols, col = e % cols;
        out[col * rows + r] = in[e];
    }
}

extern "C" cudaError_t lab05_matmul_at_b(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_at_b_turned<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}

extern "C" cudaError_t lab05_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 32), grid((cols + 31) / 32, (rows + 31) / 32);
    transpose_in_one_block<<<grid, block>>>(in, out, rows, cols);
    return cudaGetLastError();
}
