/*
 * lab05_data.h - lab 05's problem, shared by the grading child (which runs it) and the grader
 * (which checks it).
 */
#ifndef CL_LAB05_DATA_H
#define CL_LAB05_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "shape.h"

/* C (m x n) = A^T B with A stored k x m and B k x n. As in lab 04: no size repeated, none a
 * multiple of 16 or 32, all multiples of 8 floats (rows start on sectors). */
#define LAB05_M 1064
#define LAB05_N 1192
#define LAB05_K 1320
/* The transpose: a rows x cols matrix, 24 MB. */
#define LAB05_ROWS 2008
#define LAB05_COLS 3000

/* What the trace engine runs instead (every warp traced in well under a second). */
#define LAB05_TRACE_M 136
#define LAB05_TRACE_N 200
#define LAB05_TRACE_K 104
#define LAB05_TRACE_ROWS 136
#define LAB05_TRACE_COLS 200

/* The sizes (d[0..2] = m, n, k of the product; d[3], d[4] = rows, cols of the transpose):
 * graded, traced (LAB05_TRACE_*), and checked at one element, one tile, and partial tiles. */
extern const cl_shapes lab05_shapes;

/* The inputs for a data seed (seeded.h sd_seeds): a (k x m) and b (k x n) with distinct values
 * of magnitude in [1, 2), none of a's one of b's, and t (rows x cols) with distinct values of
 * magnitude in [2, 4): no value is in two inputs. */
void lab05_fill(uint64_t data_seed, float *a, float *b, float *t, int m, int n, int k, int rows,
                int cols);

#endif
