// Mutant: structure of arrays for the steps, but the conversions give each thread a whole
// structure, so their loads (pack) and stores (unpack) have lanes 32 bytes apart. Correct;
// must fail on efficiency.
#include "lab06.h"

// Structure of arrays: field f of particle i at work[f * LAB06_PLANE(n) + i], in the order of
// lab06_particle (x, y, z, vx, vy, vz, mass, charge). A warp reading one field of 32 consecutive
// particles then reads 128 consecutive bytes, and since every plane starts on a multiple of 32
// floats, those bytes are 4 whole sectors. (Planes n floats apart would start 4 bytes further
// into a sector each, n being odd: 5 sectors a request, lab 07's problem.)
enum { FIELDS = 8, BLOCK = 256 };

// A thread per particle: it reads its whole structure, lanes 32 bytes apart.
__global__ void pack_staged(const float *aos, float *work, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int f = 0; f < FIELDS; ++f)
            work[(size_t)f * LAB06_PLANE(n) + i] = aos[(size_t)i * FIELDS + f];
}

__global__ void unpack_staged(const float *work, float *aos, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        for (int f = 0; f < FIELDS; ++f)
            aos[(size_t)i * FIELDS + f] = work[(size_t)f * LAB06_PLANE(n) + i];
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
