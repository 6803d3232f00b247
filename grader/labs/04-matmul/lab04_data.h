/*
 * lab04_data.h - lab 04's problem, shared by the grading child (which runs it) and the grader
 * (which checks it).
 */
#ifndef CL_LAB04_DATA_H
#define CL_LAB04_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "shape.h"

/* C (m x n) = A (m x k) B (k x n). No two sizes equal, none a power of two or a multiple of a
 * 16- or 32-wide tile, so a swapped index or a missing edge test shows; all multiples of 8
 * floats, so every row starts on a 32-byte sector and only the thread mapping decides how many
 * sectors a warp touches. 3.3 GFLOP. */
#define LAB04_M 1320
#define LAB04_N 1192
#define LAB04_K 1064

/* The problem the trace engine runs: the same shape of sizes, 2.9 MFLOP, so that a naive
 * kernel's every load can be traced in well under a second. */
#define LAB04_TRACE_M 136
#define LAB04_TRACE_N 200
#define LAB04_TRACE_K 104

/* The sizes (d[0] = m, d[1] = n, d[2] = k): graded, traced (LAB04_TRACE_*), and checked at
 * one element, one tile exactly, and edges that leave partial tiles in every dimension. */
extern const cl_shapes lab04_shapes;

/* The inputs for a data seed (seeded.h sd_seeds): a (m x k) and b (k x n), row-major, every
 * value distinct in both matrices (no value of a is one of b's), of magnitude in [1, 2) (a
 * missing or extra term changes a sum by at least 1). */
void lab04_fill(uint64_t data_seed, float *a, float *b, int m, int n, int k);

/* c = a b computed in double, each element rounded once to float; -1 when out of memory. */
int lab04_reference(const float *a, const float *b, float *c, int m, int n, int k);

#endif
