/*
 * lab03_run.c - lab 03 in the grading child: set the problem up on the GPU, launch the
 * student's three launchers, save sums, c and sums_cm.
 */
#include <stdlib.h>

#include "cuda_check.h"
#include "lab03.h"
#include "lab03_data.h"
#include "worker.h"

typedef cudaError_t (*sums_fn)(const float *, float *, int, int);
typedef cudaError_t (*axpby_fn)(float, const float *, const float *, float *, int, int);

typedef struct lab03_state {
    sums_fn row_sums, row_sums_cm;
    axpby_fn axpby;
    float alpha;
    int rows, cols;
    float *a, *b, *c, *a_cm, *sums, *sums_cm;
} lab03_state;

static size_t matrix_bytes(const lab03_state *s)
{
    return (size_t)s->rows * s->cols * sizeof(float);
}

static void *lab03_open(const wk_job *job)
{
    lab03_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->rows = (int)job->shape.d[0];
    s->cols = (int)job->shape.d[1];
    size_t bytes = matrix_bytes(s), rows = (size_t)s->rows, cols = (size_t)s->cols;
    s->row_sums = (sums_fn)wk_symbol(job, "lab03_row_sums");
    s->axpby = (axpby_fn)wk_symbol(job, "lab03_axpby");
    s->row_sums_cm = (sums_fn)wk_symbol(job, "lab03_row_sums_colmajor");
    s->alpha = lab03_alpha(job->seed);
    s->a = wk_alloc_input("a", bytes);
    s->b = wk_alloc_input("b", bytes);
    s->c = wk_alloc_output(bytes);
    s->a_cm = wk_alloc_input("a_cm", bytes);
    s->sums = wk_alloc_output((size_t)s->rows * sizeof(float));
    s->sums_cm = wk_alloc_output((size_t)s->rows * sizeof(float));
    CL_CUDA_CHECK(wk_fill_uniform(s->a, job->data_seed, &lab03_a, rows, cols, cols, 1));
    CL_CUDA_CHECK(wk_fill_uniform(s->b, job->data_seed, &lab03_b, rows, cols, cols, 1));
    /* A matrix of its own, column-major: element (r, c) at c * rows + r. (Not a again: no two
     * inputs are equal, so that a launcher cannot hand one kernel another's input.) */
    CL_CUDA_CHECK(wk_fill_uniform(s->a_cm, job->data_seed, &lab03_a_cm, rows, cols, 1, rows));
    return s;
}

static cudaError_t lab03_launch(void *state)
{
    lab03_state *s = state;
    cudaError_t err = s->row_sums(s->a, s->sums, s->rows, s->cols);
    if (err == cudaSuccess)
        err = s->axpby(s->alpha, s->a, s->b, s->c, s->rows, s->cols);
    if (err == cudaSuccess)
        err = s->row_sums_cm(s->a_cm, s->sums_cm, s->rows, s->cols);
    return err;
}

static int lab03_save(void *state, const wk_job *job)
{
    lab03_state *s = state;
    size_t sums = (size_t)s->rows * sizeof(float), bytes = matrix_bytes(s);
    int ok = wk_save_device(job, "sums", s->sums, sums);
    ok &= wk_save_device(job, "c", s->c, bytes);
    ok &= wk_save_device(job, "sums_cm", s->sums_cm, sums);
    return ok && wk_guards_intact(s->a, bytes) && wk_guards_intact(s->b, bytes) &&
           wk_guards_intact(s->a_cm, bytes);
}

static double lab03_useful_bytes(const void *state)
{
    const lab03_state *s = state;
    double m = (double)matrix_bytes(s), v = (double)s->rows * sizeof(float);
    return (m + v) + 3 * m + (m + v); /* row sums, axpby, column-major row sums */
}

static void lab03_least(const void *state, double *loads, double *stores)
{
    const lab03_state *s = state;
    double m = (double)matrix_bytes(s), v = (double)s->rows * sizeof(float);
    *loads = 4 * m;      /* a for the row sums, a and b for axpby, a_cm for its row sums */
    *stores = m + 2 * v; /* c, and the two vectors of sums */
}

static void lab03_close(void *state)
{
    lab03_state *s = state;
    float *all[] = {s->a, s->b, s->c, s->a_cm, s->sums, s->sums_cm};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        wk_free_guarded(all[i]);
    free(s);
}

int lab03_explore(const wk_job *job);

const wk_lab wk_lab03 = {
    .open = lab03_open,
    .launch = lab03_launch,
    .save = lab03_save,
    .useful_bytes = lab03_useful_bytes,
    .least = lab03_least,
    .close = lab03_close,
    .explore = lab03_explore,
    .shapes = &lab03_shapes,
};
