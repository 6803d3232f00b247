/* lab07_data.c - see lab07_data.h. */
#include "lab07_data.h"

#include <math.h>
#include <stdio.h>

#include "seeded.h"

static void describe(const cl_shape *s, char *buf, size_t size)
{
    snprintf(buf, size, "%lld x %lld pixels", (long long)s->d[0], (long long)s->d[1]);
}

const cl_shapes lab07_shapes = {
    .graded = {{LAB07_WIDTH, LAB07_HEIGHT}},
    .traced = {{LAB07_WIDTH, LAB07_HEIGHT_TRACED}},
    .nchecks = 5,
    .checks = {{{1, 1}}, {{1, 200}}, {{33, 5}}, {{517, 63}}, {{2049, 3}}},
    .describe = describe,
};

size_t lab07_max_pitch(int width)
{
    size_t rows64 = (size_t)64 * (size_t)width * sizeof(float);
    return rows64 > 65536 ? rows64 : 65536;
}

void lab07_fill(uint64_t data_seed, float *image, int width, int height)
{
    sd_fill_uniform(image, (size_t)width * height, data_seed, 1, -0.2f, 1.2f);
}

void lab07_scalars(uint64_t seed, float *gain, float *bias)
{
    sd_rng rng;
    sd_init(&rng, seed, 2);
    *gain = sd_next_float(&rng, 0.5f, 2.0f);
    *bias = sd_next_float(&rng, -0.25f, 0.25f);
}

float lab07_adjust_pixel(float in, float gain, float bias)
{
    return fminf(fmaxf(in * gain + bias, 0.0f), 1.0f);
}
