/*
 * lab06_explore.cu - the kernels behind lab 06's explore run: one time step of n particles in
 * three layouts (array of structures, structure of arrays, and tiles of 32 particles stored as
 * arrays, AoSoA), reading either position and velocity (6 fields) or every field (8: mass and
 * charge give the acceleration in a uniform field). Field order in every layout: x, y, z, vx,
 * vy, vz, mass, charge.
 */
#include <cuda_runtime.h>

#define DT 0.01f
#define G 9.81f
#define EX 0.5f /* the field, for the 8-field step: a = charge / mass * E */
#define EY -0.25f
#define EZ 0.125f

/* Where field f of particle i lives, in each layout. */
__device__ __forceinline__ size_t at_aos(int i, int f, int n)
{
    return (size_t)i * 8 + f;
}
__device__ __forceinline__ size_t at_soa(int i, int f, int n)
{
    return (size_t)f * n + i;
}
__device__ __forceinline__ size_t at_aosoa(int i, int f, int n)
{
    return ((size_t)(i / 32) * 8 + f) * 32 + i % 32;
}

template <size_t (*AT)(int, int, int)> __global__ void step6(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float vz = p[AT(i, 5, n)] - G * DT;
        p[AT(i, 5, n)] = vz;
        p[AT(i, 0, n)] += p[AT(i, 3, n)] * DT;
        p[AT(i, 1, n)] += p[AT(i, 4, n)] * DT;
        p[AT(i, 2, n)] += vz * DT;
    }
}

template <size_t (*AT)(int, int, int)> __global__ void step8(float *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float qm = p[AT(i, 7, n)] / p[AT(i, 6, n)];
        float vx = p[AT(i, 3, n)] + qm * EX * DT, vy = p[AT(i, 4, n)] + qm * EY * DT;
        float vz = p[AT(i, 5, n)] + (qm * EZ - G) * DT;
        p[AT(i, 3, n)] = vx;
        p[AT(i, 4, n)] = vy;
        p[AT(i, 5, n)] = vz;
        p[AT(i, 0, n)] += vx * DT;
        p[AT(i, 1, n)] += vy * DT;
        p[AT(i, 2, n)] += vz * DT;
    }
}

/* way: 0 AoS, 1 SoA, 2 AoSoA; fields: 6 or 8. n must be a multiple of 32 for AoSoA. */
extern "C" cudaError_t lab06_layout_step(int way, int fields, float *p, int n)
{
    dim3 grid((n + 255) / 256), block(256);
    if (way == 0 && fields == 6)
        step6<at_aos><<<grid, block>>>(p, n);
    else if (way == 1 && fields == 6)
        step6<at_soa><<<grid, block>>>(p, n);
    else if (way == 2 && fields == 6)
        step6<at_aosoa><<<grid, block>>>(p, n);
    else if (way == 0 && fields == 8)
        step8<at_aos><<<grid, block>>>(p, n);
    else if (way == 1 && fields == 8)
        step8<at_soa><<<grid, block>>>(p, n);
    else if (way == 2 && fields == 8)
        step8<at_aosoa><<<grid, block>>>(p, n);
    else
        return cudaErrorInvalidValue;
    return cudaGetLastError();
}
