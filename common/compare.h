/*
 * compare.h - tolerant comparison of a computed array against its reference.
 *
 * Pure C, no GPU. An element passes when |got - want| <= abs + rel * |want| (the tolerance is
 * stated, never guessed); NaN or infinity in got never passes unless want is the same
 * infinity. The first few mismatches are kept with their coordinates (row, column for a
 * matrix of `cols` columns, row-major), and all of them are counted.
 */
#ifndef CL_COMPARE_H
#define CL_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CMP_MAX_SHOWN 5

typedef struct cmp_tolerance {
    double abs; /* absolute part */
    double rel; /* relative part, times |want| */
} cmp_tolerance;

typedef struct cmp_mismatch {
    size_t index; /* flat index */
    size_t row;   /* index / cols */
    size_t col;   /* index % cols */
    float got;
    float want;
} cmp_mismatch;

typedef struct cmp_result {
    size_t checked;    /* elements compared */
    size_t mismatches; /* elements that failed */
    size_t shown;      /* entries filled in first[] (<= CMP_MAX_SHOWN) */
    cmp_mismatch first[CMP_MAX_SHOWN];
    double max_abs_err; /* over the finite elements that were compared */
} cmp_result;

/* Compares n = rows * cols floats. Returns the number of mismatches (0 means equal within
 * tol). cols must be >= 1; a 1-D array is rows = n, cols = 1. */
size_t cmp_floats(const float *got, const float *want, size_t rows, size_t cols, cmp_tolerance tol,
                  cmp_result *res);

/* How many of the n floats of x hold exactly the bit pattern bits (e.g. a poison value that
 * marks elements nobody wrote). */
size_t cmp_count_bits(const float *x, size_t n, uint32_t bits);

/* Writes a short human description of res for an array called name, e.g.
 *   "'y': 3 of 1000 elements differ (tolerance 1e-06 + 1e-05 x |want|)"
 *   "  y[0][7]: got 1.5, want 2.5"  (one line per shown mismatch, 2-D form when cols > 1)
 *   "  ... and 1 more"
 * Nothing when there are no mismatches. */
void cmp_describe(FILE *out, const char *name, const cmp_result *res, size_t cols,
                  cmp_tolerance tol);

#ifdef __cplusplus
}
#endif

#endif
