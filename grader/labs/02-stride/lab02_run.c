/*
 * lab02_run.c - lab 02 in the grading child: set the problem up on the GPU, launch the
 * student's lab02_deinterleave(), save out.
 */
#include <stdlib.h>

#include "cuda_check.h"
#include "lab02.h"
#include "lab02_data.h"
#include "worker.h"

typedef cudaError_t (*lab02_fn)(const float *, float *, int, size_t);

typedef struct lab02_state {
    lab02_fn deinterleave;
    int channels;
    size_t n, count;
    float *in, *out;
} lab02_state;

static void *lab02_open(const wk_job *job)
{
    lab02_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->deinterleave = (lab02_fn)wk_symbol(job, "lab02_deinterleave");
    s->channels = (int)job->shape.d[0];
    s->n = (size_t)job->shape.d[1];
    s->count = s->n * (size_t)s->channels;
    size_t bytes = s->count * sizeof(float);
    s->in = wk_alloc_input("in", bytes);
    s->out = wk_alloc_output(bytes);
    CL_CUDA_CHECK(wk_fill_uniform(s->in, job->data_seed, &lab02_input, s->count, 1, 1, 1));
    return s;
}

static cudaError_t lab02_launch(void *state)
{
    lab02_state *s = state;
    return s->deinterleave(s->in, s->out, s->channels, s->n);
}

static int lab02_save(void *state, const wk_job *job)
{
    lab02_state *s = state;
    size_t bytes = s->count * sizeof(float);
    int out_ok = wk_save_device(job, "out", s->out, bytes);
    return out_ok && wk_guards_intact(s->in, bytes);
}

static double lab02_useful_bytes(const void *state)
{
    const lab02_state *s = state;
    return 2.0 * (double)s->count * sizeof(float);
}

static void lab02_least(const void *state, double *loads, double *stores)
{
    const lab02_state *s = state;
    *loads = *stores = (double)s->count * sizeof(float); /* every sample read once, written once */
}

static void lab02_close(void *state)
{
    lab02_state *s = state;
    wk_free_guarded(s->in);
    wk_free_guarded(s->out);
    free(s);
}

int lab02_explore(const wk_job *job);

const wk_lab wk_lab02 = {
    .open = lab02_open,
    .launch = lab02_launch,
    .save = lab02_save,
    .useful_bytes = lab02_useful_bytes,
    .least = lab02_least,
    .close = lab02_close,
    .explore = lab02_explore,
    .shapes = &lab02_shapes,
};
