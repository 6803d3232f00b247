// Mutant: partly coalesced. The particles stay an array of structures, and each thread reads and
// writes its structure as two 16-byte vectors. A warp's lanes are still 32 bytes apart: each
// request touches 32 sectors and uses half of each. Correct; must fail on efficiency.
#include "lab06.h"

extern "C" cudaError_t lab06_pack(const lab06_particle *aos, float *work, int n)
{
    return cudaMemcpyAsync(work, aos, (size_t)n * sizeof(lab06_particle), cudaMemcpyDeviceToDevice);
}

__global__ void step_aos_float4(float4 *p, int n, float dt, float g)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 a = p[2 * i], b = p[2 * i + 1]; // (x, y, z, vx) and (vy, vz, mass, charge)
        b.y -= g * dt;
        a.x += a.w * dt;
        a.y += b.x * dt;
        a.z += b.y * dt;
        p[2 * i] = a;
        p[2 * i + 1] = b;
    }
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    step_aos_float4<<<(n + 255) / 256, 256>>>((float4 *)work, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    return cudaMemcpyAsync(aos, work, (size_t)n * sizeof(lab06_particle), cudaMemcpyDeviceToDevice);
}
