/*
 * lab03_spec.c - how lab 03 (row-major and column-major) is graded.
 *
 * Three launchers, graded together: loads and stores over all their kernels. Thresholds,
 * measured on an H200 (tests/gpu/RESULTS.md): every kernel of the stub has lanes a row or a
 * column apart, 32 sectors per request; the reference solution reads and writes whole sectors.
 * 90% sits far from both.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "i18n.h"
#include "lab.h"
#include "lab03_data.h"

static int lab03_check(const char *workdir, sd_seeds seeds, const cl_shape *shape, lab_check *out)
{
    const size_t rows = (size_t)shape->d[0], cols = (size_t)shape->d[1], n = rows * cols;
    memset(out, 0, sizeof *out);
    float *sums =
        lab_load_output(workdir, "sums", rows * sizeof(float), out->details, sizeof out->details);
    float *c =
        sums ? lab_load_output(workdir, "c", n * sizeof(float), out->details, sizeof out->details)
             : NULL;
    float *sums_cm = c ? lab_load_output(workdir, "sums_cm", rows * sizeof(float), out->details,
                                         sizeof out->details)
                       : NULL;
    float *a = malloc(n * sizeof(float)), *b = malloc(n * sizeof(float));
    float *a_cm = malloc(n * sizeof(float));
    float *want_sums = malloc(2 * rows * sizeof(float)), *want_sums_cm = want_sums + rows;
    int rc = -1;
    if (sums && c && sums_cm && a && b && a_cm && want_sums) {
        const float alpha = lab03_alpha(seeds.task);
        lab03_fill(seeds.data, a, b, a_cm, (int)rows, (int)cols);
        /* row_sums_reference, of a and of the column-major launcher's own matrix: in double,
         * then rounded once. */
        for (size_t r = 0; r < rows; ++r) {
            double s = 0.0, s_cm = 0.0;
            for (size_t k = 0; k < cols; ++k) {
                s += a[r * cols + k];
                s_cm += a_cm[r * cols + k];
            }
            want_sums[r] = (float)s;
            want_sums_cm[r] = (float)s_cm;
        }
        /* axpby_reference, written over b. */
        for (size_t i = 0; i < n; ++i)
            b[i] = alpha * a[i] + b[i];
        /* A float sum of cols terms in [-1, 1] may differ from the double one by a few
         * thousandths in the worst case; any indexing mistake differs by far more. */
        const cmp_tolerance sum_tol = {.abs = cols / 1048576.0, .rel = 1e-5};
        const cmp_tolerance elem_tol = {.abs = 1e-6, .rel = 1e-6};
        FILE *details = fmemopen(out->details, sizeof out->details, "w");
        lab_compare(out, details, "sums", sums, want_sums, rows, 1, sum_tol);
        lab_compare(out, details, "c", c, b, rows, cols, elem_tol);
        lab_compare(out, details, "sums_cm", sums_cm, want_sums_cm, rows, 1, sum_tol);
        if (details)
            fclose(details);
        out->passed = out->mismatches == 0;
        snprintf(out->summary, sizeof out->summary,
                 _("row sums (row- and column-major) and c = alpha*a + b, %zu x %zu, against CPU "
                   "loops; sums within %.4f + 1e-5*|want|, c within 1e-6 + 1e-6*|want|"),
                 rows, cols, sum_tol.abs);
        rc = 0;
    }
    free(sums);
    free(c);
    free(sums_cm);
    free(a);
    free(b);
    free(a_cm);
    free(want_sums);
    return rc;
}

const lab_spec lab03_spec = {
    .id = "03",
    .slug = "row-col-major",
    .title = N_("Row-major and column-major"),
    .summary = N_("row sums and element-wise ops: map lanes along the contiguous dimension"),
    .min_load_eff = 0.90,
    .min_store_eff = 0.90,
    /* The stub and the reference solution on the H200, 2026-12-01 (tests/gpu/RESULTS.md). */
    .measured = {.stub_load = 0.106, .stub_store = 0.125, .solution_load = 1, .solution_store = 1},
    .points_correct = 40,
    .points_load = 30,
    .points_store = 30,
    .size_text = N_("6008 x 4104 floats (98.6 MB a matrix), row- and column-major"),
    .check = lab03_check,
    .shapes = &lab03_shapes,
    .efficiency_hint = N_("In lab 03 that means: in a row-major matrix a row is contiguous, so "
                          "give threadIdx.x the column (a warp per row for the sums); in a "
                          "column-major matrix a column is contiguous, so give it the row."),
    .explore_plot = NULL,
};
