/*
 * lab03.h - the launcher contract of lab 03 (row-major and column-major).
 *
 * Included by the student's kernel.cu, by the reference solution and by the grader, so a
 * launcher whose prototype drifts fails to compile. Do not edit.
 *
 * Matrices are rows x cols floats. Row-major: element (r, c) at a[r * cols + c]. Column-major
 * (Fortran order): element (r, c) at a[c * rows + r]. All pointers are device pointers from
 * cudaMalloc. Each launcher picks its own grid and block, launches on the default stream and
 * returns cudaGetLastError(); it must not synchronize, allocate, or copy to or from the host.
 */
#ifndef CL_LAB03_H
#define CL_LAB03_H

#include <stddef.h>
#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* sums[r] = a[r][0] + a[r][1] + ... + a[r][cols - 1], a row-major. */
cudaError_t lab03_row_sums(const float *a, float *sums, int rows, int cols);

/* c[r][col] = alpha * a[r][col] + b[r][col] for every element, all three row-major. */
cudaError_t lab03_axpby(float alpha, const float *a, const float *b, float *c, int rows, int cols);

/* sums[r] = a[r][0] + ... + a[r][cols - 1], a column-major. */
cudaError_t lab03_row_sums_colmajor(const float *a, float *sums, int rows, int cols);

#ifdef __cplusplus
}
#endif

#endif
