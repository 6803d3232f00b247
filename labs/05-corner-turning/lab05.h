/*
 * lab05.h - the launcher contract of lab 05 (corner turning).
 *
 * Included by the student's kernel.cu, by the reference solution and by the grader, so a
 * launcher whose prototype drifts fails to compile. Do not edit.
 *
 * Every matrix is row-major. All pointers are device pointers from cudaMalloc. Each launcher
 * picks its own grid and block, launches on the default stream and returns cudaGetLastError();
 * it must not synchronize, allocate, or copy to or from the host. Sizes are not multiples of
 * any tile width, and the grader's trace runs both on smaller sizes than the check.
 */
#ifndef CL_LAB05_H
#define CL_LAB05_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* C = A^T B. a is k x m (element (i, r) at a[i * m + r]), so A^T is m x k and its element
 * (r, i) sits at a[i * m + r]; b is k x n; c is m x n:
 *     c[r * n + col] = sum over i < k of a[i * m + r] * b[i * n + col]. */
cudaError_t lab05_matmul_at_b(const float *a, const float *b, float *c, int m, int n, int k);

/* out = in^T: in is rows x cols, out is cols x rows: out[col * rows + r] = in[r * cols + col]. */
cudaError_t lab05_transpose(const float *in, float *out, int rows, int cols);

#ifdef __cplusplus
}
#endif

#endif
