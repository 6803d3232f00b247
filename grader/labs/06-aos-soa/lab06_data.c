/* lab06_data.c - see lab06_data.h. */
#include "lab06_data.h"

#include <stdio.h>

#include "parallel.h"
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

/* position, velocity, mass, charge */
const sd_uniform lab06_fields[LAB06_FIELDS] = {
    {1, -100, 100}, {2, -100, 100}, {3, -100, 100}, {4, -10, 10},
    {5, -10, 10},   {6, -10, 10},   {7, 1, 10},     {8, -1, 1},
};

typedef struct fill_job {
    uint64_t seed;
    float *aos;
} fill_job;

/* Particles [begin, end): field f of particle i is value i of field f's stream, so each part starts
 * its eight generators begin values on, and the array is written in one pass. */
static void fill_particles(void *ctx, size_t part, size_t begin, size_t end)
{
    (void)part;
    const fill_job *j = ctx;
    sd_rng rng[LAB06_FIELDS];
    for (int f = 0; f < LAB06_FIELDS; ++f) {
        sd_init(&rng[f], j->seed, lab06_fields[f].stream);
        sd_skip(&rng[f], begin);
    }
    for (size_t i = begin; i < end; ++i)
        for (int f = 0; f < LAB06_FIELDS; ++f)
            j->aos[i * LAB06_FIELDS + f] =
                sd_next_float(&rng[f], lab06_fields[f].lo, lab06_fields[f].hi);
}

void lab06_fill(uint64_t data_seed, float *aos, size_t n)
{
    fill_job j = {data_seed, aos};
    cl_parallel_for(n, (size_t)1 << 16, fill_particles, &j);
}

typedef struct motion_job {
    float *aos;
    int steps;
    float dt, g;
} motion_job;

/* Particles [begin, end), every step of each: a particle's motion needs no other particle, so
 * the order of the loops changes no value. */
static void move_particles(void *ctx, size_t part, size_t begin, size_t end)
{
    (void)part;
    const motion_job *j = ctx;
    for (size_t i = begin; i < end; ++i) {
        float *p = j->aos + i * LAB06_FIELDS;
        for (int s = 0; s < j->steps; ++s) {
            p[5] -= j->g * j->dt;
            p[0] += p[3] * j->dt;
            p[1] += p[4] * j->dt;
            p[2] += p[5] * j->dt;
        }
    }
}

void lab06_reference(float *aos, size_t n, int steps, float dt, float g)
{
    motion_job j = {aos, steps, dt, g};
    cl_parallel_for(n, (size_t)1 << 16, move_particles, &j);
}
