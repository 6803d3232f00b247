// Alternative solution: no shared memory; the corner is turned in registers, with warp shuffles,
// and the kernels take their arguments as one packed structure, its pointers at odd offsets.
// The product: a warp computes a 32 x 32 tile of C, lane x its column; at each step i it reads 32
// consecutive words of row i of A (the tile's rows of A^T, one a lane) and 32 of row i of B, and
// hands each A word to every lane with __shfl_sync: 32 sums a thread, A and B read once per 32
// columns and rows of C. The transpose: a warp reads a 32 x 32 tile row by row (a word a lane),
// transposes it in its registers with five rounds of __shfl_xor_sync (each round swaps one bit of
// the lane index with one bit of the register index), and writes it row by row. Must pass.
#include "lab05.h"

// Passed by value; packed, so a is at offset 1, b at 11, c at 19 (in at 1, out at 9 below).
struct __attribute__((packed)) product_args {
    char tag;
    const float *a;
    unsigned short spare;
    const float *b;
    float *c;
    int m, n, k;
};

struct __attribute__((packed)) transpose_args {
    char tag;
    const float *in;
    float *out;
    int rows, cols;
};

#define WARPS 4 // per block: a 2 x 2 square of 32 x 32 tiles for the product

__global__ void matmul_at_b_shuffled(product_args p)
{
    const float *a = p.a, *b = p.b;
    float *c = p.c;
    int m = p.m, n = p.n, k = p.k;
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int row0 = (blockIdx.y * 2 + warp / 2) * 32, col0 = (blockIdx.x * 2 + warp % 2) * 32;
    if (row0 >= m || col0 >= n)
        return; /* the whole warp: the shuffles below need all 32 lanes */
    int has_row = row0 + lane < m, has_col = col0 + lane < n;
    float acc[32];
#pragma unroll
    for (int r = 0; r < 32; ++r)
        acc[r] = 0.0f;
    for (int i = 0; i < k; ++i) {
        float av = has_row ? a[(size_t)i * m + row0 + lane] : 0.0f; /* A^T(row0 + lane, i) */
        float bv = has_col ? b[(size_t)i * n + col0 + lane] : 0.0f;
#pragma unroll
        for (int r = 0; r < 32; ++r)
            acc[r] += __shfl_sync(0xffffffffu, av, r) * bv;
    }
#pragma unroll
    for (int r = 0; r < 32; ++r)
        if (row0 + r < m && has_col)
            c[(size_t)(row0 + r) * n + col0 + lane] = acc[r];
}

__global__ void transpose_in_registers(transpose_args p)
{
    const float *in = p.in;
    float *out = p.out;
    int rows = p.rows, cols = p.cols;
    int lane = threadIdx.x % 32;
    int tiles_x = (cols + 31) / 32;
    int tile = blockIdx.x * WARPS + threadIdx.x / 32;
    int r0 = tile / tiles_x * 32, c0 = tile % tiles_x * 32;
    if (r0 >= rows)
        return;  /* the whole warp */
    float v[32]; /* v[i] = in(r0 + i, c0 + lane) */
#pragma unroll
    for (int i = 0; i < 32; ++i)
        v[i] = r0 + i < rows && c0 + lane < cols ? in[(size_t)(r0 + i) * cols + c0 + lane] : 0.0f;
        // Round s swaps bit s of the lane with bit s of the register index: the lower lane of a
        // pair sends register i | s and receives into it, the upper sends register i and receives
        // into it.
#pragma unroll
    for (int s = 16; s >= 1; s /= 2) {
        int upper = lane & s;
#pragma unroll
        for (int i = 0; i < 32; ++i) {
            if (i & s)
                continue;
            int j = i | s;
            float got = __shfl_xor_sync(0xffffffffu, upper ? v[i] : v[j], s);
            if (upper)
                v[i] = got;
            else
                v[j] = got;
        }
    }
    // Now v[i] = in(r0 + lane, c0 + i): row c0 + i of out, column r0 + lane.
#pragma unroll
    for (int i = 0; i < 32; ++i)
        if (c0 + i < cols && r0 + lane < rows)
            out[(size_t)(c0 + i) * rows + r0 + lane] = v[i];
}

extern "C" cudaError_t lab05_matmul_at_b(const float *a, const float *b, float *c, int m, int n,
                                         int k)
{
    product_args p;
    p.tag = 'P';
    p.a = a;
    p.spare = 0;
    p.b = b;
    p.c = c;
    p.m = m;
    p.n = n;
    p.k = k;
    dim3 grid((n + 63) / 64, (m + 63) / 64);
    matmul_at_b_shuffled<<<grid, 32 * WARPS>>>(p);
    return cudaGetLastError();
}

extern "C" cudaError_t lab05_transpose(const float *in, float *out, int rows, int cols)
{
    transpose_args p;
    p.tag = 'T';
    p.in = in;
    p.out = out;
    p.rows = rows;
    p.cols = cols;
    long long tiles = (long long)((rows + 31) / 32) * ((cols + 31) / 32);
    transpose_in_registers<<<(unsigned)((tiles + WARPS - 1) / WARPS), 32 * WARPS>>>(p);
    return cudaGetLastError();
}
