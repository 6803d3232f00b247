/*
 * lab01_run.c - lab 01 in the grading child: set the problem up on the GPU, launch the
 * student's lab01_scale(), save y.
 */
#include <stdlib.h>

#include "cuda_check.h"
#include "lab01.h"
#include "lab01_data.h"
#include "worker.h"

typedef cudaError_t (*lab01_fn)(float, const float *, float *, size_t);

typedef struct lab01_state {
    lab01_fn scale;
    float a;
    size_t n;
    float *x;
    float *y;
} lab01_state;

static void *lab01_open(const wk_job *job)
{
    lab01_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->scale = (lab01_fn)wk_symbol(job, "lab01_scale");
    s->n = (size_t)job->shape.d[0];
    s->a = lab01_factor(job->seed);
    size_t bytes = s->n * sizeof(float);
    s->x = wk_alloc_input("x", bytes);
    s->y = wk_alloc_output(bytes);
    CL_CUDA_CHECK(wk_fill_uniform(s->x, job->data_seed, &lab01_x, s->n, 1, 1, 1));
    return s;
}

static cudaError_t lab01_launch(void *state)
{
    lab01_state *s = state;
    return s->scale(s->a, s->x, s->y, s->n);
}

static int lab01_save(void *state, const wk_job *job)
{
    lab01_state *s = state;
    size_t bytes = s->n * sizeof(float);
    int y_ok = wk_save_device(job, "y", s->y, bytes);
    return y_ok && wk_guards_intact(s->x, bytes);
}

static double lab01_useful_bytes(const void *state)
{
    const lab01_state *s = state;
    return 2.0 * (double)s->n * sizeof(float);
}

static void lab01_least(const void *state, double *loads, double *stores)
{
    const lab01_state *s = state;
    *loads = *stores = (double)s->n * sizeof(float); /* x read once, y written once */
}

static void lab01_close(void *state)
{
    lab01_state *s = state;
    wk_free_guarded(s->x);
    wk_free_guarded(s->y);
    free(s);
}

int lab01_explore(const wk_job *job);

const wk_lab wk_lab01 = {
    .open = lab01_open,
    .launch = lab01_launch,
    .save = lab01_save,
    .useful_bytes = lab01_useful_bytes,
    .least = lab01_least,
    .close = lab01_close,
    .explore = lab01_explore,
    .shapes = &lab01_shapes,
};
