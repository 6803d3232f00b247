/* lab04_data.c - see lab04_data.h. */
#include "lab04_data.h"

#include <stdio.h>
#include <stdlib.h>

#include "parallel.h"
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

void lab04_fill(uint64_t data_seed, float *a, float *b, int m, int n, int k)
{
    /* Both together stay far below sd_fill_distinct's limit of 2^23 values. */
    sd_fill_distinct(a, (size_t)m * k, data_seed, 1);
    sd_fill_distinct_from(b, (size_t)k * n, data_seed, 2, (size_t)m * k);
}

typedef struct product_job {
    const float *a, *b;
    float *c;
    size_t n, k;
    int failed[CL_PARALLEL_THREADS]; /* a part found no memory (each part writes its own) */
} product_job;

/* Rows [begin, end) of C, each as a sum of rows of B: the inner loop runs along contiguous
 * memory. */
static void product_rows(void *ctx, size_t part, size_t begin, size_t end)
{
    product_job *j = ctx;
    const size_t n = j->n, k = j->k;
    double *acc = malloc(n * sizeof *acc);
    if (!acc) {
        j->failed[part] = 1;
        return;
    }
    for (size_t r = begin; r < end; ++r) {
        for (size_t col = 0; col < n; ++col)
            acc[col] = 0.0;
        for (size_t i = 0; i < k; ++i) {
            double x = j->a[r * k + i];
            const float *brow = j->b + i * n;
            for (size_t col = 0; col < n; ++col)
                acc[col] += x * brow[col];
        }
        for (size_t col = 0; col < n; ++col)
            j->c[r * n + col] = (float)acc[col];
    }
    free(acc);
}

int lab04_reference(const float *a, const float *b, float *c, int m, int n, int k)
{
    product_job j = {a, b, c, (size_t)n, (size_t)k, {0}};
    size_t parts =
        cl_parallel_for((size_t)m, 16, product_rows, &j); /* rows apart: the same bytes */
    for (size_t p = 0; p < parts; ++p)
        if (j.failed[p])
            return -1;
    return 0;
}
