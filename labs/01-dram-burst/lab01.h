/*
 * lab01.h - the launcher contract of lab 01 (DRAM burst).
 *
 * Included by the student's kernel.cu, by the reference solution and by the grader, so a
 * launcher whose prototype drifts fails to compile. Do not edit.
 */
#ifndef CL_LAB01_H
#define CL_LAB01_H

#include <stddef.h>
#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Computes y[i] = a * x[i] for every i < n. x and y are device pointers from cudaMalloc, n is
 * any size (not a multiple of anything). The launcher picks its own grid and block, launches
 * its kernel(s) on the default stream and returns cudaGetLastError(); it must not
 * synchronize, allocate, or copy to or from the host. */
cudaError_t lab01_scale(float a, const float *x, float *y, size_t n);

#ifdef __cplusplus
}
#endif

#endif
