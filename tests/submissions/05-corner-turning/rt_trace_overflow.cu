// Mutant (hostile, red team B): overflows the traced replay, so that the counters grade alone.
// expect: FAIL
// expect-stage: remeasure|coalescing
//
// What it does: the product copies A^T's tile the stub's way (lanes m floats apart, 32 sectors a
// request) and dilutes it with 64 cheap coalesced re-reads of B's tile row per step (0.90 per
// request); the transpose is the solution's. On the product the trace replays (136 x 200 by
// 104, known from the grader's source) the launcher also asks each thread for 65536 more of
// those re-reads: some 73 million warp-level loads, more records than the trace's 2^21 a
// launch hold even when it watches only the first and last warp of each block. Both tries
// overflow; before, a trace that overflowed was set aside and the counters, which saw the
// graded size without the flood, graded alone, with no weight on the task for labs 04 and 05.
// Rule attacked: rule 2 (no verdict from half the evidence: a trace that overflowed its buffer
// because of the kernel is never a PASS).
// Must get: FAIL, the trace overflowed on the kernel's own accesses (and, by the counters, the
// loads' task efficiency is a few percent).
#include "lab05.h"

#define TILE 32
#define REREADS 64

__global__ void matmul_at_b_flooding(const float *a, const float *b, float *c, int m, int n, int k,
                                     int flood)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col0 = blockIdx.x * TILE, col = col0 + tx;
    float sum = 0.0f, extra = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[ty][tx] = row < m && t + tx < k ? a[(size_t)(t + tx) * m + row] : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        const float *brow = b + (size_t)(t + ty) * n + col0;
        if (t + ty < k && col0 + TILE <= n)
            for (int r = 1; r <= REREADS + flood; ++r)
                extra += brow[(tx + r) % TILE];
        flood = 0; /* the flood once, in the first step */
        __syncthreads();
        for (int i = 0; i < TILE; ++i)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum + extra * 0.0f; /* extra is finite: adds (-)0 */
}

__global__ void transpose_tiled(const float *in, float *out, int rows, int cols)
{
    __shared__ float tile[32][33];
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

extern "C" cudaError_t lab05_matmul_at_b(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    int traced = m == 136 && n == 200 && k == 104; /* LAB05_TRACE_M, _N, _K */
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_at_b_flooding<<<grid, block>>>(a, b, c, m, n, k, traced ? 65536 : 0);
    return cudaGetLastError();
}

extern "C" cudaError_t lab05_transpose(const float *in, float *out, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 31) / 32);
    transpose_tiled<<<grid, block>>>(in, out, rows, cols);
    return cudaGetLastError();
}
