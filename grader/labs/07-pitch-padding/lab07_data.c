/* lab07_data.c - see lab07_data.h. */
#include "lab07_data.h"

#include <math.h>

#include "seeded.h"

void lab07_fill(uint64_t seed, float *image, float *gain, float *bias)
{
    sd_fill_uniform(image, (size_t)LAB07_WIDTH * LAB07_HEIGHT, seed, 1, -0.2f, 1.2f);
    sd_rng rng;
    sd_init(&rng, seed, 2);
    *gain = sd_next_float(&rng, 0.5f, 2.0f);
    *bias = sd_next_float(&rng, -0.25f, 0.25f);
}

float lab07_adjust_pixel(float in, float gain, float bias)
{
    return fminf(fmaxf(in * gain + bias, 0.0f), 1.0f);
}
