/* lab02_data.c - see lab02_data.h. */
#include "lab02_data.h"

#include <stdio.h>

#include "seeded.h"

static void describe(const cl_shape *s, char *buf, size_t size)
{
    snprintf(buf, size, "%lld channels x %lld frames", (long long)s->d[0], (long long)s->d[1]);
}

const cl_shapes lab02_shapes = {
    .graded = {{LAB02_CHANNELS, LAB02_N}},
    .traced = {{LAB02_CHANNELS, LAB02_N}},
    .nchecks = 19,
    .checks = {{{1, 4097}},
               {{2, 4099}},
               {{3, 4101}},
               {{4, 4103}},
               {{5, 4105}},
               {{6, 4107}},
               {{7, 4109}},
               {{8, 4111}},
               {{9, 4113}},
               {{10, 4115}},
               {{11, 4117}},
               {{12, 4119}},
               {{13, 4121}},
               {{14, 4123}},
               {{15, 4125}},
               {{16, 4127}},
               {{6, 1}},
               {{6, 31}},
               {{16, 33}}},
    .describe = describe,
};

const sd_uniform lab02_input = {1, -1000.0f, 1000.0f};

void lab02_fill_input(uint64_t data_seed, float *in, size_t count)
{
    sd_fill_uniform(in, count, data_seed, lab02_input.stream, lab02_input.lo, lab02_input.hi);
}
