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
    float *a, *b, *c, *a_cm, *sums, *sums_cm;
} lab03_state;

static size_t matrix_bytes(void)
{
    return (size_t)LAB03_ROWS * LAB03_COLS * sizeof(float);
}

static void *lab03_open(const wk_job *job)
{
    lab03_state *s = calloc(1, sizeof *s);
    float *a = malloc(matrix_bytes()), *b = malloc(matrix_bytes()), *a_cm = malloc(matrix_bytes());
    if (!s || !a || !b || !a_cm) {
        free(s);
        free(a);
        free(b);
        free(a_cm);
        return NULL;
    }
    s->row_sums = (sums_fn)wk_symbol(job, "lab03_row_sums");
    s->axpby = (axpby_fn)wk_symbol(job, "lab03_axpby");
    s->row_sums_cm = (sums_fn)wk_symbol(job, "lab03_row_sums_colmajor");
    lab03_fill(job->seed, a, b, &s->alpha);
    lab03_to_colmajor(a, a_cm, LAB03_ROWS, LAB03_COLS);
    s->a = wk_alloc_guarded(matrix_bytes());
    s->b = wk_alloc_guarded(matrix_bytes());
    s->c = wk_alloc_guarded(matrix_bytes());
    s->a_cm = wk_alloc_guarded(matrix_bytes());
    s->sums = wk_alloc_guarded(LAB03_ROWS * sizeof(float));
    s->sums_cm = wk_alloc_guarded(LAB03_ROWS * sizeof(float));
    CL_CUDA_CHECK(cudaMemcpy(s->a, a, matrix_bytes(), cudaMemcpyHostToDevice));
    CL_CUDA_CHECK(cudaMemcpy(s->b, b, matrix_bytes(), cudaMemcpyHostToDevice));
    CL_CUDA_CHECK(cudaMemcpy(s->a_cm, a_cm, matrix_bytes(), cudaMemcpyHostToDevice));
    free(a);
    free(b);
    free(a_cm);
    return s;
}

static cudaError_t lab03_launch(void *state)
{
    lab03_state *s = state;
    cudaError_t err = s->row_sums(s->a, s->sums, LAB03_ROWS, LAB03_COLS);
    if (err == cudaSuccess)
        err = s->axpby(s->alpha, s->a, s->b, s->c, LAB03_ROWS, LAB03_COLS);
    if (err == cudaSuccess)
        err = s->row_sums_cm(s->a_cm, s->sums_cm, LAB03_ROWS, LAB03_COLS);
    return err;
}

static int lab03_save(void *state, const wk_job *job)
{
    lab03_state *s = state;
    size_t sums = LAB03_ROWS * sizeof(float);
    int ok = wk_save_device(job, "sums", s->sums, sums);
    ok &= wk_save_device(job, "c", s->c, matrix_bytes());
    ok &= wk_save_device(job, "sums_cm", s->sums_cm, sums);
    return ok && wk_guards_intact(s->a, matrix_bytes()) && wk_guards_intact(s->b, matrix_bytes()) &&
           wk_guards_intact(s->a_cm, matrix_bytes());
}

static double lab03_useful_bytes(const void *state)
{
    (void)state;
    double m = (double)matrix_bytes(), v = LAB03_ROWS * sizeof(float);
    return (m + v) + 3 * m + (m + v); /* row sums, axpby, column-major row sums */
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
    .close = lab03_close,
    .explore = lab03_explore,
};
