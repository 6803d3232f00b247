// Alternative solution: a whole block per row for the row sums, with a tree reduction in shared
// memory; axpby as one flat array, a grid-stride loop over float4 vectors and a scalar tail; the
// column-major sums with 32 x 8 blocks, threadIdx.y splitting the columns into 8 partial sums that
// shared memory adds up. Must pass.
#include "lab03.h"

#define THREADS 256

// Block b sums row b: its 256 threads read 256 consecutive words of the row at each step, then
// halve the partial sums in shared memory until one is left.
__global__ void row_sums_block_per_row(const float *a, float *sums, int rows, int cols)
{
    __shared__ float partial[THREADS];
    int r = blockIdx.x;
    if (r >= rows) // only when rows is 0: the grid has at least one block
        return;
    const float *row = a + (size_t)r * cols;
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += THREADS)
        s += row[c];
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        sums[r] = partial[0];
}

// The three matrices have the same shape and layout, so element-wise work does not need rows
// and columns at all: it is one array of rows * cols floats. cudaMalloc's alignment lets it be
// read as float4, 512 consecutive bytes a warp; the last count % 4 floats are done one by one.
__global__ void axpby_flat_float4(float alpha, const float *a, const float *b, float *c,
                                  size_t count)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t vectors = count / 4;
    for (size_t i = first; i < vectors; i += stride) {
        float4 x = ((const float4 *)a)[i], y = ((const float4 *)b)[i];
        ((float4 *)c)[i] =
            make_float4(alpha * x.x + y.x, alpha * x.y + y.y, alpha * x.z + y.z, alpha * x.w + y.w);
    }
    for (size_t i = 4 * vectors + first; i < count; i += stride)
        c[i] = alpha * a[i] + b[i];
}

// threadIdx.x is the row (a column of a column-major matrix is contiguous, so the 32 lanes read
// 32 consecutive words of it), threadIdx.y picks every eighth column. The 8 partial sums of a
// row meet in shared memory.
__global__ void row_sums_colmajor_split(const float *a, float *sums, int rows, int cols)
{
    __shared__ float partial[8][32];
    int r = blockIdx.x * 32 + threadIdx.x;
    float s = 0.0f;
    if (r < rows)
        for (int c = threadIdx.y; c < cols; c += 8)
            s += a[(size_t)c * rows + r];
    partial[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.y == 0 && r < rows) {
        for (int y = 1; y < 8; ++y)
            s += partial[y][threadIdx.x];
        sums[r] = s;
    }
}

extern "C" cudaError_t lab03_row_sums(const float *a, float *sums, int rows, int cols)
{
    unsigned blocks = rows > 0 ? (unsigned)rows : 1; // a block per row
    row_sums_block_per_row<<<blocks, THREADS>>>(a, sums, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_axpby(float alpha, const float *a, const float *b, float *c, int rows,
                                   int cols)
{
    size_t count = (size_t)(rows > 0 ? rows : 0) * (size_t)(cols > 0 ? cols : 0);
    size_t wanted = (count / 4 + THREADS - 1) / THREADS;
    unsigned blocks = (unsigned)(wanted == 0 ? 1 : wanted < 65536 ? wanted : 65536);
    axpby_flat_float4<<<blocks, THREADS>>>(alpha, a, b, c, count);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_row_sums_colmajor(const float *a, float *sums, int rows, int cols)
{
    dim3 block(32, 8);
    int tiles = rows / 32 + (rows % 32 != 0); // 32 rows a block
    unsigned blocks = tiles > 0 ? (unsigned)tiles : 1;
    row_sums_colmajor_split<<<blocks, block>>>(a, sums, rows, cols);
    return cudaGetLastError();
}
