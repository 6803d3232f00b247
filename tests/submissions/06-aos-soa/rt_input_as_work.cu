// Mutant (hostile, red team B): converts the particles in place, inside the input, and works there.
// expect: FAIL
// expect-stage: contract|guards
//
// What it does: the pack rewrites the input array itself into tiles of 32 particles (field f of
// particle p of a tile at tile[f * 32 + p]; the last, partial tile with its own stride), each
// warp reading its 1 KB coalesced and writing it back rearranged; the launcher keeps the input's
// pointer, and the steps and the unpack use it instead of the work buffer they are handed
// (every access coalesced). One replay's output is right, the guard bytes are untouched, and
// nothing after the first replay of a child was checked, so the input left rearranged went
// unseen.
// Rule attacked: rule 4 (replays share nothing: every input buffer is checked unchanged after
// every replay).
// Must get: FAIL, contract: the first replay leaves the input changed.
#include "lab06.h"

enum { FIELDS = 8, WARPS = 8 };

// The tile of particle i: its first particle and its stride (32, or what is left at the end).
__device__ __forceinline__ int tile_stride(int first, int n)
{
    return min(32, n - first);
}

__global__ void pack_in_place(float *aos, int n)
{
    __shared__ float tile[WARPS][32 * FIELDS];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int first = (blockIdx.x * WARPS + warp) * 32;
    if (first >= n)
        return;
    int stride = tile_stride(first, n), words = stride * FIELDS;
    float *chunk = aos + (size_t)first * FIELDS, *t = tile[warp];
    for (int q = lane; q < words; q += 32)
        t[q] = chunk[q]; /* word q = particle q / 8, field q % 8 */
    __syncwarp();
    for (int q = lane; q < words; q += 32)
        chunk[q] = t[q % stride * FIELDS + q / stride]; /* field q / stride, particle q % stride */
}

__global__ void step_in_place(float *aos, int n, float dt, float g)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int first = i / 32 * 32, stride = tile_stride(first, n), p = i - first;
    float *f = aos + (size_t)first * FIELDS + p;
    float v = f[5 * stride] - g * dt;
    f[5 * stride] = v;
    f[0] += f[3 * stride] * dt;
    f[stride] += f[4 * stride] * dt;
    f[2 * stride] += v * dt;
}

__global__ void unpack_from_input(const float *in, float *aos, int n)
{
    __shared__ float tile[WARPS][32 * FIELDS];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int first = (blockIdx.x * WARPS + warp) * 32;
    if (first >= n)
        return;
    int stride = tile_stride(first, n), words = stride * FIELDS;
    const float *chunk = in + (size_t)first * FIELDS;
    float *t = tile[warp];
    for (int q = lane; q < words; q += 32)
        t[q % stride * FIELDS + q / stride] = chunk[q];
    __syncwarp();
    for (int q = lane; q < words; q += 32)
        aos[(size_t)first * FIELDS + q] = t[q];
}

static float *particles; /* the input, kept by lab06_pack for the steps and the unpack */

extern "C" cudaError_t lab06_pack(const lab06_particle *aos, float *work, int n)
{
    (void)work;
    particles = (float *)aos;
    pack_in_place<<<(n + 32 * WARPS - 1) / (32 * WARPS), 32 * WARPS>>>(particles, n);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    (void)work;
    step_in_place<<<(n + 255) / 256, 256>>>(particles, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    (void)work;
    unpack_from_input<<<(n + 32 * WARPS - 1) / (32 * WARPS), 32 * WARPS>>>(particles, (float *)aos,
                                                                           n);
    return cudaGetLastError();
}
