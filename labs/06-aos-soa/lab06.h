/*
 * lab06.h - the contract of lab 06 (array of structures to structure of arrays).
 *
 * Included by the student's kernel.cu, by the reference solution and by the grader, so a
 * function whose prototype drifts fails to compile. Do not edit.
 *
 * The simulation hands over n particles as an array of lab06_particle (an array of
 * structures, AoS) and wants them back the same way. In between, the particles live in a work
 * buffer of 8 * LAB06_PLANE(n) floats whose layout is yours: room for 8 arrays ("planes") of
 * LAB06_PLANE(n) floats, n rounded up to a multiple of 32, so that each plane can start on a
 * 128-byte boundary (or for n structures, or for tiles of 32 particles). The grader calls
 * lab06_pack once, lab06_step LAB06_STEPS times, lab06_unpack once; that whole sequence is timed
 * and measured. All pointers are device pointers from cudaMalloc. Each function launches on the
 * default stream and returns cudaGetLastError() (or the error of a device-to-device
 * cudaMemcpyAsync); none may synchronize, allocate, or copy to or from the host.
 */
#ifndef CL_LAB06_H
#define CL_LAB06_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One particle: position, velocity, mass and charge, 32 bytes. */
typedef struct lab06_particle {
    float x, y, z;
    float vx, vy, vz;
    float mass, charge;
} lab06_particle;

#define LAB06_STEPS 8

/* The length of one plane of the work buffer: n rounded up to a multiple of 32 floats. */
#define LAB06_PLANE(n) (((n) + 31) / 32 * 32)

/* Moves n particles from aos into work (8 * LAB06_PLANE(n) floats), in the layout of your
 * choice. */
cudaError_t lab06_pack(const lab06_particle *aos, float *work, int n);

/* One time step of length dt under gravity g, on the particles in work:
 *     vz -= g * dt;  x += vx * dt;  y += vy * dt;  z += vz * dt
 * (vz first, then the positions with the new vz). Mass and charge are not used. */
cudaError_t lab06_step(float *work, int n, float dt, float g);

/* Moves the n particles in work back into aos, every field. */
cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n);

#ifdef __cplusplus
}
#endif

#endif
