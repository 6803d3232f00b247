// Mutant: the unpack puts vx where vy belongs and vy where vx belongs. Must fail correctness.
#include "lab06.h"

// Structure of arrays: field f of particle i at work[f * LAB06_PLANE(n) + i], in the order of
// lab06_particle (x, y, z, vx, vy, vz, mass, charge). A warp reading one field of 32 consecutive
// particles then reads 128 consecutive bytes, and since every plane starts on a multiple of 32
// floats, those bytes are 4 whole sectors. (Planes n floats apart would start 4 bytes further
// into a sector each, n being odd: 5 sectors a request, lab 07's problem.)
enum { FIELDS = 8, BLOCK = 256 };

// A block converts BLOCK particles. Reading a whole structure per thread would put lanes 32 bytes
// apart, so the block first copies its BLOCK structures, one contiguous run of BLOCK * 32 bytes,
// into shared memory with consecutive threads on consecutive words; then thread t writes field f
// of particle t to plane f, 32 lanes on 32 consecutive words. Shared memory holds each particle
// in 9 words instead of 8 so that the threads of a warp, reading word f of 32 particles, hit 32
// different banks.
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

// The same in reverse: read each plane with consecutive threads, write the structures as one
// contiguous run.
__global__ void unpack_staged(const float *work, float *aos, int n)
{
    __shared__ float tile[BLOCK * (FIELDS + 1)];
    int first = blockIdx.x * BLOCK, count = min(BLOCK, n - first);
    if (threadIdx.x < count)
        for (int f = 0; f < FIELDS; ++f)
            tile[threadIdx.x * (FIELDS + 1) + (f == 3   ? 4
                                               : f == 4 ? 3
                                                        : f)] =
                work[(size_t)f * LAB06_PLANE(n) + first + threadIdx.x]; // vx and vy swapped
    __syncthreads();
    float *dst = aos + (size_t)first * FIELDS;
    for (int j = threadIdx.x; j < count * FIELDS; j += BLOCK)
        dst[j] = tile[j + j / FIELDS];
}

__global__ void step_soa(float *work, int n, float dt, float g)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        size_t plane = LAB06_PLANE(n);
        float *x = work, *y = work + plane, *z = work + 2 * plane;
        const float *vx = work + 3 * plane, *vy = work + 4 * plane;
        float *vz = work + 5 * plane;
        float v = vz[i] - g * dt;
        vz[i] = v;
        x[i] += vx[i] * dt;
        y[i] += vy[i] * dt;
        z[i] += v * dt;
    }
}

extern "C" cudaError_t lab06_pack(const lab06_particle *aos, float *work, int n)
{
    pack_staged<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>((const float *)aos, work, n);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    step_soa<<<(n + 255) / 256, 256>>>(work, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    unpack_staged<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(work, (float *)aos, n);
    return cudaGetLastError();
}
