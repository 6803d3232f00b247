/*
 * lab04_spec.c - how lab 04 (matrix multiplication) is graded.
 *
 * Correctness on a 1320 x 1064 by 1064 x 1192 product; coalescing from the trace of a
 * 136 x 104 by 104 x 200 product (the same kernel, a problem small enough to trace every load
 * of a naive kernel); speed against the grader's own naive kernel with the right mapping, timed
 * in the same run. Thresholds from H200 measurements (tests/gpu/RESULTS.md): see the numbers
 * beside each.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "i18n.h"
#include "lab.h"
#include "lab04_data.h"

/* The product c = a b, m x n (lab_reference); NULL also when the product finds no memory. */
static void *lab04_want(sd_seeds seeds, const cl_shape *shape)
{
    const int m = (int)shape->d[0], n = (int)shape->d[1], k = (int)shape->d[2];
    float *a = malloc((size_t)m * k * sizeof(float)), *b = malloc((size_t)k * n * sizeof(float));
    float *want = malloc((size_t)m * n * sizeof(float));
    int ok = a && b && want;
    if (ok) {
        lab04_fill(seeds.data, a, b, m, n, k);
        ok = lab04_reference(a, b, want, m, n, k) == 0;
    }
    free(a);
    free(b);
    if (!ok) {
        free(want);
        want = NULL;
    }
    return want;
}

static int lab04_check(const char *workdir, sd_seeds seeds, const cl_shape *shape, lab_check *out)
{
    const int m = (int)shape->d[0], n = (int)shape->d[1], k = (int)shape->d[2];
    memset(out, 0, sizeof *out);
    float *c = lab_load_output(workdir, "c", (size_t)m * n * sizeof(float), out->details,
                               sizeof out->details);
    const float *want = c ? lab_reference(lab04_want, seeds, shape) : NULL;
    int rc = -1;
    if (want) {
        /* Every product has a magnitude in [1, 4), so a missing, extra or wrong term moves a
         * sum by 1 or more; float rounding over k terms stays below a few hundredths. */
        const cmp_tolerance tol = {.abs = 0.0625, .rel = 2e-5};
        FILE *details = fmemopen(out->details, sizeof out->details, "w");
        lab_compare(out, details, "c", c, want, m, n, tol);
        if (details)
            fclose(details);
        out->passed = out->mismatches == 0;
        snprintf(out->summary, sizeof out->summary,
                 _("c = a b, %d x %d times %d x %d, against a CPU product in double; within "
                   "%.4f + %.0e*|want|"),
                 m, k, k, n, tol.abs, tol.rel);
        rc = 0;
    } else if (c) {
        snprintf(out->details, sizeof out->details, "out of host memory for the reference");
    }
    free(c);
    return rc;
}

const lab_spec lab04_spec = {
    .id = "04",
    .slug = "matmul",
    .title = N_("Matrix multiplication"),
    .summary =
        N_("C = A B: x on the columns, then tiles in shared memory that beat the naive kernel"),
    .min_load_eff = 0.90,
    .min_store_eff = 0.90,
    /* The stub and the reference solution on the H200, 2026-12-01 (tests/gpu/RESULTS.md); for
     * the speed gate, the kernel it must fail is the coalesced naive one (1.00x, the stub 0.19x).
     */
    .measured = {.stub_load = 0.156,
                 .stub_store = 0.125,
                 .solution_load = 1,
                 .solution_store = 1,
                 .stub_speedup = 1.00,
                 .solution_speedup = 1.21},
    .points_correct = 40,
    .points_load = 20,
    .points_store = 10,
    .points_speed = 30,
    .min_speedup = 1.10,
    .baseline_text = N_("the naive kernel with x on the columns"),
    .size_text = N_("1320 x 1064 times 1064 x 1192 floats (3.3 GFLOP)"),
    .trace_size_text = N_("the trace ran the same kernel on 136 x 104 times 104 x 200 (every "
                          "warp traced); correctness and time are from the full size"),
    .check = lab04_check,
    .reference = lab04_want,
    .shapes = &lab04_shapes,
    .efficiency_hint = N_("In lab 04 that means: C is row-major, so give threadIdx.x the column "
                          "(col = blockIdx.x * blockDim.x + threadIdx.x): then B's and C's "
                          "accesses run along a row, and A's element is the same for the whole "
                          "warp (a broadcast). When you load tiles, give threadIdx.x the column "
                          "inside each tile too."),
    .flop = 2.0 * LAB04_M * LAB04_N * LAB04_K,
    .speed_hint = N_("Coalesced is the first half. Now cut the loads: let a block copy a tile of A "
                     "and a tile of B into __shared__ memory once, __syncthreads(), and have "
                     "every thread read its pairs from there (handouts/04-matmul.md, 'Tiles')."),
    .explore_plot = NULL,
};
