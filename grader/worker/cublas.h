/*
 * cublas.h - cuBLAS's SGEMM for the explore runs of labs 04 and 05: the matrix products beside a
 * library's, shown and never graded. libcublas is opened at run time (dlopen), so the grader
 * builds and runs where it is not installed; the explore run then says so and shows no row.
 */
#ifndef CL_WORKER_CUBLAS_H
#define CL_WORKER_CUBLAS_H

#include <stddef.h>

#include <cuda_runtime.h>

typedef struct wk_cublas wk_cublas;

/* Opens libcublas and makes a handle: 0 and *h, or -1 and why (*h NULL). */
int wk_cublas_open(wk_cublas **h, char *why, size_t why_size);

/* The library's file name, as opened ("libcublas.so.13"). */
const char *wk_cublas_name(const wk_cublas *h);

/* Row-major C (m x n) = A B, with A m x k (a_transposed 0) or A stored k x m and C = A^T B
 * (a_transposed 1), B k x n; plain FP32 (cuBLAS's default math mode: no TF32), on the default
 * stream. */
cudaError_t wk_cublas_sgemm(wk_cublas *h, int a_transposed, const float *a, const float *b,
                            float *c, int m, int n, int k);

/* The largest |x - y| over the largest |y|, of n device floats: how far cuBLAS's product is from
 * the lab's own (-1 when it cannot be read). */
double wk_relative_difference(const float *x, const float *y, size_t n);

/* The explore table's note under its rows: which library, and its product's difference from
 * the lab's ("its WHAT within 1.2e-07 of the largest value"); or why there is no row. */
void wk_cublas_note(const wk_cublas *h, const char *why, const char *what, double difference);

void wk_cublas_close(wk_cublas *h);

#endif
