/*
 * Lab 06 - array of structures to structure of arrays.  Your file: edit only between the
 * STUDENT markers.
 *
 * These functions are correct. They keep the particles as the simulation stores them, an array
 * of 32-byte structures, so in every step a warp reading x reads one float out of each of 32
 * structures, 32 bytes apart: 32 sectors for 128 useful bytes, and the same for y, z, vx, vy
 * and vz. Choose a layout in which each field of consecutive particles is contiguous and starts
 * on a 128-byte boundary (lab06.h's LAB06_PLANE), and convert into it (and back) with coalesced
 * kernels.
 *
 *   grade it:     make -f Makefile.student grade LAB=06
 *   read first:   handouts/06-aos-soa.md
 */
#include "lab06.h"

// ---- STUDENT BEGIN ----

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
            tile[threadIdx.x * (FIELDS + 1) + f] =
                work[(size_t)f * LAB06_PLANE(n) + first + threadIdx.x];
    __syncthreads();
    float *dst = aos + (size_t)first * FIELDS;
    for (int j = threadIdx.x; j < count * FIELDS; j += BLOCK)
        dst[j] = tile[j + j / FIELDS];
}

// One particle's step, for the last n % 4 particles (and any n below 4).
__device__ void step_one(float *work, size_t plane, int i, float dt, float g)
{
    float *x = work, *y = work + plane, *z = work + 2 * plane;
    const float *vx = work + 3 * plane, *vy = work + 4 * plane;
    float *vz = work + 5 * plane;
    float v = vz[i] - g * dt;
    vz[i] = v;
    x[i] += vx[i] * dt;
    y[i] += vy[i] * dt;
    z[i] += v * dt;
}

// Four particles a thread, each field as one float4: every plane starts on a multiple of 32
// floats, so element 4i of a plane is 16-byte aligned. A warp then moves 512 bytes a request and
// each thread has six 16-byte loads in flight (all issued before any store), which is what keeps
// this GPU's memory busy.
__global__ void step_soa(float *work, int n, float dt, float g)
{
    size_t plane = LAB06_PLANE(n);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n / 4) {
        float4 *x = (float4 *)work, *y = (float4 *)(work + plane),
               *z = (float4 *)(work + 2 * plane);
        const float4 *vx = (const float4 *)(work + 3 * plane),
                     *vy = (const float4 *)(work + 4 * plane);
        float4 *vz = (float4 *)(work + 5 * plane);
        float4 px = x[i], py = y[i], pz = z[i], ux = vx[i], uy = vy[i], w = vz[i];
        w = make_float4(w.x - g * dt, w.y - g * dt, w.z - g * dt, w.w - g * dt);
        vz[i] = w;
        x[i] = make_float4(px.x + ux.x * dt, px.y + ux.y * dt, px.z + ux.z * dt, px.w + ux.w * dt);
        y[i] = make_float4(py.x + uy.x * dt, py.y + uy.y * dt, py.z + uy.z * dt, py.w + uy.w * dt);
        z[i] = make_float4(pz.x + w.x * dt, pz.y + w.y * dt, pz.z + w.z * dt, pz.w + w.w * dt);
    }
    if (i < n % 4)
        step_one(work, plane, 4 * (n / 4) + i, dt, g);
}

extern "C" cudaError_t lab06_pack(const lab06_particle *aos, float *work, int n)
{
    pack_staged<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>((const float *)aos, work, n);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    int threads = n / 4 > 3 ? n / 4 : 3; /* n / 4 vectors; the last n % 4 need 3 at the most */
    step_soa<<<(threads + 255) / 256, 256>>>(work, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    unpack_staged<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(work, (float *)aos, n);
    return cudaGetLastError();
}

// ---- STUDENT END ----
