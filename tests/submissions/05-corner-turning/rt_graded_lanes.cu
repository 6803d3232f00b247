// Mutant (hostile, red team B): corner turned where traced; the stub, a lane at a time, elsewhere.
// expect: FAIL
// expect-stage: coalescing
//
// What it does: one product kernel and one transpose kernel, each with a flag. On the sizes the
// trace replays (136 x 200 by 104, a 136 x 200 transpose: the launchers know them from the
// grader's source) the flag is 0 and they are the solution's corner turns. At every other size,
// the graded one included, the flag is 1 and they do the stub's strided accesses (A^T's tile
// read down A's columns, the transpose's output written down its columns), each split into 32
// one-lane requests. The trace grades the corner turns. The counters, at the graded size, see
// requests of one sector each: fewer sectors per request than the trace's 4, so a comparison
// that only asks whether the graded size takes *more* sectors per request (1.5x, before) finds
// nothing wrong, though those requests move 8 times the sectors the task needs.
// Rule attacked: rules 1 and 3 with the smaller traced problem (the counters at the graded size
// must agree with the trace, and be held to the task).
// Must get: FAIL, coalescing: the engines disagree (1 sector a request at the graded size
// against the trace's 4), or the counters' own task efficiency at the graded size is about 1/8.
#include "lab05.h"

#define TILE 32

__global__ void matmul_at_b(const float *a, const float *b, float *c, int m, int n, int k,
                            int split)
{
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, row = row0 + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        if (!split) { // the corner turn: consecutive lanes on a row of A
            as[tx][ty] = row0 + tx < m && t + ty < k ? a[(size_t)(t + ty) * m + row0 + tx] : 0.0f;
        } else { // the stub's copy, lanes m floats apart, one lane at a time
#pragma unroll 1
            for (int j = 0; j < 32; ++j) {
                if (tx == j)
                    as[ty][tx] = row < m && t + tx < k ? a[(size_t)(t + tx) * m + row] : 0.0f;
                __syncwarp();
            }
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

// split 0: a 32 x 8 block moves a 32 x 32 tile through shared memory. split 1: a 32 x 8 block
// moves 32 x 8 elements, read along in's rows, written down out's columns one lane at a time.
__global__ void transpose(const float *in, float *out, int rows, int cols, int split)
{
    __shared__ float tile[32][33];
    int tx = threadIdx.x, ty = threadIdx.y;
    if (split) {
        int col = blockIdx.x * 32 + tx, r = blockIdx.y * 8 + ty;
        float v = r < rows && col < cols ? in[(size_t)r * cols + col] : 0.0f;
#pragma unroll 1
        for (int j = 0; j < 32; ++j) {
            if (tx == j && r < rows && col < cols)
                out[(size_t)col * rows + r] = v;
            __syncwarp();
        }
        return;
    }
    int x = blockIdx.x * 32 + tx, y = blockIdx.y * 32 + ty;
    for (int j = 0; j < 32; j += 8)
        if (y + j < rows && x < cols)
            tile[ty + j][tx] = in[(size_t)(y + j) * cols + x];
    __syncthreads();
    x = blockIdx.y * 32 + tx;
    y = blockIdx.x * 32 + ty;
    for (int j = 0; j < 32; j += 8)
        if (y + j < cols && x < rows)
            out[(size_t)(y + j) * rows + x] = tile[tx][ty + j];
}

extern "C" cudaError_t lab05_matmul_at_b(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    int traced = m == 136 && n == 200 && k == 104; /* LAB05_TRACE_M, _N, _K */
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_at_b<<<grid, block>>>(a, b, c, m, n, k, !traced);
    return cudaGetLastError();
}

extern "C" cudaError_t lab05_transpose(const float *in, float *out, int rows, int cols)
{
    int traced = rows == 136 && cols == 200; /* LAB05_TRACE_ROWS, _COLS */
    dim3 block(32, 8), grid((cols + 31) / 32, traced ? (rows + 31) / 32 : (rows + 7) / 8);
    transpose<<<grid, block>>>(in, out, rows, cols, !traced);
    return cudaGetLastError();
}
