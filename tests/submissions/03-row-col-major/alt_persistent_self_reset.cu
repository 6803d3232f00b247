// Alternative solution (red team, honest): axpby as a persistent kernel whose atomic tile
// counter, a `__device__` variable, is reset by the kernel itself: every block, once it has
// found no tile left, counts itself done with a second atomic, and the last block done (when
// no block will take a tile again) sets both counters back to 0, so the next launch in the
// same process (the recording calls the launchers at every size) starts from the first tile.
// Each tile is 4096 floats as 1024 float4, consecutive threads on consecutive float4. The row
// sums run 96-thread blocks, a warp per row; the column-major sums 32 x 3 blocks, a thread per
// row and three sets of columns added in shared memory.
// Tests rule 6 (a persistent kernel with an atomic tile counter, reset at a safe point by the
// kernel itself, must pass) and rule 2 (its atomics are measured as stores: too few to count).
// Must pass.
// expect: PASS
// expect-stage: passed
#include "lab03.h"

#define WARP 32
#define FULL_MASK 0xffffffffu
#define TILE_VECTORS 1024 // float4 a tile
#define AXPBY_THREADS 256
#define SUM_THREADS 96 // three warps, three rows a block
#define SETS 3         // column sets of the column-major sums

__device__ unsigned int axpby_next, axpby_done;

__global__ void axpby_persistent(float alpha, const float *a, const float *b, float *c,
                                 size_t count)
{
    __shared__ unsigned int taken;
    const size_t vectors = count / 4, tiles = (vectors + TILE_VECTORS - 1) / TILE_VECTORS;
    const float4 *a4 = (const float4 *)a, *b4 = (const float4 *)b;
    float4 *c4 = (float4 *)c;
    for (;;) {
        if (threadIdx.x == 0)
            taken = atomicAdd(&axpby_next, 1u);
        __syncthreads();
        const size_t tile = taken;
        __syncthreads();
        if (tile >= tiles)
            break;
        for (size_t i = tile * TILE_VECTORS + threadIdx.x;
             i < vectors && i < (tile + 1) * TILE_VECTORS; i += AXPBY_THREADS) {
            float4 x = a4[i], y = b4[i];
            c4[i] = make_float4(alpha * x.x + y.x, alpha * x.y + y.y, alpha * x.z + y.z,
                                alpha * x.w + y.w);
        }
    }
    if (blockIdx.x == 0 && threadIdx.x < count % 4) {
        size_t i = 4 * vectors + threadIdx.x;
        c[i] = alpha * a[i] + b[i];
    }
    // This block takes no tile again: the last one to say so resets the counters.
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(&axpby_done, 1u) == gridDim.x - 1) {
            atomicExch(&axpby_next, 0u);
            atomicExch(&axpby_done, 0u);
        }
    }
}

__global__ void row_sums_warp_per_row(const float *a, float *sums, int rows, int cols)
{
    int r = blockIdx.x * (SUM_THREADS / WARP) + threadIdx.x / WARP, lane = threadIdx.x % WARP;
    if (r >= rows)
        return;
    const float *row = a + (size_t)r * cols;
    float s = 0.0f;
    for (int c = lane; c < cols; c += WARP)
        s += row[c];
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_xor_sync(FULL_MASK, s, offset);
    if (lane == 0)
        sums[r] = s;
}

__global__ void row_sums_colmajor_sets(const float *a, float *sums, int rows, int cols)
{
    __shared__ float part[SETS][WARP];
    int r = blockIdx.x * WARP + threadIdx.x;
    float s = 0.0f;
    if (r < rows)
        for (int c = threadIdx.y; c < cols; c += SETS)
            s += a[(size_t)c * rows + r];
    part[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.y == 0 && r < rows)
        sums[r] = part[0][threadIdx.x] + part[1][threadIdx.x] + part[2][threadIdx.x];
}

extern "C" cudaError_t lab03_row_sums(const float *a, float *sums, int rows, int cols)
{
    int per_block = SUM_THREADS / WARP;
    row_sums_warp_per_row<<<(rows + per_block - 1) / per_block, SUM_THREADS>>>(a, sums, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_axpby(float alpha, const float *a, const float *b, float *c, int rows,
                                   int cols)
{
    int device = 0, sms = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (err != cudaSuccess)
        return err;
    size_t count = (size_t)rows * cols, tiles = (count / 4 + TILE_VECTORS - 1) / TILE_VECTORS;
    size_t blocks = (size_t)sms * 4;
    if (blocks > tiles)
        blocks = tiles ? tiles : 1;
    axpby_persistent<<<(unsigned)blocks, AXPBY_THREADS>>>(alpha, a, b, c, count);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_row_sums_colmajor(const float *a, float *sums, int rows, int cols)
{
    row_sums_colmajor_sets<<<(rows + WARP - 1) / WARP, dim3(WARP, SETS)>>>(a, sums, rows, cols);
    return cudaGetLastError();
}
