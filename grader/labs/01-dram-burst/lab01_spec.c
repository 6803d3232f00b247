#define _POSIX_C_SOURCE 200809L
/*
 * lab01_spec.c - how lab 01 (DRAM burst) is graded.
 *
 * Thresholds, measured on an H200 with the counters engine (tests/gpu/run-all.sh): the stub
 * moves 12.5% useful bytes per sector for loads and stores, the reference solution 100%. The
 * 90% bar sits far from both: a kernel with one misaligned request in four still passes, any
 * stride-2 access fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "i18n.h"
#include "lab.h"
#include "lab01_data.h"

static int lab01_check(const char *workdir, sd_seeds seeds, const cl_shape *shape, lab_check *out)
{
    const size_t n = (size_t)shape->d[0];
    const cmp_tolerance tol = {.abs = 1e-6, .rel = 1e-6};
    memset(out, 0, sizeof *out);
    float *y = lab_load_output(workdir, "y", n * sizeof(float), out->details, sizeof out->details);
    float *want = malloc(n * sizeof(float));
    if (!y || !want) {
        free(y);
        free(want);
        return -1;
    }
    /* y_reference: the plain loop, on the same seeded inputs the child used. */
    lab01_fill_x(seeds.data, want, n);
    const float a = lab01_factor(seeds.task);
    for (size_t i = 0; i < n; ++i)
        want[i] = a * want[i];

    FILE *f = fmemopen(out->details, sizeof out->details, "w");
    lab_compare(out, f, "y", y, want, n, 1, tol);
    if (f)
        fclose(f);
    out->passed = out->mismatches == 0;
    snprintf(out->summary, sizeof out->summary,
             _("y = a*x for %zu floats against a CPU loop; tolerance |got-want| <= %g + %g*|want|"),
             n, tol.abs, tol.rel);
    free(y);
    free(want);
    return 0;
}

const lab_spec lab01_spec = {
    .id = "01",
    .slug = "dram-burst",
    .title = N_("DRAM burst"),
    .summary = N_("y = a*x: make consecutive threads touch consecutive words"),
    .min_load_eff = 0.90,
    .min_store_eff = 0.90,
    /* The stub and the reference solution on the H200, 2026-12-01 (tests/gpu/RESULTS.md). */
    .measured = {.stub_load = 0.125, .stub_store = 0.125, .solution_load = 1, .solution_store = 1},
    .points_correct = 40,
    .points_load = 30,
    .points_store = 30,
    .size_text = N_("n = 50331655 floats (201 MB per array)"),
    .check = lab01_check,
    .shapes = &lab01_shapes,
    .efficiency_hint =
        N_("In lab 01 that means: thread t takes element t, then t + (all threads in "
           "the grid), and so on (a grid-stride loop), instead of a chunk of its own."),
    .explore_plot =
        "set datafile separator ','\n"
        "set terminal svg size 820,480 dynamic font 'sans,12'\n"
        "set output '$SVG'\n"
        "set title 'Lab 01: read bandwidth against contiguous bytes per run'\n"
        "set logscale x 2\n"
        "set xlabel 'contiguous bytes per run (a warp request reads 32 lanes x elem bytes)'\n"
        "set ylabel 'useful read bandwidth (GB/s)'\n"
        "set y2label 'sector efficiency, model (%)'\n"
        "set ytics nomirror\n"
        "set y2tics\n"
        "set y2range [0:110]\n"
        "set yrange [0:*]\n"
        "set key bottom right opaque box\n"
        "plot '$CSV' every ::1::8 using 1:8 with linespoints lw 2 pt 7 "
        "title 'runs with unread gaps between them', \\\n"
        "     '' every ::9 using 1:8 with points pt 5 ps 1.6 "
        "title 'dense (no gaps)', \\\n"
        "     '' every ::1::8 using 1:($5 * 100) axes x1y2 with linespoints dt 2 lw 2 pt 6 "
        "title 'sector efficiency (model)'\n",
};
