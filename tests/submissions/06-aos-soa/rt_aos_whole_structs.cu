// Mutant (hostile, red team B): keeps the structures, reads and writes them whole and coalesced.
// expect: FAIL
// expect-stage: coalescing
//
// What it does: no layout change. The pack and unpack are the stub's device-to-device copies
// (which no engine sees), so work holds the structures as they came. The step gives each warp
// 32 consecutive structures, 1 KB, and moves them as two float4 requests of 512 consecutive
// bytes each way (16 sectors, 100% per request), handing every lane its own particle, and back,
// with warp shuffles. Every request is perfect; but each step reads all 8 fields where the
// task reads 6 (x, y, z, vx, vy, vz) and writes all 8 where it writes 4 (x, y, z, vz).
// Before, only sectors beyond what each request asked for were weighed against the task, and
// these requests ask for exactly what they move.
// Rule attacked: rule 1 (yardstick = the task: efficiency against the least sectors the task
// needs, summed over all requests).
// Must get: FAIL, coalescing (stores): twice the bytes the steps must write, 0.5 against the
// task (0.75 if the uncounted copies' share is credited to it); loads 0.75 (or 1.0 so credited).
#include "lab06.h"

__device__ __forceinline__ float4 shfl4(float4 v, int src)
{
    return make_float4(__shfl_sync(0xffffffffu, v.x, src), __shfl_sync(0xffffffffu, v.y, src),
                       __shfl_sync(0xffffffffu, v.z, src), __shfl_sync(0xffffffffu, v.w, src));
}

__device__ __forceinline__ float4 pick(int first, float4 a, float4 b)
{
    return first ? a : b;
}

// Warp w moves structures 32w .. 32w + 31: float4 words 64w .. 64w + 63 of work. All of them lie
// inside work, which holds LAB06_PLANE(n) structures (n rounded up to 32).
__global__ void step_whole_structures(float *work, int n, float dt, float g)
{
    int lane = threadIdx.x % 32;
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
    if (warp >= LAB06_PLANE(n) / 32)
        return;
    float4 *w = (float4 *)work + (size_t)warp * 64;
    float4 r0 = w[lane], r1 = w[32 + lane]; /* particles 0-15, 16-31 of the warp, 2 words each */
    // Lane l's particle: words 2l and 2l + 1, in r0 (l < 16) or r1 (l >= 16) of lanes 2l, 2l + 1.
    int lo = lane < 16, s0 = (2 * lane) % 32, s1 = (2 * lane + 1) % 32;
    float4 p0 = pick(lo, shfl4(r0, s0), shfl4(r1, s0)); /* x, y, z, vx */
    float4 p1 = pick(lo, shfl4(r0, s1), shfl4(r1, s1)); /* vy, vz, mass, charge */
    p1.y -= g * dt;
    p0.x += p0.w * dt;
    p0.y += p1.x * dt;
    p0.z += p1.y * dt;
    // Back: word l of r0 is half l % 2 of particle l / 2; word l of r1, of particle 16 + l / 2.
    int even = lane % 2 == 0;
    float4 a0 = shfl4(p0, lane / 2), a1 = shfl4(p1, lane / 2);
    float4 b0 = shfl4(p0, 16 + lane / 2), b1 = shfl4(p1, 16 + lane / 2);
    w[lane] = pick(even, a0, a1);
    w[32 + lane] = pick(even, b0, b1);
}

extern "C" cudaError_t lab06_pack(const lab06_particle *aos, float *work, int n)
{
    return cudaMemcpyAsync(work, aos, (size_t)n * sizeof(lab06_particle), cudaMemcpyDeviceToDevice);
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    int threads = LAB06_PLANE(n); /* a warp per 32 structures */
    step_whole_structures<<<(threads + 255) / 256, 256>>>(work, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    return cudaMemcpyAsync(aos, work, (size_t)n * sizeof(lab06_particle), cudaMemcpyDeviceToDevice);
}
