// Alternative solution: the reference's planes, with the padding at the end of each plane zeroed
// by cudaMemsetAsync (on the default stream, in lab06_pack) so that the step can run float4 over
// whole planes with no tail code; the pack is a persistent kernel whose blocks take chunks of 256
// particles from a counter in a __device__ int (atomicAdd), the last block out resetting it; the
// conversions are done a warp per 32 particles, through a shared tile of the warp's own. Must pass.
#include "lab06.h"

enum { FIELDS = 8, WARPS = 8, THREADS = 32 * WARPS, CHUNK = THREADS, PAD = FIELDS + 1 };

__device__ unsigned int next_chunk;  // the next chunk of CHUNK particles to hand out
__device__ unsigned int blocks_done; // blocks that found none left

// Warp-wide: particles first .. first + 31 (those below n) from structures to planes.
__device__ __forceinline__ void pack_warp(const float *aos, float *work, int n, size_t plane,
                                          int first, float *t)
{
    int lane = threadIdx.x % 32, words = min(32, n - first) * FIELDS;
    const float *src = aos + (size_t)first * FIELDS;
    for (int q = lane; q < words; q += 32)
        t[q / FIELDS * PAD + q % FIELDS] = src[q];
    __syncwarp();
    if (first + lane < n)
        for (int f = 0; f < FIELDS; ++f)
            work[f * plane + first + lane] = t[lane * PAD + f];
    __syncwarp(); /* t is read before the warp's next chunk overwrites it */
}

__global__ void __launch_bounds__(THREADS) pack_persistent(const float *aos, float *work, int n)
{
    __shared__ float tiles[WARPS][32 * PAD];
    __shared__ unsigned int chunk;
    unsigned chunks = (n + CHUNK - 1) / CHUNK;
    size_t plane = LAB06_PLANE(n);
    int warp = threadIdx.x / 32;
    for (;;) {
        if (threadIdx.x == 0)
            chunk = atomicAdd(&next_chunk, 1u);
        __syncthreads();
        unsigned mine = chunk;
        __syncthreads();
        if (mine >= chunks)
            break;
        int first = (int)mine * CHUNK + warp * 32;
        if (first < n)
            pack_warp(aos, work, n, plane, first, tiles[warp]);
    }
    if (threadIdx.x == 0) {
        __threadfence();
        if (atomicAdd(&blocks_done, 1u) == gridDim.x - 1) {
            atomicExch(&next_chunk, 0u);
            atomicExch(&blocks_done, 0u);
        }
    }
}

// Four particles a thread over whole planes: the padding (zeros) is stepped too, harmlessly.
__global__ void step_whole_planes(float *work, int n, float dt, float g)
{
    size_t plane = LAB06_PLANE(n);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if ((size_t)i >= plane / 4)
        return;
    float4 *x = (float4 *)work, *y = (float4 *)(work + plane), *z = (float4 *)(work + 2 * plane);
    const float4 *vx = (const float4 *)(work + 3 * plane), *vy = (const float4 *)(work + 4 * plane);
    float4 *vz = (float4 *)(work + 5 * plane);
    float4 px = x[i], py = y[i], pz = z[i], ux = vx[i], uy = vy[i], w = vz[i];
    w = make_float4(w.x - g * dt, w.y - g * dt, w.z - g * dt, w.w - g * dt);
    vz[i] = w;
    x[i] = make_float4(px.x + ux.x * dt, px.y + ux.y * dt, px.z + ux.z * dt, px.w + ux.w * dt);
    y[i] = make_float4(py.x + uy.x * dt, py.y + uy.y * dt, py.z + uy.z * dt, py.w + uy.w * dt);
    z[i] = make_float4(pz.x + w.x * dt, pz.y + w.y * dt, pz.z + w.z * dt, pz.w + w.w * dt);
}

__global__ void unpack_by_warp(const float *work, float *aos, int n)
{
    __shared__ float tiles[WARPS][32 * PAD];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int first = (blockIdx.x * WARPS + warp) * 32;
    if (first >= n)
        return;
    size_t plane = LAB06_PLANE(n);
    float *t = tiles[warp];
    if (first + lane < n)
        for (int f = 0; f < FIELDS; ++f)
            t[lane * PAD + f] = work[f * plane + first + lane];
    __syncwarp();
    int words = min(32, n - first) * FIELDS;
    float *dst = aos + (size_t)first * FIELDS;
    for (int q = lane; q < words; q += 32)
        dst[q] = t[q / FIELDS * PAD + q % FIELDS];
}

extern "C" cudaError_t lab06_pack(const lab06_particle *aos, float *work, int n)
{
    size_t plane = LAB06_PLANE(n), tail = plane - (size_t)n;
    for (int f = 0; f < FIELDS && tail > 0; ++f) {
        cudaError_t err = cudaMemsetAsync(work + f * plane + n, 0, tail * sizeof(float), 0);
        if (err != cudaSuccess)
            return err;
    }
    int device = 0, sms = 1, per_sm = 1;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, pack_persistent, THREADS, 0);
    long long chunks = ((long long)n + CHUNK - 1) / CHUNK;
    long long blocks = (long long)sms * (per_sm > 0 ? per_sm : 1);
    if (blocks > chunks)
        blocks = chunks > 0 ? chunks : 1;
    pack_persistent<<<(unsigned)blocks, THREADS>>>((const float *)aos, work, n);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    int vectors = LAB06_PLANE(n) / 4;
    step_whole_planes<<<(vectors + 255) / 256, 256>>>(work, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    unpack_by_warp<<<(n + THREADS - 1) / THREADS, THREADS>>>(work, (float *)aos, n);
    return cudaGetLastError();
}
