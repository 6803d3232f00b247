/* lab04_data.c - see lab04_data.h. */
#include "lab04_data.h"

#include <stdio.h>
#include <stdlib.h>

#include "seeded.h"

static void describe(const cl_shape *s, char *buf, size_t size)
{
    snprintf(buf, size, "m = %lld, n = %lld, k = %lld", (long long)s->d[0], (long long)s->d[1],
             (long long)s->d[2]);
}

const cl_shapes lab04_shapes = {
    .graded = {{LAB04_M, LAB04_N, LAB04_K}},
    .traced = {{LAB04_TRACE_M, LAB04_TRACE_N, LAB04_TRACE_K}},
    .nchecks = 5,
    .checks = {{{1, 1, 1}}, {{32, 32, 32}}, {{17, 33, 65}}, {{100, 7, 130}}, {{5, 300, 41}}},
    .describe = describe,
};

void lab04_fill(uint64_t seed, float *a, float *b, int m, int n, int k)
{
    /* Both sizes stay far below sd_fill_distinct's limit of 2^23 values. */
    sd_fill_distinct(a, (size_t)m * k, seed, 1);
    sd_fill_distinct(b, (size_t)k * n, seed, 2);
}

int lab04_reference(const float *a, const float *b, float *c, int m, int n, int k)
{
    double *acc = malloc((size_t)n * sizeof *acc);
    if (!acc)
        return -1;
    for (size_t r = 0; r < (size_t)m; ++r) {
        /* Row r of C as a sum of rows of B: the inner loop runs along contiguous memory. */
        for (size_t j = 0; j < (size_t)n; ++j)
            acc[j] = 0.0;
        for (size_t i = 0; i < (size_t)k; ++i) {
            double x = a[r * k + i];
            const float *brow = b + i * n;
            for (size_t j = 0; j < (size_t)n; ++j)
                acc[j] += x * brow[j];
        }
        for (size_t j = 0; j < (size_t)n; ++j)
            c[r * n + j] = (float)acc[j];
    }
    free(acc);
    return 0;
}
