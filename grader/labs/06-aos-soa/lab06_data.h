/*
 * lab06_data.h - lab 06's problem, shared by the grading child (which runs it) and the grader
 * (which checks it).
 */
#ifndef CL_LAB06_DATA_H
#define CL_LAB06_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "seeded.h"
#include "shape.h"

/* 12000017 particles: 384 MB as structures; a step reads six of the eight fields (288 MB) and
 * writes four, over 4x the L2 of any GPU up to the H200's 60 MB, and n is a multiple of nothing.
 * The trace, which is slower per request by far, follows the first 3000017 (the same kernels on the
 * same pattern: one particle a thread). */
#define LAB06_N 12000017
#define LAB06_N_TRACED 3000017
#define LAB06_FIELDS 8
#define LAB06_DT 0.01f
#define LAB06_G 9.81f
/* Steps between pack and unpack: LAB06_STEPS of the contract (lab06.h), checked where both are
 * seen (lab06_run.c); the grader itself never includes CUDA headers. */
#define LAB06_DATA_STEPS 8

/* The sizes (d[0] = particles): graded, and checked at one particle, partial warps and tiles. */
extern const cl_shapes lab06_shapes;

/* n particles for a data seed (seeded.h sd_seeds), as 8 floats each (x, y, z, vx, vy, vz,
 * mass, charge): positions in [-100, 100), velocities in [-10, 10), mass in [1, 10), charge in
 * [-1, 1), each field from a random stream of its own, so that two fields swapped show. */
void lab06_fill(uint64_t data_seed, float *aos, size_t n);
/* Field f's values (value i is particle i's), for the GPU's fill. */
extern const sd_uniform lab06_fields[LAB06_FIELDS];

/* steps time steps of the lab's motion, in place, on n particles stored as structures. */
void lab06_reference(float *aos, size_t n, int steps, float dt, float g);

#endif
