// Mutant (hostile, red team): the stub's column-major sums (a warp per row, lanes a whole column
// apart, 32 sectors a request), read through generic addresses. Its loads are inline PTX
// "ld.f32" with no state space, on a pointer chosen at run time between a shared-memory
// buffer and a_cm (from a flag the launcher always sets to 0), so that neither the compiler
// nor ptxas can prove it global: the SASS holds a generic LD, not an LDG, which the load
// counters (op_global) do not count and which a student may hope the trace skips too. For the
// engines to see a_cm's bytes moved, the kernel first reads its share of a_cm flat with
// ordinary coalesced loads (summed, stored under a condition never true). Row sums and axpby
// are the reference's.
// Attacks rule 2 (every instruction class that moves global memory is measured or refused):
// a generic load that reaches global memory is a global load.
// Must get: FAIL, coalescing: correct; the trace sees the generic loads (32 sectors a
// request) and the flat re-read, well below the bar (or the engines disagree on them); or,
// should the SASS check refuse generic loads by name, contract.
// expect: FAIL
// expect-stage: coalescing|contract
#include "lab03.h"

#define WARP 32
#define FULL_MASK 0xffffffffu

// A load through a generic address.
__device__ __forceinline__ float generic_load(const float *p)
{
    float v;
    asm volatile("ld.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__global__ void row_sums_colmajor_generic(const float *a, float *sums, int rows, int cols,
                                          int from_shared)
{
    __shared__ float scratch[WARP];
    const int r = (blockIdx.x * blockDim.x + threadIdx.x) / WARP;
    const int lane = threadIdx.x % WARP;
    scratch[lane] = 0.0f;
    __syncwarp();
    // The decoy: this warp's share of a_cm, flat and coalesced.
    const size_t count = (size_t)rows * cols, warps = (size_t)gridDim.x * blockDim.x / WARP;
    const size_t share = (count + warps - 1) / warps;
    float decoy = 0.0f;
    for (size_t i = (size_t)r * share + lane; i < (size_t)(r + 1) * share && i < count; i += WARP)
        decoy += a[i];
    if (decoy == 1.0e30f) /* |decoy| <= share: never */
        sums[0] = decoy;
    if (r >= rows)
        return;
    // Never the shared buffer at run time; the compiler cannot know.
    const float *base = from_shared ? scratch : a;
    float s = 0.0f;
    for (int c = lane; c < cols; c += WARP)
        s += generic_load(base + (from_shared ? 0 : (size_t)c * rows + r));
    for (int offset = 16; offset > 0; offset /= 2)
        s += __shfl_down_sync(FULL_MASK, s, offset);
    if (lane == 0)
        sums[r] = s;
}

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

extern "C" cudaError_t lab03_row_sums(const float *a, float *sums, int rows, int cols)
{
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
    row_sums_colmajor_generic<<<(rows * WARP + 255) / 256, 256>>>(a, sums, rows, cols, 0);
    return cudaGetLastError();
}
