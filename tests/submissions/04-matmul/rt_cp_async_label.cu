// Mutant (hostile, red team B): the strided tile copy of A done by cp.async behind a PTX label.
// expect: FAIL
// expect-stage: contract
//
// What it does: the 32 x 32 tiled product with A's tile copied down A's columns (lanes k floats
// apart), as tiles_x_on_rows does, but by `cp.async.ca.shared.global` (LDGSTS), which neither
// engine counts as a load, so the trace sees only B's coalesced tile loads and C's stores. The
// old refusal scanned the PTX for statements starting with "cp.async."; each inline asm here
// opens a scope and puts a label first ("{ CPA: cp.async...; }"), and that scan saw a label.
// Rule attacked: rule 2 (instruction classes no engine measures are refused from the SASS of
// what was compiled, not from PTX text).
// Must get: FAIL, contract: LDGSTS found in the compiled kernel's SASS.
#include "lab04.h"

#define TILE 32

__device__ __forceinline__ void copy_word_async(float *dst, const float *src)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("{ CPA: cp.async.ca.shared.global [%0], [%1], 4; }" ::"r"(s), "l"(src) : "memory");
}

__device__ __forceinline__ void wait_copies(void)
{
    asm volatile("{ CPW: cp.async.wait_all; }" ::: "memory");
}

__global__ void matmul_async_tiles(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    int row = row0 + ty, col = col0 + tx;
    float sum = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        // as[r][i] = A(row0 + r, t + i), lane tx on the row r: k floats apart.
        if (row0 + tx < m && t + ty < k)
            copy_word_async(&as[tx][ty], a + (size_t)(row0 + tx) * k + t + ty);
        else
            as[tx][ty] = 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        wait_copies();
        __syncthreads();
        for (int i = 0; i < TILE; ++i)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_async_tiles<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
