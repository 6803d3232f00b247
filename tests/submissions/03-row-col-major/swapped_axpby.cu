// Mutant: a swapped index. axpby reads a at the column-major position col * rows + r of a
// row-major matrix (b and c are indexed right). Must fail correctness with coordinates.
#include "lab03.h"

// A warp per row: the lanes read 32 consecutive words of the row at each step, then a shuffle
// reduction adds the 32 partial sums without touching memory.
__global__ void row_sums_warp_per_row(const float *a, float *sums, int rows, int cols)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (r >= rows)
        return;
    const float *row = a + (size_t)r * cols;
    float s = 0.0f;
    for (int c = lane; c < cols; c += 32)
        s += row[c];
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(0xffffffffu, s, offset);
    if (lane == 0)
        sums[r] = s;
}

// threadIdx.x runs along a row: neighbouring lanes touch neighbouring words.
__global__ void axpby_x_on_columns(float alpha, const float *a, const float *b, float *c, int rows,
                                   int cols)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && col < cols) {
        size_t i = (size_t)r * cols + col;
        c[i] = alpha * a[(size_t)col * rows + r] + b[i]; /* swapped for a only */
    }
}

// In a column-major matrix a column is contiguous, so one thread per row is the coalesced
// mapping: at every step the lanes read 32 consecutive rows of one column.
__global__ void row_sums_colmajor_thread_per_row(const float *a, float *sums, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0.0f;
        for (int c = 0; c < cols; ++c)
            s += a[(size_t)c * rows + r];
        sums[r] = s;
    }
}

extern "C" cudaError_t lab03_row_sums(const float *a, float *sums, int rows, int cols)
{
    row_sums_warp_per_row<<<(rows * 32 + 255) / 256, 256>>>(a, sums, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_axpby(float alpha, const float *a, const float *b, float *c, int rows,
                                   int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    axpby_x_on_columns<<<grid, block>>>(alpha, a, b, c, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_row_sums_colmajor(const float *a, float *sums, int rows, int cols)
{
    row_sums_colmajor_thread_per_row<<<(rows + 127) / 128, 128>>>(a, sums, rows, cols);
    return cudaGetLastError();
}
