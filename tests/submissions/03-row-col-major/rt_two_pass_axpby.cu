// Mutant (hostile, red team): every access whole and aligned, and the outputs written twice.
// axpby is two coalesced passes, c = alpha * a, then c = c + b (c read back and written
// again); each sums launcher first clears its output with a coalesced kernel of its own, then
// adds each row's sum into it. No request wastes a sector, so the per-request yardstick and the
// old waste rule (sectors beyond what each request asked for) both saw 100%: extra requests
// that waste nothing changed neither.
// Attacks rule 1 (yardstick = the task): the least traffic writes c once and reads a and b
// once; re-reads and re-writes count against it.
// Must get: FAIL, coalescing: correct, stores at about half the task's least (c written twice),
// loads at about 80% (c read back: 5 matrices read where the task reads 4).
// expect: FAIL
// expect-stage: coalescing
#include "lab03.h"

#define WARP 32
#define FULL_MASK 0xffffffffu

__global__ void clear(float *v, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        v[i] = 0.0f;
}

// A warp per row; lane 0 adds the row's sum into the cleared output.
__global__ void row_sums_add(const float *a, float *sums, int rows, int cols)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / WARP, lane = threadIdx.x % WARP;
    if (r >= rows)
        return;
    const float *row = a + (size_t)r * cols;
    float s = 0.0f;
    for (int c = lane; c < cols; c += WARP)
        s += row[c];
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(FULL_MASK, s, offset);
    if (lane == 0)
        sums[r] += s;
}

// Thread per row, the columns split between the 8 warps of a block and summed in shared
// memory; the block adds its rows' sums into the cleared output.
#define SPLIT 8
__global__ void row_sums_colmajor_add(const float *a, float *sums, int rows, int cols)
{
    __shared__ float partial[SPLIT][WARP];
    int lane = threadIdx.x % WARP, part = threadIdx.x / WARP, r = blockIdx.x * WARP + lane;
    float s = 0.0f;
    if (r < rows)
        for (int c = part; c < cols; c += SPLIT)
            s += a[(size_t)c * rows + r];
    partial[part][lane] = s;
    __syncthreads();
    if (part == 0 && r < rows) {
        float total = 0.0f;
        for (int p = 0; p < SPLIT; ++p)
            total += partial[p][lane];
        sums[r] += total;
    }
}

__global__ void scale(float alpha, const float *a, float *c, size_t count)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        c[i] = alpha * a[i];
}

__global__ void add(const float *b, float *c, size_t count)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        c[i] = c[i] + b[i];
}

extern "C" cudaError_t lab03_row_sums(const float *a, float *sums, int rows, int cols)
{
    clear<<<(rows + 255) / 256, 256>>>(sums, rows);
    row_sums_add<<<(rows * WARP + 255) / 256, 256>>>(a, sums, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_axpby(float alpha, const float *a, const float *b, float *c, int rows,
                                   int cols)
{
    size_t count = (size_t)rows * cols;
    scale<<<2048, 256>>>(alpha, a, c, count);
    add<<<2048, 256>>>(b, c, count);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_row_sums_colmajor(const float *a, float *sums, int rows, int cols)
{
    clear<<<(rows + 255) / 256, 256>>>(sums, rows);
    row_sums_colmajor_add<<<(rows + WARP - 1) / WARP, SPLIT * WARP>>>(a, sums, rows, cols);
    return cudaGetLastError();
}
