/*
 * patterns_run.c - the grading child's "patterns" lab: DESIGN's access patterns as one piece
 * of work (patterns.cu), for checking the engines against each other and against Nsight
 * Compute. Needs no student kernel.
 */
#include <stdlib.h>

#include "cuda_check.h"
#include "worker.h"

cudaError_t patterns_launch(const float *in, float *out, size_t n, int w);

enum { PATTERN_N = 1 << 20, PATTERN_W = 512 };

typedef struct patterns_state {
    float *in, *out;
} patterns_state;

static void *patterns_open(const wk_job *job)
{
    (void)job;
    patterns_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    size_t in_bytes = (size_t)(32 * PATTERN_N + 64) * sizeof(float);
    CL_CUDA_CHECK(cudaMalloc((void **)&s->in, in_bytes));
    CL_CUDA_CHECK(cudaMalloc((void **)&s->out, (size_t)2 * PATTERN_N * sizeof(float)));
    CL_CUDA_CHECK(cudaMemset(s->in, 0, in_bytes));
    return s;
}

static cudaError_t patterns_work(void *state)
{
    patterns_state *s = state;
    return patterns_launch(s->in, s->out, PATTERN_N, PATTERN_W);
}

static int patterns_save(void *state, const wk_job *job)
{
    (void)state;
    (void)job;
    return 1;
}

static double patterns_useful_bytes(const void *state)
{
    (void)state;
    return 0.0;
}

static void patterns_close(void *state)
{
    patterns_state *s = state;
    cudaFree(s->in);
    cudaFree(s->out);
    free(s);
}

const wk_lab wk_lab_patterns = {
    .builtin = 1,
    .open = patterns_open,
    .launch = patterns_work,
    .save = patterns_save,
    .useful_bytes = patterns_useful_bytes,
    .close = patterns_close,
};
