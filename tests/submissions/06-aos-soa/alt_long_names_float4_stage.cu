// Alternative solution: the reference's planes, conversions staged through shared memory 128
// particles at a time with float4 on the structures' side (a warp moves 512 consecutive bytes a
// request), a grid-stride step, and conversion kernels named with over 256 characters, the two
// names the same for their first 306 (a name cut short would make them one kernel). Must pass.
#include "lab06.h"

// 306 characters; the two conversions add 8 each (extern "C": not mangled).
#define LONG_NAME                                                                                  \
    a_kernel_name_longer_than_the_two_hundred_and_fifty_six_bytes_that_a_fixed_size_name_buffer_might_hold_so_that_a_grader_which_cuts_names_short_would_see_two_different_kernels_of_this_file_under_one_and_the_same_name_and_could_neither_find_them_in_the_module_nor_tell_their_records_apart_when_it_traces_them
#define CAT2(x, y) x##y
#define CAT(x, y) CAT2(x, y)
#define PACK CAT(LONG_NAME, _pack___)
#define UNPACK CAT(LONG_NAME, _unpack_)

enum { FIELDS = 8, PER_BLOCK = 128, THREADS = 256, PAD = FIELDS + 1 };

// Thread q < 2 * count moves float4 q of the block's structures: half q % 2 of particle q / 2.
// Then thread t writes particle t % 128 of planes t / 128, t / 128 + 2, ...: a warp on 32
// consecutive floats of one plane.
extern "C" __global__ void PACK(const float4 *aos, float *work, int n)
{
    __shared__ float tile[PER_BLOCK * PAD];
    int first = blockIdx.x * PER_BLOCK, count = min(PER_BLOCK, n - first), q = threadIdx.x;
    size_t plane = LAB06_PLANE(n);
    if (q < 2 * count) {
        float4 v = aos[(size_t)first * 2 + q];
        float *t = tile + (q / 2) * PAD + (q % 2) * 4;
        t[0] = v.x;
        t[1] = v.y;
        t[2] = v.z;
        t[3] = v.w;
    }
    __syncthreads();
    int p = threadIdx.x % PER_BLOCK;
    if (p < count)
        for (int f = threadIdx.x / PER_BLOCK; f < FIELDS; f += THREADS / PER_BLOCK)
            work[f * plane + first + p] = tile[p * PAD + f];
}

extern "C" __global__ void UNPACK(const float *work, float4 *aos, int n)
{
    __shared__ float tile[PER_BLOCK * PAD];
    int first = blockIdx.x * PER_BLOCK, count = min(PER_BLOCK, n - first), q = threadIdx.x;
    size_t plane = LAB06_PLANE(n);
    int p = threadIdx.x % PER_BLOCK;
    if (p < count)
        for (int f = threadIdx.x / PER_BLOCK; f < FIELDS; f += THREADS / PER_BLOCK)
            tile[p * PAD + f] = work[f * plane + first + p];
    __syncthreads();
    if (q < 2 * count) {
        const float *t = tile + (q / 2) * PAD + (q % 2) * 4;
        aos[(size_t)first * 2 + q] = make_float4(t[0], t[1], t[2], t[3]);
    }
}

__global__ void step_grid_stride(float *work, int n, float dt, float g)
{
    size_t plane = LAB06_PLANE(n);
    float *x = work, *y = work + plane, *z = work + 2 * plane;
    const float *vx = work + 3 * plane, *vy = work + 4 * plane;
    float *vz = work + 5 * plane;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        float v = vz[i] - g * dt;
        vz[i] = v;
        x[i] += vx[i] * dt;
        y[i] += vy[i] * dt;
        z[i] += v * dt;
    }
}

extern "C" cudaError_t lab06_pack(const lab06_particle *aos, float *work, int n)
{
    PACK<<<(n + PER_BLOCK - 1) / PER_BLOCK, THREADS>>>((const float4 *)aos, work, n);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    int blocks = (n + 255) / 256, most = 2048;
    if (blocks > most)
        blocks = most; /* each thread then loops over the particles */
    step_grid_stride<<<blocks, 256>>>(work, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    UNPACK<<<(n + PER_BLOCK - 1) / PER_BLOCK, THREADS>>>(work, (float4 *)aos, n);
    return cudaGetLastError();
}
