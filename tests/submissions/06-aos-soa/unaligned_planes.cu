// Mutant: structure of arrays with the planes packed n floats apart. Correct, and every warp
// reads 32 consecutive floats, but from plane 1 on each run starts inside a sector: 5 sectors
// where 4 would do. Must fail on loads.
#include "lab06.h"

// Planes n floats apart: n = 3000017 is odd, so plane f starts 4 f bytes into a sector.
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
            work[(size_t)f * (size_t)n + first + threadIdx.x] =
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
            tile[threadIdx.x * (FIELDS + 1) + f] =
                work[(size_t)f * (size_t)n + first + threadIdx.x];
    __syncthreads();
    float *dst = aos + (size_t)first * FIELDS;
    for (int j = threadIdx.x; j < count * FIELDS; j += BLOCK)
        dst[j] = tile[j + j / FIELDS];
}

__global__ void step_soa(float *work, int n, float dt, float g)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        size_t plane = (size_t)n;
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
