/*
 * lab03_explore.cu - the kernels behind lab 03's explore run: sums of a row-major matrix
 * three ways (thread per row, thread per column, warp per row).
 */
#include <cuda_runtime.h>

__global__ void sums_thread_per_row(const float *a, float *out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < rows) {
        float s = 0.0f;
        for (int c = 0; c < cols; ++c)
            s += a[(size_t)r * cols + c];
        out[r] = s;
    }
}

__global__ void sums_thread_per_column(const float *a, float *out, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols) {
        float s = 0.0f;
        for (int r = 0; r < rows; ++r)
            s += a[(size_t)r * cols + c];
        out[c] = s;
    }
}

__global__ void sums_warp_per_row(const float *a, float *out, int rows, int cols)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    if (r >= rows)
        return;
    float s = 0.0f;
    for (int c = lane; c < cols; c += 32)
        s += a[(size_t)r * cols + c];
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(0xffffffffu, s, offset);
    if (lane == 0)
        out[r] = s;
}

/* way: 0 thread per row, 1 thread per column, 2 warp per row. */
extern "C" cudaError_t lab03_sums(int way, const float *a, float *out, int rows, int cols)
{
    switch (way) {
    case 0:
        sums_thread_per_row<<<(rows + 127) / 128, 128>>>(a, out, rows, cols);
        break;
    case 1:
        sums_thread_per_column<<<(cols + 127) / 128, 128>>>(a, out, rows, cols);
        break;
    case 2:
        sums_warp_per_row<<<(rows * 32 + 255) / 256, 256>>>(a, out, rows, cols);
        break;
    default:
        return cudaErrorInvalidValue;
    }
    return cudaGetLastError();
}
