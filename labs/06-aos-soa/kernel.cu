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

// The work buffer holds the particles as they came: an array of lab06_particle.
extern "C" cudaError_t lab06_pack(const lab06_particle *aos, float *work, int n)
{
    return cudaMemcpyAsync(work, aos, (size_t)n * sizeof(lab06_particle), cudaMemcpyDeviceToDevice);
}

__global__ void step_aos(lab06_particle *p, int n, float dt, float g)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float vz = p[i].vz - g * dt;
        p[i].vz = vz;
        p[i].x += p[i].vx * dt;
        p[i].y += p[i].vy * dt;
        p[i].z += vz * dt;
    }
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    step_aos<<<(n + 255) / 256, 256>>>((lab06_particle *)work, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    return cudaMemcpyAsync(aos, work, (size_t)n * sizeof(lab06_particle), cudaMemcpyDeviceToDevice);
}

// ---- STUDENT END ----
