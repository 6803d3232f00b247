/*
 * lab05_run.c - lab 05 in the grading child: set A, B and the matrix to transpose up on the GPU,
 * launch the student's two launchers, save c and t_out. The trace engine gets smaller sizes.
 */
#include <stdlib.h>

#include "cuda_check.h"
#include "lab05.h"
#include "lab05_data.h"
#include "worker.h"

typedef cudaError_t (*matmul_fn)(const float *, const float *, float *, int, int, int);
typedef cudaError_t (*transpose_fn)(const float *, float *, int, int);

typedef struct lab05_state {
    matmul_fn matmul;
    transpose_fn transpose;
    int m, n, k, rows, cols;
    float *a, *b, *c, *t, *t_out;
} lab05_state;

static size_t fl(size_t count)
{
    return count * sizeof(float);
}

static void *lab05_open(const wk_job *job)
{
    lab05_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->m = (int)job->shape.d[0];
    s->n = (int)job->shape.d[1];
    s->k = (int)job->shape.d[2];
    s->rows = (int)job->shape.d[3];
    s->cols = (int)job->shape.d[4];
    size_t na = (size_t)s->k * s->m, nb = (size_t)s->k * s->n, nt = (size_t)s->rows * s->cols;
    float *a = malloc(fl(na)), *b = malloc(fl(nb)), *t = malloc(fl(nt));
    if (!a || !b || !t) {
        free(s);
        free(a);
        free(b);
        free(t);
        return NULL;
    }
    s->matmul = (matmul_fn)wk_symbol(job, "lab05_matmul_at_b");
    s->transpose = (transpose_fn)wk_symbol(job, "lab05_transpose");
    lab05_fill(job->data_seed, a, b, t, s->m, s->n, s->k, s->rows, s->cols);
    s->a = wk_alloc_input("a", fl(na));
    s->b = wk_alloc_input("b", fl(nb));
    s->c = wk_alloc_output(fl((size_t)s->m * s->n));
    s->t = wk_alloc_input("t", fl(nt));
    s->t_out = wk_alloc_output(fl(nt));
    CL_CUDA_CHECK(cudaMemcpy(s->a, a, fl(na), cudaMemcpyHostToDevice));
    CL_CUDA_CHECK(cudaMemcpy(s->b, b, fl(nb), cudaMemcpyHostToDevice));
    CL_CUDA_CHECK(cudaMemcpy(s->t, t, fl(nt), cudaMemcpyHostToDevice));
    free(a);
    free(b);
    free(t);
    return s;
}

static cudaError_t lab05_launch(void *state)
{
    lab05_state *s = state;
    cudaError_t err = s->matmul(s->a, s->b, s->c, s->m, s->n, s->k);
    if (err == cudaSuccess)
        err = s->transpose(s->t, s->t_out, s->rows, s->cols);
    return err;
}

static int lab05_save(void *state, const wk_job *job)
{
    lab05_state *s = state;
    size_t nt = (size_t)s->rows * s->cols;
    int ok = wk_save_device(job, "c", s->c, fl((size_t)s->m * s->n));
    ok &= wk_save_device(job, "t_out", s->t_out, fl(nt));
    return ok && wk_guards_intact(s->a, fl((size_t)s->k * s->m)) &&
           wk_guards_intact(s->b, fl((size_t)s->k * s->n)) && wk_guards_intact(s->t, fl(nt));
}

static double lab05_useful_bytes(const void *state)
{
    const lab05_state *s = state;
    double mm = (double)s->k * s->m + (double)s->k * s->n + (double)s->m * s->n;
    return fl(1) * (mm + 2.0 * s->rows * s->cols);
}

static void lab05_least(const void *state, double *loads, double *stores)
{
    const lab05_state *s = state;
    double t = (double)fl((size_t)s->rows * s->cols); /* the transpose: read once, written once */
    *loads = wk_tiled_loads(s->m, s->n, s->k) + t;
    *stores = (double)fl((size_t)s->m * s->n) + t;
}

static void lab05_close(void *state)
{
    lab05_state *s = state;
    float *all[] = {s->a, s->b, s->c, s->t, s->t_out};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
        wk_free_guarded(all[i]);
    free(s);
}

int lab05_explore(const wk_job *job);

const wk_lab wk_lab05 = {
    .open = lab05_open,
    .launch = lab05_launch,
    .save = lab05_save,
    .useful_bytes = lab05_useful_bytes,
    .least = lab05_least,
    .close = lab05_close,
    .explore = lab05_explore,
    .shapes = &lab05_shapes,
};
