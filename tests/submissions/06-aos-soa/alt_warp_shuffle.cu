// Alternative solution: the reference's layout (one plane per field, LAB06_PLANE(n) floats apart),
// converted without shared memory: a warp moves 32 particles at a time, reading or writing their
// 256 words as 8 coalesced runs and regrouping them by field with warp shuffles. The step reads
// and writes the planes as float4, four particles a thread, with a scalar tail. Must pass.
#include "lab06.h"

enum { FIELDS = 8, WARP = 32, THREADS = 256 };
#define FULL_MASK 0xffffffffu

// Warp number w of the grid handles the particles of group w, w + (warps in the grid), ...; the
// loop is the same for all its lanes, so every shuffle has all 32 of them.
__device__ static size_t first_group(void)
{
    return (size_t)blockIdx.x * (THREADS / WARP) + threadIdx.x / WARP;
}

// The 32 structures of a group are 256 consecutive words: load j takes word 32 j + lane into
// v[j], consecutive lanes on consecutive words. Field f of particle `lane` is word 8 lane + f,
// which lane 8 (lane % 4) + f holds in v[lane / 4]. Each lane asks that lane for all 8 registers
// (a shuffle reads the same register in every lane) and keeps v[lane / 4]; then the 32 lanes
// store 32 consecutive words of plane f.
__global__ void pack_shuffle(const float *aos, float *work, int n)
{
    const int lane = threadIdx.x % WARP;
    const size_t plane = LAB06_PLANE(n), groups = ((size_t)n + WARP - 1) / WARP;
    for (size_t g = first_group(); g < groups; g += (size_t)gridDim.x * (THREADS / WARP)) {
        size_t first = g * WARP;
        int count = (int)((size_t)n - first < WARP ? (size_t)n - first : WARP);
        const float *src = aos + first * FIELDS;
        float v[FIELDS];
#pragma unroll
        for (int j = 0; j < FIELDS; ++j) {
            int w = j * WARP + lane;
            v[j] = w < count * FIELDS ? src[w] : 0.0f;
        }
#pragma unroll
        for (int f = 0; f < FIELDS; ++f) {
            float value = 0.0f;
#pragma unroll
            for (int j = 0; j < FIELDS; ++j) {
                float got = __shfl_sync(FULL_MASK, v[j], 8 * (lane % 4) + f);
                if (j == lane / 4)
                    value = got;
            }
            if (lane < count)
                work[f * plane + first + lane] = value;
        }
    }
}

// The reverse: lane `lane` reads field f of particle first + lane from plane f into v[f]. Word
// 32 j + lane of the group's structures is field lane % 8 of particle 4 j + lane / 8, held by lane
// 4 j + lane / 8 in v[lane % 8]; each lane fetches all 8 of that lane's registers and keeps that
// one, and the warp stores 32 consecutive words of structures.
__global__ void unpack_shuffle(const float *work, float *aos, int n)
{
    const int lane = threadIdx.x % WARP;
    const size_t plane = LAB06_PLANE(n), groups = ((size_t)n + WARP - 1) / WARP;
    for (size_t g = first_group(); g < groups; g += (size_t)gridDim.x * (THREADS / WARP)) {
        size_t first = g * WARP;
        int count = (int)((size_t)n - first < WARP ? (size_t)n - first : WARP);
        float v[FIELDS];
#pragma unroll
        for (int f = 0; f < FIELDS; ++f)
            v[f] = lane < count ? work[f * plane + first + lane] : 0.0f;
        float *dst = aos + first * FIELDS;
#pragma unroll
        for (int j = 0; j < FIELDS; ++j) {
            float value = 0.0f;
#pragma unroll
            for (int f = 0; f < FIELDS; ++f) {
                float got = __shfl_sync(FULL_MASK, v[f], 4 * j + lane / 8);
                if (f == lane % 8)
                    value = got;
            }
            int w = j * WARP + lane;
            if (w < count * FIELDS)
                dst[w] = value;
        }
    }
}

// One particle's step, on values already in registers.
__device__ static void move(float &x, float &y, float &z, float vx, float vy, float &vz, float dt,
                            float g)
{
    vz -= g * dt;
    x += vx * dt;
    y += vy * dt;
    z += vz * dt;
}

// Every plane starts on a multiple of 32 floats of a cudaMalloc'ed buffer, so it is an array of
// float4: thread q moves particles 4q..4q+3 with 16-byte loads and stores, 512 consecutive bytes a
// warp. The thread after the last whole quad moves the n % 4 particles left, one at a time.
__global__ void step_float4(float *work, int n, float dt, float g)
{
    size_t plane = LAB06_PLANE(n);
    float *x = work, *y = work + plane, *z = work + 2 * plane;
    const float *vx = work + 3 * plane, *vy = work + 4 * plane;
    float *vz = work + 5 * plane;
    size_t q = (size_t)blockIdx.x * blockDim.x + threadIdx.x, quads = (size_t)n / 4;
    if (q < quads) {
        float4 px = ((float4 *)x)[q], py = ((float4 *)y)[q], pz = ((float4 *)z)[q];
        float4 vx4 = ((const float4 *)vx)[q], vy4 = ((const float4 *)vy)[q];
        float4 vz4 = ((float4 *)vz)[q];
        move(px.x, py.x, pz.x, vx4.x, vy4.x, vz4.x, dt, g);
        move(px.y, py.y, pz.y, vx4.y, vy4.y, vz4.y, dt, g);
        move(px.z, py.z, pz.z, vx4.z, vy4.z, vz4.z, dt, g);
        move(px.w, py.w, pz.w, vx4.w, vy4.w, vz4.w, dt, g);
        ((float4 *)vz)[q] = vz4;
        ((float4 *)x)[q] = px;
        ((float4 *)y)[q] = py;
        ((float4 *)z)[q] = pz;
    } else if (q == quads) {
        for (size_t i = 4 * quads; i < (size_t)n; ++i) {
            float v = vz[i];
            move(x[i], y[i], z[i], vx[i], vy[i], v, dt, g);
            vz[i] = v;
        }
    }
}

static unsigned blocks_for(size_t threads)
{
    size_t blocks = (threads + THREADS - 1) / THREADS;
    return (unsigned)(blocks == 0 ? 1 : blocks < 0x7fffffff ? blocks : 0x7fffffff);
}

extern "C" cudaError_t lab06_pack(const lab06_particle *aos, float *work, int n)
{
    size_t groups = ((size_t)(n > 0 ? n : 0) + WARP - 1) / WARP;
    pack_shuffle<<<blocks_for(groups * WARP), THREADS>>>((const float *)aos, work, n);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    step_float4<<<blocks_for((size_t)(n > 0 ? n : 0) / 4 + 1), THREADS>>>(work, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    size_t groups = ((size_t)(n > 0 ? n : 0) + WARP - 1) / WARP;
    unpack_shuffle<<<blocks_for(groups * WARP), THREADS>>>(work, (float *)aos, n);
    return cudaGetLastError();
}
