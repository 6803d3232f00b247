// Mutant (hostile, red team): keeps the stub's thread per row for the row-major sums, and makes
// every one of its requests a broadcast. At each step, for j = 0..31, the warp takes lane j's
// address with __shfl_sync and all 32 lanes load that one float4 (16 bytes of row j's), and
// lane j keeps it: one sector asked for by every lane, 100% by the broadcast-aware per-request
// yardstick (and no waste for the old rule), where the stub's step touched 32 sectors at once.
// axpby and the column-major sums are the reference's.
// Attacks rule 1 (yardstick = the task): each broadcast moves a whole sector for 16 bytes of
// the row, so the sums read a twice over, and the lab's loads come to 4 matrices' least
// against 5 moved.
// Must get: FAIL, coalescing: correct, loads at about 80% of the task's least (the row sums
// alone at 50%), stores coalesced. Its twice the stub's requests may overflow the trace, which
// fails it too (stage remeasure allowed for that).
// expect: FAIL
// expect-stage: coalescing|remeasure
#include "lab03.h"

#define WARP 32
#define FULL_MASK 0xffffffffu

// Thread r sums row r. Where a row is made of whole, aligned float4 (cols % 4 == 0: rows
// start 16 bytes apart), four floats a step; otherwise one.
__global__ void row_sums_broadcast(const float *a, float *sums, int rows, int cols)
{
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned lane = threadIdx.x % WARP;
    const bool mine = r < rows;
    const float *row = a + (size_t)(mine ? r : 0) * cols;
    float s = 0.0f;
    if (cols % 4 == 0) {
        for (int c = 0; c < cols; c += 4) {
            const float4 *p = (const float4 *)(row + c);
            for (unsigned j = 0; j < WARP; ++j) {
                const float4 *q = (const float4 *)__shfl_sync(FULL_MASK, (unsigned long long)p, j);
                bool wanted = __shfl_sync(FULL_MASK, mine, j);
                if (wanted) {
                    float4 v = *q; // all 32 lanes, one address
                    if (lane == j)
                        s += (v.x + v.y) + (v.z + v.w);
                }
            }
        }
    } else {
        for (int c = 0; c < cols; ++c) {
            const float *p = row + c;
            for (unsigned j = 0; j < WARP; ++j) {
                const float *q = (const float *)__shfl_sync(FULL_MASK, (unsigned long long)p, j);
                bool wanted = __shfl_sync(FULL_MASK, mine, j);
                if (wanted) {
                    float v = *q;
                    if (lane == j)
                        s += v;
                }
            }
        }
    }
    if (mine)
        sums[r] = s;
}

// The reference's axpby and column-major sums.
__global__ void axpby_flat_float4(float alpha, const float *a, const float *b, float *c,
                                  size_t count)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x, vectors = count / 4;
    if (i < vectors) {
        float4 x = ((const float4 *)a)[i], y = ((const float4 *)b)[i];
        ((float4 *)c)[i] =
            make_float4(alpha * x.x + y.x, alpha * x.y + y.y, alpha * x.z + y.z, alpha * x.w + y.w);
    }
    size_t tail = 4 * vectors + i;
    if (i < count % 4)
        c[tail] = alpha * a[tail] + b[tail];
}

#define SLICES 32
__global__ void row_sums_colmajor_split(const float *a, float *sums, int rows, int cols)
{
    __shared__ float partial[SLICES][32];
    int r = blockIdx.x * 32 + threadIdx.x;
    float s = 0.0f;
    if (r < rows) {
#pragma unroll 8
        for (int c = threadIdx.y; c < cols; c += SLICES)
            s += a[(size_t)c * rows + r];
    }
    partial[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    for (int half = SLICES / 2; half > 0; half /= 2) {
        if (threadIdx.y < half)
            partial[threadIdx.y][threadIdx.x] += partial[threadIdx.y + half][threadIdx.x];
        __syncthreads();
    }
    if (threadIdx.y == 0 && r < rows)
        sums[r] = partial[0][threadIdx.x];
}

extern "C" cudaError_t lab03_row_sums(const float *a, float *sums, int rows, int cols)
{
    row_sums_broadcast<<<(rows + 255) / 256, 256>>>(a, sums, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_axpby(float alpha, const float *a, const float *b, float *c, int rows,
                                   int cols)
{
    size_t count = (size_t)rows * cols, threads = count / 4 > 3 ? count / 4 : 3;
    axpby_flat_float4<<<(unsigned)((threads + 255) / 256), 256>>>(alpha, a, b, c, count);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_row_sums_colmajor(const float *a, float *sums, int rows, int cols)
{
    dim3 block(32, SLICES);
    row_sums_colmajor_split<<<(rows + 31) / 32, block>>>(a, sums, rows, cols);
    return cudaGetLastError();
}
