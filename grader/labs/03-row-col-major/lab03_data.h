/*
 * lab03_data.h - lab 03's problem, shared by the grading child (which runs it) and the grader
 * (which checks it).
 */
#ifndef CL_LAB03_DATA_H
#define CL_LAB03_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "seeded.h"
#include "shape.h"

/* 6008 x 4104: not square, no power of two, 98.6 MB a matrix; both sizes are multiples of 8
 * floats, so every row (and every column of the column-major copy) starts on a 32-byte sector
 * and only the thread mapping decides how many sectors a warp touches. */
#define LAB03_ROWS 6008
#define LAB03_COLS 4104
/* The trace, which is slower per request by far (the stub's requests, 32 sectors each, took it
 * most of a second at the graded size), follows 1504 rows of as many columns: the same kernels
 * on the same pattern, rows and columns still whole sectors. */
#define LAB03_ROWS_TRACED 1504

/* The sizes (d[0] = rows, d[1] = cols): graded, and checked at one element, one row, one
 * column, and sizes that are multiples of nothing. */
extern const cl_shapes lab03_shapes;

/* The input matrices for a data seed (seeded.h sd_seeds), rows * cols floats each in row-major
 * order: a and b, and a_cm, the matrix the column-major launcher gets (a matrix of its own, so
 * that no two inputs are equal; the child stores it column-major). */
void lab03_fill(uint64_t data_seed, float *a, float *b, float *a_cm, int rows, int cols);
/* alpha, from the task's seed: the same in the recording and the replays. */
float lab03_alpha(uint64_t seed);
/* The values of a, b and a_cm, in row-major order, for the GPU's fill. */
extern const sd_uniform lab03_a, lab03_b, lab03_a_cm;

#endif
