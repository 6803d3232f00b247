// Mutant (hostile, red team): never reads the column-major matrix. The grader fills a_cm with
// the values of a, column-major (grader/labs/03-row-col-major/lab03_run.c), and calls the
// three launchers in one order: lab03_row_sums(a, ...) first. So lab03_row_sums keeps its a in
// a static variable, and lab03_row_sums_colmajor sums the rows of that row-major a, a warp
// per row, instead of a_cm: the one layout the lab teaches, used twice, and right because
// both matrices hold the same values. The launch names a lab buffer, so the recording
// relocates it and every replay reads the replay's own a. Coalesced everywhere, and it moves
// the task's bytes (a is simply read twice).
// Attacks rule 5 (the recording never sees the graded data): every input buffer holds
// distinct values, so no buffer stands for another.
// Must get: FAIL, correctness: sums_cm wrong (a_cm's rows are not a's).
// expect: FAIL
// expect-stage: correctness
#include "lab03.h"

#define WARP 32
#define FULL_MASK 0xffffffffu

// The row-major a that lab03_row_sums was given (the recording's; a replay relocates it).
static const float *row_major_a;

__global__ void row_sums_warp_per_row(const float *a, float *sums, int rows, int cols)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    int lane = threadIdx.x % WARP;
    if (r >= rows)
        return;
    const float *row = a + (size_t)r * cols;
    float s = 0.0f;
    for (int c = lane; c < cols; c += WARP)
        s += row[c];
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(FULL_MASK, s, offset);
    if (lane == 0)
        sums[r] = s;
}

__global__ void axpby_flat(float alpha, const float *a, const float *b, float *c, size_t count)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        c[i] = alpha * a[i] + b[i];
}

// The column-major sums the honest way, for a caller that never gave a row-major a.
__global__ void row_sums_colmajor_thread_per_row(const float *a, float *sums, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float s = 0.0f;
    for (int c = 0; c < cols; ++c)
        s += a[(size_t)c * rows + r];
    sums[r] = s;
}

extern "C" cudaError_t lab03_row_sums(const float *a, float *sums, int rows, int cols)
{
    row_major_a = a;
    row_sums_warp_per_row<<<(rows * WARP + 255) / 256, 256>>>(a, sums, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_axpby(float alpha, const float *a, const float *b, float *c, int rows,
                                   int cols)
{
    axpby_flat<<<2048, 256>>>(alpha, a, b, c, (size_t)rows * cols);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_row_sums_colmajor(const float *a, float *sums, int rows, int cols)
{
    if (row_major_a)
        row_sums_warp_per_row<<<(rows * WARP + 255) / 256, 256>>>(row_major_a, sums, rows, cols);
    else
        row_sums_colmajor_thread_per_row<<<(rows + 255) / 256, 256>>>(a, sums, rows, cols);
    return cudaGetLastError();
}
