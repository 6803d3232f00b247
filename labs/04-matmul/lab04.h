/*
 * lab04.h - the launcher contract of lab 04 (matrix multiplication).
 *
 * Included by the student's kernel.cu, by the reference solution and by the grader, so a
 * launcher whose prototype drifts fails to compile. Do not edit.
 *
 * C = A B in single precision, every matrix row-major: A is m x k (element (r, i) at
 * a[r * k + i]), B is k x n (element (i, c) at b[i * n + c]), C is m x n (element (r, c) at
 * c[r * n + c]). The sizes are not multiples of any tile width and not equal to one another.
 * All pointers are device pointers from cudaMalloc. The launcher picks its own grid and block,
 * launches on the default stream and returns cudaGetLastError(); it must not synchronize,
 * allocate, or copy to or from the host.
 */
#ifndef CL_LAB04_H
#define CL_LAB04_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* c[r][col] = sum over i < k of a[r][i] * b[i][col], for r < m and col < n. */
cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k);

#ifdef __cplusplus
}
#endif

#endif
