/* lab01_data.c - see lab01_data.h. */
#include "lab01_data.h"

#include <stdio.h>

#include "seeded.h"

static void describe(const cl_shape *s, char *buf, size_t size)
{
    snprintf(buf, size, "n = %lld", (long long)s->d[0]);
}

const cl_shapes lab01_shapes = {
    .graded = {{LAB01_N}},
    .traced = {{LAB01_N}},
    .nchecks = 5,
    .checks = {{{1}}, {{31}}, {{33}}, {{4097}}, {{1000003}}},
    .describe = describe,
};

enum { STREAM_FACTOR = 1 };

const sd_uniform lab01_x = {2, -8.0f, 8.0f};

float lab01_factor(uint64_t seed)
{
    sd_rng rng;
    sd_init(&rng, seed, STREAM_FACTOR);
    return sd_next_float(&rng, 1.5f, 3.5f);
}

void lab01_fill_x(uint64_t data_seed, float *x, size_t n)
{
    sd_fill_uniform(x, n, data_seed, lab01_x.stream, lab01_x.lo, lab01_x.hi);
}
