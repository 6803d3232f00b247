/*
 * lab02_spec.c - how lab 02 (stride) is graded.
 *
 * Thresholds, measured on an H200 (tests/gpu/RESULTS.md): the stub's loads are 6 floats
 * apart, 24 sectors per request, 16.7%; its stores and the reference solution's loads and
 * stores are 100%. The 85% bar leaves room for a staged kernel whose last partial tile
 * wastes a little, and none for any strided access.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "i18n.h"
#include "lab.h"
#include "lab02_data.h"

static int lab02_check(const char *workdir, sd_seeds seeds, const cl_shape *shape, lab_check *out)
{
    const size_t channels = (size_t)shape->d[0], n = (size_t)shape->d[1], count = n * channels;
    const cmp_tolerance exact = {.abs = 0.0, .rel = 0.0};
    memset(out, 0, sizeof *out);
    float *got =
        lab_load_output(workdir, "out", count * sizeof(float), out->details, sizeof out->details);
    float *in = malloc(count * sizeof(float));
    float *want = malloc(count * sizeof(float));
    if (!got || !in || !want) {
        free(got);
        free(in);
        free(want);
        return -1;
    }
    /* deinterleave_reference: the plain double loop. */
    lab02_fill_input(seeds.data, in, count);
    for (size_t f = 0; f < n; ++f)
        for (size_t c = 0; c < channels; ++c)
            want[c * n + f] = in[f * channels + c];

    FILE *f = fmemopen(out->details, sizeof out->details, "w");
    lab_compare(out, f, "out", got, want, channels, n, exact);
    if (f)
        fclose(f);
    out->passed = out->mismatches == 0;
    snprintf(out->summary, sizeof out->summary,
             _("out[c][f] = in[f][c] for %zu channels x %zu frames against a CPU loop; exact"),
             channels, n);
    free(got);
    free(in);
    free(want);
    return 0;
}

const lab_spec lab02_spec = {
    .id = "02",
    .slug = "stride",
    .title = N_("Stride"),
    .summary = N_("de-interleave channels: coalesced reads and writes"),
    .min_load_eff = 0.85,
    .min_store_eff = 0.85,
    /* The stub and the reference solution on the H200, 2026-12-01 (tests/gpu/RESULTS.md). */
    .measured = {.stub_load = 0.167, .stub_store = 1.0, .solution_load = 1, .solution_store = 1},
    .points_correct = 40,
    .points_load = 30,
    .points_store = 30,
    .size_text = N_("6 channels x 6291552 frames (151 MB in, 151 MB out)"),
    .check = lab02_check,
    .shapes = &lab02_shapes,
    .efficiency_hint = N_("In lab 02 that means: let a block read a run of whole frames "
                          "(consecutive threads, consecutive words) into shared memory, then write "
                          "each channel's part of it as another run."),
    .explore_plot =
        "set datafile separator ','\n"
        "set terminal svg size 820,480 dynamic font 'sans,12'\n"
        "set output '$SVG'\n"
        "set title 'Lab 02: strided reads of 4-byte words'\n"
        "set logscale x 2\n"
        "set xlabel 'stride (words between neighbouring lanes)'\n"
        "set ylabel 'useful bandwidth (GB/s)'\n"
        "set y2label 'efficiency (%)'\n"
        "set ytics nomirror\n"
        "set y2tics\n"
        "set y2range [0:110]\n"
        "set yrange [0:*]\n"
        "set key top right opaque box\n"
        "plot '$CSV' every ::1 using 1:7 with linespoints lw 2 pt 7 title 'useful bandwidth', "
        "\\\n"
        "     '' every ::1 using 1:($3 * 100) axes x1y2 with linespoints dt 2 lw 2 pt 6 "
        "title 'efficiency, model', \\\n"
        "     '' every ::1 using 1:($4 < 0 ? 1/0 : $4 * 100) axes x1y2 with points pt 2 ps 1.5 "
        "title 'efficiency, counters'\n",
};
