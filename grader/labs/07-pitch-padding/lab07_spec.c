/*
 * lab07_spec.c - how lab 07 (pitch padding) is graded.
 *
 * The child saves the output image as the student laid it out (pitch.bin, out_raw.bin: height
 * rows of pitch bytes); the check reads every row's width pixels at the student's pitch and
 * every byte of padding, which must still hold the poison the child wrote before the launch.
 * Thresholds from H200 measurements (tests/gpu/RESULTS.md): packed rows of 1001 floats give
 * about 82% (5 sectors where 4 would do, in 7 rows of 8); pitched rows 100%. 95% sits between.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "i18n.h"
#include "lab.h"
#include "lab07_data.h"
#include "parallel.h"
#include "salt.h"

/* Reads pitch.bin; 0 when it is missing or impossible (details say why). */
static size_t read_pitch(const char *workdir, int width, lab_check *out)
{
    size_t *p =
        lab_load_output(workdir, "pitch", sizeof(size_t), out->details, sizeof out->details);
    size_t pitch = p ? *p : 0;
    free(p);
    if (p && (pitch < width * sizeof(float) || pitch % sizeof(float) ||
              pitch > lab07_max_pitch(width))) {
        snprintf(out->details, sizeof out->details,
                 "the pitch %zu is impossible for rows of %d floats (%zu bytes)", pitch, width,
                 width * sizeof(float));
        pitch = 0;
    }
    return pitch;
}

typedef struct adjust_job {
    const float *in;
    float *want;
    float gain, bias;
} adjust_job;

static void adjust_pixels(void *ctx, size_t part, size_t begin, size_t end)
{
    (void)part;
    const adjust_job *j = ctx;
    for (size_t i = begin; i < end; ++i)
        j->want[i] = lab07_adjust_pixel(j->in[i], j->gain, j->bias);
}

/* The output image, packed: every input pixel adjusted (lab_reference). */
static void *lab07_reference(sd_seeds seeds, const cl_shape *shape)
{
    const size_t w = (size_t)shape->d[0], h = (size_t)shape->d[1];
    float *in = malloc(w * h * sizeof(float)), *want = malloc(w * h * sizeof(float));
    if (in && want) {
        adjust_job job = {in, want, 0, 0};
        lab07_fill(seeds.data, in, (int)w, (int)h);
        lab07_scalars(seeds.task, &job.gain, &job.bias);
        cl_parallel_for(w * h, (size_t)1 << 18, adjust_pixels, &job);
    } else {
        free(want);
        want = NULL;
    }
    free(in);
    return want;
}

static int lab07_check(const char *workdir, sd_seeds seeds, const cl_shape *shape, lab_check *out)
{
    const size_t w = (size_t)shape->d[0], h = (size_t)shape->d[1];
    memset(out, 0, sizeof *out);
    size_t pitch = read_pitch(workdir, (int)w, out);
    unsigned char *raw =
        pitch ? lab_load_output(workdir, "out_raw", pitch * h, out->details, sizeof out->details)
              : NULL;
    float *got = malloc(w * h * sizeof(float));
    const float *want = raw && got ? lab_reference(lab07_reference, seeds, shape) : NULL;
    const uint32_t poison = seeds.poison ? seeds.poison : lab_poison();
    int rc = -1;
    if (raw && got && want) {
        size_t pad_bytes = 0, pad_rows = 0, first_row = 0, first_byte = 0;
        for (size_t r = 0; r < h; ++r) {
            const unsigned char *row = raw + r * pitch;
            memcpy(got + r * w, row, w * sizeof(float));
            size_t touched = 0;
            for (size_t b = w * sizeof(float); b < pitch; ++b) {
                if (row[b] == sl_poison_byte(poison, b)) /* rows start on whole words */
                    continue;
                if (pad_bytes + touched == 0) { /* the first written padding byte of all */
                    first_row = r;
                    first_byte = b;
                }
                ++touched;
            }
            pad_bytes += touched;
            pad_rows += touched > 0;
        }
        const cmp_tolerance tol = {.abs = 1e-6, .rel = 1e-6};
        FILE *details = fmemopen(out->details, sizeof out->details, "w");
        lab_compare(out, details, "out", got, want, h, w, tol);
        /* Each written padding float counts as a wrong element of the output. */
        out->checked += (pitch - w * sizeof(float)) / sizeof(float) * h;
        out->mismatches += (pad_bytes + 3) / 4;
        if (details) {
            if (pad_bytes)
                fprintf(details,
                        "the kernel wrote into the padding: %zu bytes in %zu rows, the first "
                        "at row %zu, byte %zu of the row (the image ends at byte %zu, the "
                        "pitch is %zu)\n",
                        pad_bytes, pad_rows, first_row, first_byte, w * sizeof(float), pitch);
            fclose(details);
        }
        out->passed = out->mismatches == 0;
        if (pad_bytes)
            snprintf(out->hint, sizeof out->hint,
                     "Only the first width floats of a row are the image; the bytes after them, "
                     "up to the pitch, are padding that nobody may write. Test the column "
                     "against width (c < width), not against the pitch.");
        snprintf(out->summary, sizeof out->summary,
                 _("out = clamp(in * gain + bias), %zu x %zu pixels read at your pitch of %zu "
                   "bytes, within 1e-6 + 1e-6*|want|; the %zu padding bytes of each row untouched"),
                 w, h, pitch, pitch - w * sizeof(float));
        rc = 0;
    }
    free(raw);
    free(got);
    return rc;
}

const lab_spec lab07_spec = {
    .id = "07",
    .slug = "pitch-padding",
    .title = N_("Pitch padding"),
    .summary = N_("rows that start mid-sector: cudaMallocPitch, cudaMemcpy2D, index by the pitch"),
    .min_load_eff = 0.95,
    .min_store_eff = 0.95,
    /* The stub and the reference solution on the H200, 2026-12-01 (tests/gpu/RESULTS.md). */
    .measured = {.stub_load = 0.823, .stub_store = 0.823, .solution_load = 1, .solution_store = 1},
    .points_correct = 40,
    .points_load = 30,
    .points_store = 30,
    .size_text = N_("1001 x 39999 floats (rows of 4004 bytes), 160 MB an image"),
    .trace_size_text = N_("the trace ran the same kernel on the first 3999 rows (the same 8-row "
                          "cycle of row starts); correctness, time and counters are from the full "
                          "size"),
    /* The same 8-row cycle at both sizes: trace and counters within 1% on the H200 (stub 4.79
     * and 4.79, solution 14.1 and 14.0, alternatives 3.94/3.94 and 14.0/14.0); pitched rows
     * traced and packed ones graded would be 4.0 against 4.8, 1.2x. */
    .trace_ratio = 1.08,
    .check = lab07_check,
    .reference = lab07_reference,
    .shapes = &lab07_shapes,
    .student_setup = 1,
    .efficiency_hint = N_("In lab 07 that means: the rows are packed, so most of them start in the "
                          "middle of a sector and each warp's 128 bytes straddle 5 sectors. "
                          "Allocate with cudaMallocPitch (every row then starts on a boundary), "
                          "copy with cudaMemcpy2D, and find row r at (char *)image + r * pitch."),
    .explore_plot = NULL,
};
