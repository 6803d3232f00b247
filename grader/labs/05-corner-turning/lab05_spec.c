/*
 * lab05_spec.c - how lab 05 (corner turning) is graded.
 *
 * Both launchers, graded together: loads and stores over their kernels. Correctness at full
 * size; coalescing from the trace of a smaller problem (as in lab 04); bank conflicts from the
 * counters at full size, shown and not graded. Thresholds from H200 measurements
 * (tests/gpu/RESULTS.md): the stub's strided tile copy and column writes leave loads and stores
 * near a quarter; the solution's are whole sectors. 90% sits far from both.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "i18n.h"
#include "lab.h"
#include "lab04_data.h"
#include "lab05_data.h"

/* The product c (m x n) followed by the transpose (cols x rows), in one block
 * (lab_reference); NULL also when lab 04's product finds no memory. */
static void *lab05_want(sd_seeds seeds, const cl_shape *shape)
{
    const int m = (int)shape->d[0], n = (int)shape->d[1], k = (int)shape->d[2];
    const int rows = (int)shape->d[3], cols = (int)shape->d[4];
    float *a = malloc((size_t)k * m * sizeof(float)), *at = malloc((size_t)m * k * sizeof(float));
    float *b = malloc((size_t)k * n * sizeof(float)),
          *t = malloc((size_t)rows * cols * sizeof(float));
    float *want = malloc(((size_t)m * n + (size_t)rows * cols) * sizeof(float));
    int ok = a && at && b && t && want;
    if (ok) {
        float *want_c = want, *want_t = want + (size_t)m * n;
        lab05_fill(seeds.data, a, b, t, m, n, k, rows, cols);
        for (size_t i = 0; i < (size_t)k; ++i) /* A^T, for lab 04's product */
            for (size_t r = 0; r < (size_t)m; ++r)
                at[r * k + i] = a[i * m + r];
        for (size_t r = 0; r < (size_t)rows; ++r)
            for (size_t col = 0; col < (size_t)cols; ++col)
                want_t[col * rows + r] = t[r * cols + col];
        ok = lab04_reference(at, b, want_c, m, n, k) == 0;
    }
    free(a);
    free(at);
    free(b);
    free(t);
    if (!ok) {
        free(want);
        want = NULL;
    }
    return want;
}

static int lab05_check(const char *workdir, sd_seeds seeds, const cl_shape *shape, lab_check *out)
{
    const int m = (int)shape->d[0], n = (int)shape->d[1], k = (int)shape->d[2];
    const int rows = (int)shape->d[3], cols = (int)shape->d[4];
    memset(out, 0, sizeof *out);
    float *c = lab_load_output(workdir, "c", (size_t)m * n * sizeof(float), out->details,
                               sizeof out->details);
    float *tt = c ? lab_load_output(workdir, "t_out", (size_t)rows * cols * sizeof(float),
                                    out->details, sizeof out->details)
                  : NULL;
    const float *want = tt ? lab_reference(lab05_want, seeds, shape) : NULL;
    int rc = -1;
    if (want) {
        const float *want_c = want, *want_t = want + (size_t)m * n;
        /* As lab 04: products of magnitude 1 to 4, a wrong term moves a sum by 1 or more. */
        const cmp_tolerance prod_tol = {.abs = 0.0625, .rel = 2e-5};
        const cmp_tolerance exact = {.abs = 0.0, .rel = 0.0};
        FILE *details = fmemopen(out->details, sizeof out->details, "w");
        lab_compare(out, details, "c", c, want_c, m, n, prod_tol);
        lab_compare(out, details, "out", tt, want_t, cols, rows, exact);
        if (details)
            fclose(details);
        out->passed = out->mismatches == 0;
        snprintf(out->summary, sizeof out->summary,
                 _("c = a^T b (a %d x %d, b %d x %d) against a CPU product in double, within "
                   "0.0625 + 2e-05*|want|; the transpose of %d x %d exactly"),
                 k, m, k, n, rows, cols);
        rc = 0;
    } else if (tt) {
        snprintf(out->details, sizeof out->details, "out of host memory for the reference");
    }
    free(c);
    free(tt);
    return rc;
}

const lab_spec lab05_spec = {
    .id = "05",
    .slug = "corner-turning",
    .title = N_("Corner turning"),
    .summary = N_("A^T B and a transpose: read along rows, turn the corner in shared memory"),
    .min_load_eff = 0.90,
    .min_store_eff = 0.90,
    /* The stub and the reference solution on the H200, 2026-12-01 (tests/gpu/RESULTS.md). */
    .measured = {.stub_load = 0.249, .stub_store = 0.222, .solution_load = 1, .solution_store = 1},
    .points_correct = 40,
    .points_load = 30,
    .points_store = 30,
    .size_text = N_("A^T B with A 1320 x 1064 and B 1320 x 1192; transpose of 2008 x 3000"),
    .trace_size_text = N_("the trace ran the same kernels on A 104 x 136, B 104 x 200 and a "
                          "136 x 200 transpose (every warp traced); correctness and time are "
                          "from the full size"),
    .report_bank_conflicts = 1,
    .check = lab05_check,
    .reference = lab05_want,
    .shapes = &lab05_shapes,
    .efficiency_hint = N_("In lab 05 that means: read A along its rows (lane tx takes column "
                          "row0 + tx of row t + ty of A) and store the value transposed in shared "
                          "memory, as[tx][ty]; for the transpose, read a tile of rows into shared "
                          "memory and write rows of the output from the tile's columns."),
    .explore_plot = NULL,
};
