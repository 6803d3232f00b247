/* lab06_data.c - see lab06_data.h. */
#include "lab06_data.h"

#include <stdio.h>

#include "seeded.h"

static void describe(const cl_shape *s, char *buf, size_t size)
{
    snprintf(buf, size, "%lld particles", (long long)s->d[0]);
}

const cl_shapes lab06_shapes = {
    .graded = {{LAB06_N}},
    .traced = {{LAB06_N_TRACED}},
    .nchecks = 5,
    .checks = {{{1}}, {{31}}, {{33}}, {{1000}}, {{65537}}},
    .describe = describe,
};

void lab06_fill(uint64_t seed, float *aos, size_t n)
{
    /* position, velocity, mass, charge */
    static const float lo[LAB06_FIELDS] = {-100, -100, -100, -10, -10, -10, 1, -1};
    static const float hi[LAB06_FIELDS] = {100, 100, 100, 10, 10, 10, 10, 1};
    for (int f = 0; f < LAB06_FIELDS; ++f) /* field f of every particle: stream 1 + f */
        sd_fill_uniform_strided(aos + f, n, LAB06_FIELDS, seed, 1 + (uint64_t)f, lo[f], hi[f]);
}

void lab06_reference(float *aos, size_t n, int steps, float dt, float g)
{
    for (int s = 0; s < steps; ++s)
        for (size_t i = 0; i < n; ++i) {
            float *p = aos + i * LAB06_FIELDS;
            p[5] -= g * dt;
            p[0] += p[3] * dt;
            p[1] += p[4] * dt;
            p[2] += p[5] * dt;
        }
}
