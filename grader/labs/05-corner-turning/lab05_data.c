/* lab05_data.c - see lab05_data.h. */
#include "lab05_data.h"

#include <stdio.h>

#include "seeded.h"

static void describe(const cl_shape *s, char *buf, size_t size)
{
    snprintf(buf, size, "m = %lld, n = %lld, k = %lld, a %lld x %lld transpose", (long long)s->d[0],
             (long long)s->d[1], (long long)s->d[2], (long long)s->d[3], (long long)s->d[4]);
}

const cl_shapes lab05_shapes = {
    .graded = {{LAB05_M, LAB05_N, LAB05_K, LAB05_ROWS, LAB05_COLS}},
    .traced = {{LAB05_TRACE_M, LAB05_TRACE_N, LAB05_TRACE_K, LAB05_TRACE_ROWS, LAB05_TRACE_COLS}},
    .nchecks = 5,
    .checks = {{{1, 1, 1, 1, 1}},
               {{32, 32, 32, 32, 32}},
               {{17, 33, 65, 33, 17}},
               {{130, 7, 100, 7, 130}},
               {{64, 64, 64, 31, 97}}},
    .describe = describe,
};

void lab05_fill(uint64_t data_seed, float *a, float *b, float *t, int m, int n, int k, int rows,
                int cols)
{
    sd_fill_distinct(a, (size_t)k * m, data_seed, 1);
    sd_fill_distinct_from(b, (size_t)k * n, data_seed, 2, (size_t)k * m);
    /* The transpose's values are only moved: twice sd_fill_distinct's, exactly, keep them
     * apart from the product's without another range of k (the three would not fit in one). */
    size_t nt = (size_t)rows * cols;
    sd_fill_distinct(t, nt, data_seed, 3);
    for (size_t i = 0; i < nt; ++i)
        t[i] *= 2.0f;
}
