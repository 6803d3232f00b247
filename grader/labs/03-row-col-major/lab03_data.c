/* lab03_data.c - see lab03_data.h. */
#include "lab03_data.h"

#include <stdio.h>

#include "seeded.h"

static void describe(const cl_shape *s, char *buf, size_t size)
{
    snprintf(buf, size, "%lld x %lld", (long long)s->d[0], (long long)s->d[1]);
}

const cl_shapes lab03_shapes = {
    .graded = {{LAB03_ROWS, LAB03_COLS}},
    .traced = {{LAB03_ROWS, LAB03_COLS}},
    .nchecks = 6,
    .checks = {{{1, 1}}, {{1, 37}}, {{37, 1}}, {{33, 65}}, {{129, 31}}, {{5, 1027}}},
    .describe = describe,
};

void lab03_fill(uint64_t seed, float *a, float *b, float *alpha, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    sd_fill_uniform(a, n, seed, 1, -1.0f, 1.0f);
    sd_fill_uniform(b, n, seed, 2, -1.0f, 1.0f);
    sd_rng rng;
    sd_init(&rng, seed, 3);
    *alpha = sd_next_float(&rng, 0.5f, 2.5f);
}

void lab03_to_colmajor(const float *a, float *a_cm, int rows, int cols)
{
    for (size_t r = 0; r < (size_t)rows; ++r)
        for (size_t c = 0; c < (size_t)cols; ++c)
            a_cm[c * rows + r] = a[r * cols + c];
}
