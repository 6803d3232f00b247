// Mutant (hostile, red team B): whole-line stores past the output, filled with the old poison.
// expect: FAIL
// expect-stage: guards
//
// What it does: the solution's planes, pack and steps. The unpack writes the structures of the
// last block in whole groups of 64 (2 KB, 16 full lines), the particles past n included, and
// fills those with 0xffffffff: the grader's poison, which its guard bytes held, so the guard
// check (every guard byte still 0xff) found them untouched. It reads nothing past n. At every
// size the lab uses, the extra bytes (at most 63 structures, 2016 bytes) stay within the
// 4096-byte guard after the output.
// Rule attacked: rule 4 (the poison and the guard bytes are random per run, not 0xff).
// Must get: FAIL, guards: the output's guard bytes after the array changed.
#include "lab06.h"

enum { FIELDS = 8, BLOCK = 256, GROUP = 64 };

__global__ void pack_staged(const float *aos, float *work, int n)
{
    __shared__ float tile[BLOCK * (FIELDS + 1)];
    int first = blockIdx.x * BLOCK, count = min(BLOCK, n - first);
    const float *src = aos + (size_t)first * FIELDS;
    for (int j = threadIdx.x; j < count * FIELDS; j += BLOCK)
        tile[j + j / FIELDS] = src[j];
    __syncthreads();
    if (threadIdx.x < count)
        for (int f = 0; f < FIELDS; ++f)
            work[(size_t)f * LAB06_PLANE(n) + first + threadIdx.x] =
                tile[threadIdx.x * (FIELDS + 1) + f];
}

__global__ void unpack_whole_groups(const float *work, float *aos, int n)
{
    __shared__ float tile[BLOCK * (FIELDS + 1)];
    int first = blockIdx.x * BLOCK, count = min(BLOCK, n - first);
    int padded = (count + GROUP - 1) / GROUP * GROUP; /* the last block: past n, up to 63 */
    if (threadIdx.x < count)
        for (int f = 0; f < FIELDS; ++f)
            tile[threadIdx.x * (FIELDS + 1) + f] =
                work[(size_t)f * LAB06_PLANE(n) + first + threadIdx.x];
    __syncthreads();
    float *dst = aos + (size_t)first * FIELDS;
    for (int j = threadIdx.x; j < padded * FIELDS; j += BLOCK)
        dst[j] = j < count * FIELDS ? tile[j + j / FIELDS] : __uint_as_float(0xffffffffu);
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
    pack_staged<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>((const float *)aos, work, n);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    step_planes<<<(n + 255) / 256, 256>>>(work, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    unpack_whole_groups<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(work, (float *)aos, n);
    return cudaGetLastError();
}
