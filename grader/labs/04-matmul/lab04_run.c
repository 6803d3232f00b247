/*
 * lab04_run.c - lab 04 in the grading child: set the product up on the GPU, launch the
 * student's lab04_matmul, save c; and the grader's naive kernel for the speed gate.
 */
#include <stdlib.h>

#include "cuda_check.h"
#include "lab04.h"
#include "lab04_data.h"
#include "worker.h"

typedef cudaError_t (*matmul_fn)(const float *, const float *, float *, int, int, int);

/* The grader's naive kernel, x on the columns (lab04_explore.cu). */
cudaError_t lab04_naive(int x_on_columns, const float *a, const float *b, float *c, int m, int n,
                        int k);

typedef struct lab04_state {
    matmul_fn matmul;
    int m, n, k;
    float *a, *b, *c;
    float *c_base; /* the baseline's output, never graded */
} lab04_state;

static void *lab04_open(const wk_job *job)
{
    lab04_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->m = (int)job->shape.d[0];
    s->n = (int)job->shape.d[1];
    s->k = (int)job->shape.d[2];
    size_t a_bytes = (size_t)s->m * s->k * sizeof(float);
    size_t b_bytes = (size_t)s->k * s->n * sizeof(float);
    size_t c_bytes = (size_t)s->m * s->n * sizeof(float);
    float *a = malloc(a_bytes), *b = malloc(b_bytes);
    if (!a || !b) {
        free(s);
        free(a);
        free(b);
        return NULL;
    }
    s->matmul = (matmul_fn)wk_symbol(job, "lab04_matmul");
    lab04_fill(job->data_seed, a, b, s->m, s->n, s->k);
    s->a = wk_alloc_input("a", a_bytes);
    s->b = wk_alloc_input("b", b_bytes);
    s->c = wk_alloc_output(c_bytes);
    CL_CUDA_CHECK(cudaMemcpy(s->a, a, a_bytes, cudaMemcpyHostToDevice));
    CL_CUDA_CHECK(cudaMemcpy(s->b, b, b_bytes, cudaMemcpyHostToDevice));
    free(a);
    free(b);
    return s;
}

static cudaError_t lab04_launch(void *state)
{
    lab04_state *s = state;
    return s->matmul(s->a, s->b, s->c, s->m, s->n, s->k);
}

/* The baseline's output is allocated when it first runs, after the student's timed launches:
 * no device memory but the lab's own outlives one of those launches into the next, where a
 * kernel could keep its result and copy it back instead of computing it (the inputs are
 * checked unchanged, the outputs poisoned, the L2's flush buffer written over between them). */
static cudaError_t lab04_baseline(void *state)
{
    lab04_state *s = state;
    cudaError_t err = cudaSuccess;
    if (!s->c_base)
        err = cudaMalloc((void **)&s->c_base, (size_t)s->m * s->n * sizeof(float));
    return err != cudaSuccess ? err : lab04_naive(1, s->a, s->b, s->c_base, s->m, s->n, s->k);
}

static void lab04_reset(void *state)
{
    lab04_state *s = state;
    CL_CUDA_CHECK(wk_fill_poison(s->c, (size_t)s->m * s->n * sizeof(float)));
}

static int lab04_save(void *state, const wk_job *job)
{
    lab04_state *s = state;
    int ok = wk_save_device(job, "c", s->c, (size_t)s->m * s->n * sizeof(float));
    return ok && wk_guards_intact(s->a, (size_t)s->m * s->k * sizeof(float)) &&
           wk_guards_intact(s->b, (size_t)s->k * s->n * sizeof(float));
}

static double lab04_useful_bytes(const void *state)
{
    const lab04_state *s = state;
    /* A and B read once, C written once: what a perfect cache would leave. */
    return ((double)s->m * s->k + (double)s->k * s->n + (double)s->m * s->n) * sizeof(float);
}

static void lab04_least(const void *state, double *loads, double *stores)
{
    const lab04_state *s = state;
    *loads = wk_tiled_loads(s->m, s->n, s->k);
    *stores = (double)s->m * s->n * sizeof(float);
}

static void lab04_close(void *state)
{
    lab04_state *s = state;
    wk_free_guarded(s->a);
    wk_free_guarded(s->b);
    wk_free_guarded(s->c);
    cudaFree(s->c_base);
    free(s);
}

int lab04_explore(const wk_job *job);

const wk_lab wk_lab04 = {
    .open = lab04_open,
    .launch = lab04_launch,
    .save = lab04_save,
    .useful_bytes = lab04_useful_bytes,
    .least = lab04_least,
    .close = lab04_close,
    .explore = lab04_explore,
    .baseline = lab04_baseline,
    .reset = lab04_reset,
    .shapes = &lab04_shapes,
};
