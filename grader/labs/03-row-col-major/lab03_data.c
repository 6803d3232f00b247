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
    .traced = {{LAB03_ROWS_TRACED, LAB03_COLS}},
    .nchecks = 6,
    .checks = {{{1, 1}}, {{1, 37}}, {{37, 1}}, {{33, 65}}, {{129, 31}}, {{5, 1027}}},
    .describe = describe,
};

const sd_uniform lab03_a = {1, -1.0f, 1.0f}, lab03_b = {2, -1.0f, 1.0f},
                 lab03_a_cm = {4, -1.0f, 1.0f};

float lab03_alpha(uint64_t seed)
{
    sd_rng rng;
    sd_init(&rng, seed, 3);
    return sd_next_float(&rng, 0.5f, 2.5f);
}

void lab03_fill(uint64_t data_seed, float *a, float *b, float *a_cm, int rows, int cols)
{
    size_t n = (size_t)rows * cols;
    sd_fill_uniform(a, n, data_seed, lab03_a.stream, lab03_a.lo, lab03_a.hi);
    sd_fill_uniform(b, n, data_seed, lab03_b.stream, lab03_b.lo, lab03_b.hi);
    sd_fill_uniform(a_cm, n, data_seed, lab03_a_cm.stream, lab03_a_cm.lo, lab03_a_cm.hi);
}
