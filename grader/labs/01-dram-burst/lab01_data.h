/*
 * lab01_data.h - lab 01's problem, shared by the grading child (which runs it) and the grader
 * (which checks it): the size and the seeded inputs, so inputs never travel between them.
 */
#ifndef CL_LAB01_DATA_H
#define CL_LAB01_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "seeded.h"
#include "shape.h"

/* 3 * 2^24 + 7 floats: 201 MB per array, several times any L2, and a multiple of nothing. */
#define LAB01_N ((size_t)3 * (1u << 24) + 7)

/* The sizes (d[0] = n): graded, and checked at one float, partial warps and an odd million. */
extern const cl_shapes lab01_shapes;

/* The scale factor, from the task's seed (the same in the recording and the replays), and x,
 * from the data seed (seeded.h sd_seeds); x must hold n floats. x's values, for the GPU's
 * fill. */
float lab01_factor(uint64_t seed);
void lab01_fill_x(uint64_t data_seed, float *x, size_t n);
extern const sd_uniform lab01_x;

#endif
