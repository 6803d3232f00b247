// Mutant (hostile, red team): coalesced where the trace looks, four times the traffic where the
// counters do. The trace watches lab 03 on 1504 rows (LAB03_ROWS_TRACED), the counters the
// graded 6008; the launchers see the size and choose. Below the graded size every load is a
// float4 and coalesced (16 sectors a request, 100%): the row sums a warp per row, axpby flat,
// the column-major sums four rows a thread. At the graded 6008 x 4104 each warp covers the
// same 128 consecutive floats in four steps, lane l taking float 4l + k at step k: a request of
// 32 floats spread over 512 bytes, 16 sectors for 4 sectors' worth (25%). The engines are then
// compared by sectors per request, trace against counters, within 1.5x: 16 against 16. So the
// trace grades 100%, the counters find nothing to disagree with, and the graded problem moves
// four times the sectors it needs.
// Attacks rule 1 (yardstick = the task) where only the counters measure the graded problem: the
// sectors they counted there, against the task's least, must grade too.
// Must get: FAIL, coalescing: correct at every size; at the graded size loads and stores at
// 25% of the task's least, as the counters measure them.
// expect: FAIL
// expect-stage: coalescing|remeasure
#include "lab03.h"

#define WARP 32
#define FULL_MASK 0xffffffffu
#define GRADED_ROWS 6008
#define GRADED_COLS 4104

static int graded(int rows, int cols)
{
    return rows == GRADED_ROWS && cols == GRADED_COLS;
}

// ---- below the graded size: float4 where the rows allow it, coalesced ----

// A warp per row; float4 when every row starts 16-byte aligned (cols % 4 == 0).
__global__ void row_sums_vector(const float *a, float *sums, int rows, int cols)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / WARP, lane = threadIdx.x % WARP;
    if (r >= rows)
        return;
    const float *row = a + (size_t)r * cols;
    float s = 0.0f;
    if (cols % 4 == 0) {
        for (int c = lane; c < cols / 4; c += WARP) {
            float4 v = ((const float4 *)row)[c];
            s += (v.x + v.y) + (v.z + v.w);
        }
    } else {
        for (int c = lane; c < cols; c += WARP)
            s += row[c];
    }
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(FULL_MASK, s, offset);
    if (lane == 0)
        sums[r] = s;
}

__global__ void axpby_vector(float alpha, const float *a, const float *b, float *c, size_t count)
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

// Thread t sums rows 4t..4t+3, reading a float4 down each column (rows % 4 == 0), else one.
__global__ void row_sums_colmajor_vector(const float *a, float *sums, int rows, int cols)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (rows % 4 == 0) {
        if (4 * t >= rows)
            return;
        float4 s = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        for (int c = 0; c < cols; ++c) {
            float4 v = ((const float4 *)(a + (size_t)c * rows))[t];
            s.x += v.x;
            s.y += v.y;
            s.z += v.z;
            s.w += v.w;
        }
        ((float4 *)sums)[t] = s;
    } else if (t < rows) {
        float s = 0.0f;
        for (int c = 0; c < cols; ++c)
            s += a[(size_t)c * rows + t];
        sums[t] = s;
    }
}

// ---- at the graded size: each warp's 128 floats in four steps, lanes 4 floats apart ----

// Index of lane `lane`'s float at step k of the 128-float group starting at g.
__device__ __forceinline__ size_t spread(size_t g, int lane, int k)
{
    return g + 4 * lane + k;
}

// A warp per row, the row in groups of 128 (4104 = 32 * 128 + 8: the last 8 one a lane).
__global__ void row_sums_spread(const float *a, float *sums, int rows, int cols)
{
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / WARP, lane = threadIdx.x % WARP;
    if (r >= rows)
        return;
    const float *row = a + (size_t)r * cols;
    float s = 0.0f;
    int g = 0;
    for (; g + 4 * WARP <= cols; g += 4 * WARP)
        for (int k = 0; k < 4; ++k)
            s += row[spread(g, lane, k)];
    for (int c = g + lane; c < cols; c += WARP)
        s += row[c];
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(FULL_MASK, s, offset);
    if (lane == 0)
        sums[r] = s;
}

// Flat, a warp's 128 floats in four spread steps (6008 * 4104 = 192631 * 128 + 64: the last
// group is half full).
__global__ void axpby_spread(float alpha, const float *a, const float *b, float *c, size_t count)
{
    size_t warp = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    int lane = threadIdx.x % WARP;
    size_t g = warp * 4 * WARP;
    for (int k = 0; k < 4; ++k) {
        size_t i = spread(g, lane, k);
        if (i < count)
            c[i] = alpha * a[i] + b[i];
    }
}

// Thread per row, 128 rows a warp in four spread steps down each column (6008 rows = 46 * 128
// + 120: the warp of the last, partial group keeps to its rows). The columns are split
// between the 8 warps of a block, summed in shared memory.
#define SPLIT 8
__global__ void row_sums_colmajor_spread(const float *a, float *sums, int rows, int cols)
{
    __shared__ float partial[SPLIT][4 * WARP];
    int lane = threadIdx.x % WARP, part = threadIdx.x / WARP;
    size_t g = (size_t)blockIdx.x * 4 * WARP;
    float s[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int c = part; c < cols; c += SPLIT)
        for (int k = 0; k < 4; ++k) {
            size_t r = spread(g, lane, k);
            if (r < (size_t)rows)
                s[k] += a[(size_t)c * rows + r];
        }
    for (int k = 0; k < 4; ++k)
        partial[part][4 * lane + k] = s[k];
    __syncthreads();
    if (threadIdx.x < 4 * WARP) {
        float total = 0.0f;
        for (int p = 0; p < SPLIT; ++p)
            total += partial[p][threadIdx.x];
        size_t r = g + threadIdx.x;
        if (r < (size_t)rows)
            sums[r] = total;
    }
}

extern "C" cudaError_t lab03_row_sums(const float *a, float *sums, int rows, int cols)
{
    if (graded(rows, cols))
        row_sums_spread<<<(rows * WARP + 255) / 256, 256>>>(a, sums, rows, cols);
    else
        row_sums_vector<<<(rows * WARP + 255) / 256, 256>>>(a, sums, rows, cols);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_axpby(float alpha, const float *a, const float *b, float *c, int rows,
                                   int cols)
{
    size_t count = (size_t)rows * cols;
    if (graded(rows, cols)) {
        size_t warps = (count + 4 * WARP - 1) / (4 * WARP);
        axpby_spread<<<(unsigned)((warps * WARP + 255) / 256), 256>>>(alpha, a, b, c, count);
    } else {
        size_t threads = count / 4 > 3 ? count / 4 : 3;
        axpby_vector<<<(unsigned)((threads + 255) / 256), 256>>>(alpha, a, b, c, count);
    }
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_row_sums_colmajor(const float *a, float *sums, int rows, int cols)
{
    if (graded(rows, cols)) {
        unsigned groups = (unsigned)((rows + 4 * WARP - 1) / (4 * WARP));
        row_sums_colmajor_spread<<<groups, SPLIT * WARP>>>(a, sums, rows, cols);
    } else {
        int threads = rows % 4 == 0 ? rows / 4 : rows;
        row_sums_colmajor_vector<<<(threads + 255) / 256, 256>>>(a, sums, rows, cols);
    }
    return cudaGetLastError();
}
