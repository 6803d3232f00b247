// Alternative solution (red team, honest): split-K row sums with atomics. Each sums launcher
// first clears its output with a small kernel, then adds partial sums into it with atomicAdd:
// the row-major sums give a warp to each (row, slice of 1368 columns), the lanes reading 32
// consecutive words at a time and a shuffle reduction leaving one atomicAdd a warp; the
// column-major sums give a thread to each (row, one column in 8), 32 consecutive rows a warp,
// and every thread adds its part (32 consecutive sums a warp, one coalesced atomic). axpby
// runs 32 x 8 blocks with x on the columns. Loads are the task's least; the atomics and the
// clearing add about 1% to the stores.
// Tests rule 2 (global atomics measured, as stores) and rule 1: a few atomics beside the
// outputs' stores must not fail the stores; the sums' order changes from run to run, within
// the lab's tolerance.
// Must pass.
// expect: PASS
// expect-stage: passed
#include "lab03.h"

#define WARP 32
#define FULL_MASK 0xffffffffu
#define SLICE 1368 // columns a warp of the row-major sums (5472 bytes: whole sectors)
#define SPLIT 8    // column sets of the column-major sums

__global__ void clear(float *v, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        v[i] = 0.0f;
}

// Warp w takes row w / slices, slice w % slices.
__global__ void row_sums_split(const float *a, float *sums, int rows, int cols, int slices)
{
    size_t w = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    int lane = threadIdx.x % WARP;
    if (w >= (size_t)rows * slices)
        return;
    int r = (int)(w / slices), s = (int)(w % slices);
    int begin = s * SLICE, end = begin + SLICE < cols ? begin + SLICE : cols;
    const float *row = a + (size_t)r * cols;
    float sum = 0.0f;
    for (int c = begin + lane; c < end; c += WARP)
        sum += row[c];
    for (int offset = 16; offset > 0; offset /= 2)
        sum += __shfl_down_sync(FULL_MASK, sum, offset);
    if (lane == 0)
        atomicAdd(&sums[r], sum);
}

// Thread (x, y) of block b: row b * 32 + x, columns y, y + 8, ...
__global__ void row_sums_colmajor_split(const float *a, float *sums, int rows, int cols)
{
    int r = blockIdx.x * WARP + threadIdx.x;
    if (r >= rows)
        return;
    float sum = 0.0f;
    for (int c = threadIdx.y; c < cols; c += SPLIT)
        sum += a[(size_t)c * rows + r];
    atomicAdd(&sums[r], sum);
}

__global__ void axpby_tiles(float alpha, const float *a, const float *b, float *c, int rows,
                            int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && col < cols) {
        size_t i = (size_t)r * cols + col;
        c[i] = alpha * a[i] + b[i];
    }
}

extern "C" cudaError_t lab03_row_sums(const float *a, float *sums, int rows, int cols)
{
    int slices = (cols + SLICE - 1) / SLICE;
    size_t threads = (size_t)rows * slices * WARP;
    clear<<<(rows + 255) / 256, 256>>>(sums, rows);
    row_sums_split<<<(unsigned)((threads + 255) / 256), 256>>>(a, sums, rows, cols, slices);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_axpby(float alpha, const float *a, const float *b, float *c, int rows,
                                   int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    axpby_tiles<<<grid, block>>>(alpha, a, b, c, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_row_sums_colmajor(const float *a, float *sums, int rows, int cols)
{
    clear<<<(rows + 255) / 256, 256>>>(sums, rows);
    row_sums_colmajor_split<<<(rows + WARP - 1) / WARP, dim3(WARP, SPLIT)>>>(a, sums, rows, cols);
    return cudaGetLastError();
}
