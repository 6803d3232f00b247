// Mutant (hostile, red team B): the structures read by a bulk copy (TMA) hidden behind PTX labels.
// expect: FAIL
// expect-stage: contract
//
// What it does: the solution's planes and steps; the unpack is the solution's staged one. The
// pack has one thread of each block start `cp.async.bulk` (UBLKCP on the H200: the copy engine
// next to the SM, not a load) of the block's 256 structures into shared memory, completing on an
// mbarrier that all threads wait on, then writes the planes with ordinary coalesced stores.
// Neither engine counts a bulk copy as a load, so the pack's reads were never graded (the pack
// then moved its 8 KB a block for free). The old refusal scanned the PTX for statements that
// start with "cp.async."; here each inline asm opens a scope and puts a label first
// ("{ BLK: cp.async.bulk...; }").
// Rule attacked: rule 2 (bulk copies and TMA are refused by name from the SASS of what was
// compiled, not from the PTX text).
// Must get: FAIL, contract: UBLKCP found in the compiled kernel's SASS.
#include "lab06.h"

enum { FIELDS = 8, BLOCK = 256 };

__global__ void pack_bulk(const float *aos, float *work, int n)
{
    __shared__ __align__(128) float tile[BLOCK * FIELDS];
    __shared__ __align__(8) unsigned long long bar;
    int first = blockIdx.x * BLOCK, count = min(BLOCK, n - first);
    unsigned bytes = (unsigned)count * FIELDS * sizeof(float); /* a multiple of 32 */
    unsigned bar_s = (unsigned)__cvta_generic_to_shared(&bar);
    unsigned tile_s = (unsigned)__cvta_generic_to_shared(tile);
    const float *src = aos + (size_t)first * FIELDS; /* 16-byte aligned: 32-byte structures */
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_s) : "memory");
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_s),
                     "r"(bytes)
                     : "memory");
        asm volatile("{ BLK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "
                     "[%0], [%1], %2, [%3]; }" ::"r"(tile_s),
                     "l"(src), "r"(bytes), "r"(bar_s)
                     : "memory");
    }
    asm volatile("{ .reg .pred done; WAIT: mbarrier.try_wait.parity.shared::cta.b64 done, [%0], "
                 "0; @!done bra WAIT; }" ::"r"(bar_s)
                 : "memory");
    if (threadIdx.x < count)
        for (int f = 0; f < FIELDS; ++f)
            work[(size_t)f * LAB06_PLANE(n) + first + threadIdx.x] = tile[threadIdx.x * FIELDS + f];
}

__global__ void unpack_staged(const float *work, float *aos, int n)
{
    __shared__ float tile[BLOCK * (FIELDS + 1)];
    int first = blockIdx.x * BLOCK, count = min(BLOCK, n - first);
    if (threadIdx.x < count)
        for (int f = 0; f < FIELDS; ++f)
            tile[threadIdx.x * (FIELDS + 1) + f] =
                work[(size_t)f * LAB06_PLANE(n) + first + threadIdx.x];
    __syncthreads();
    float *dst = aos + (size_t)first * FIELDS;
    for (int j = threadIdx.x; j < count * FIELDS; j += BLOCK)
        dst[j] = tile[j + j / FIELDS];
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
    pack_bulk<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>((const float *)aos, work, n);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    step_planes<<<(n + 255) / 256, 256>>>(work, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    unpack_staged<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(work, (float *)aos, n);
    return cudaGetLastError();
}
