// Mutant (hostile, red team B): conversions coalesced only in the warps the trace always watches.
// expect: FAIL
// expect-stage: coalescing
//
// What it does: the layout is the solution's (planes of LAB06_PLANE(n) floats) and so are the
// steps. In the conversions each warp moves its own 32 particles. The warps the trace records
// in every launch, the first and the last of each block and every warp of the grid's last
// block, stage them through shared memory (consecutive lanes on consecutive words, both ways);
// the six middle warps of every other block, three quarters of the work, read and write the
// structures a lane per particle, lanes 32 bytes apart (32 sectors a request).
// Rule attacked: rule 3 (coverage, not luck: the warps that are always traced are known, the
// others are sampled and must be weighed as what they stand for).
// Must get: FAIL, coalescing (loads and stores): the sampled middle warps, weighed by the warps
// each stands for, put the conversions' requests near 0.5 efficiency and the whole below 0.90.
// (Weighed as one record each, beside the always-traced warps, they still would, barely: loads
// near 0.88, stores near 0.84.)
#include "lab06.h"

enum { FIELDS = 8, WARPS = 8, BLOCK = 32 * WARPS };

// Whether this warp is one the trace records in every launch.
__device__ __forceinline__ int always_watched(void)
{
    int warp = threadIdx.x / 32;
    return warp == 0 || warp == WARPS - 1 || blockIdx.x == gridDim.x - 1;
}

__global__ void pack_by_warp(const float *aos, float *work, int n)
{
    __shared__ float tile[WARPS][32 * (FIELDS + 1)];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int first = (blockIdx.x * WARPS + warp) * 32, p = first + lane;
    size_t plane = LAB06_PLANE(n);
    if (first >= n)
        return;
    if (always_watched()) {
        for (int j = 0; j < FIELDS; ++j) {
            int q = j * 32 + lane; /* word q of the warp's 32 structures */
            if (first + q / FIELDS < n)
                tile[warp][q / FIELDS * (FIELDS + 1) + q % FIELDS] =
                    aos[(size_t)first * FIELDS + q];
        }
        __syncwarp();
        if (p < n)
            for (int f = 0; f < FIELDS; ++f)
                work[f * plane + p] = tile[warp][lane * (FIELDS + 1) + f];
    } else if (p < n) {
        for (int f = 0; f < FIELDS; ++f)
            work[f * plane + p] = aos[(size_t)p * FIELDS + f];
    }
}

__global__ void unpack_by_warp(const float *work, float *aos, int n)
{
    __shared__ float tile[WARPS][32 * (FIELDS + 1)];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int first = (blockIdx.x * WARPS + warp) * 32, p = first + lane;
    size_t plane = LAB06_PLANE(n);
    if (first >= n)
        return;
    if (always_watched()) {
        if (p < n)
            for (int f = 0; f < FIELDS; ++f)
                tile[warp][lane * (FIELDS + 1) + f] = work[f * plane + p];
        __syncwarp();
        for (int j = 0; j < FIELDS; ++j) {
            int q = j * 32 + lane;
            if (first + q / FIELDS < n)
                aos[(size_t)first * FIELDS + q] =
                    tile[warp][q / FIELDS * (FIELDS + 1) + q % FIELDS];
        }
    } else if (p < n) {
        for (int f = 0; f < FIELDS; ++f)
            aos[(size_t)p * FIELDS + f] = work[f * plane + p];
    }
}

__global__ void step_planes(float *work, int n, float dt, float g)
{
    size_t plane = LAB06_PLANE(n);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = work[5 * plane + i] - g * dt;
        work[5 * plane + i] = v;
        work[i] += work[3 * plane + i] * dt;
        work[plane + i] += work[4 * plane + i] * dt;
        work[2 * plane + i] += v * dt;
    }
}

extern "C" cudaError_t lab06_pack(const lab06_particle *aos, float *work, int n)
{
    pack_by_warp<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>((const float *)aos, work, n);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    step_planes<<<(n + 255) / 256, 256>>>(work, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    unpack_by_warp<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(work, (float *)aos, n);
    return cudaGetLastError();
}
