/* lab02_data.c - see lab02_data.h. */
#include "lab02_data.h"

#include "seeded.h"

void lab02_fill_input(uint64_t seed, float *in, size_t count)
{
    sd_fill_uniform(in, count, seed, 1, -1000.0f, 1000.0f);
}
