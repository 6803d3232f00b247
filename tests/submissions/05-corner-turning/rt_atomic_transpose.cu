// Mutant (hostile, red team B): a transpose that reads down the input's columns through atomics.
// expect: FAIL
// expect-stage: coalescing|contract
//
// What it does: the product is the solution's corner turn. The transpose gives lane x the row
// of in (x = out's column) and writes out's rows with consecutive lanes on consecutive words;
// its reads walk down a column of in, lanes cols floats apart, but each through
// `atomicOr(word, 0)`, which returns the word and leaves it unchanged. The trace patched loads
// and stores only and the counters keep atomics apart from them, so the transpose looked
// perfect: coalesced stores and no loads at all, beside the product's coalesced ones.
// Rule attacked: rule 2 (global atomics and reductions are measured, as stores, by the trace).
// Must get: FAIL, coalescing (stores): the atomics are 32 sectors for 4 useful bytes each, and
// bytes no output needs. (A grader that also refuses atomics on an input may stop it at the
// contract.)
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

// Lane x: row r of in, which is column r of out; y: column col of in, row col of out.
__global__ void transpose_atomic_reads(const float *in, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && col < cols) {
        unsigned v = atomicOr((unsigned *)(in + (size_t)r * cols + col), 0u);
        out[(size_t)col * rows + r] = __uint_as_float(v);
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
    dim3 block(32, 8), grid((rows + 31) / 32, (cols + 7) / 8);
    transpose_atomic_reads<<<grid, block>>>(in, out, rows, cols);
    return cudaGetLastError();
}
