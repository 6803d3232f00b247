/*
 * lab.h - what the grader knows about a lab (its spec) and what grading one found (its
 * outcome). Lab NN's spec lives in grader/labs/NN-slug/labNN_spec.c; the table of them,
 * lab_table, is made from the registry grader/labs/labs.def (labs.c).
 */
#ifndef CL_LAB_H
#define CL_LAB_H

#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "seeded.h"
#include "shape.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a lab's correctness check found, written by its spec's check(). */
typedef struct lab_check {
    int passed;
    size_t checked;     /* elements compared */
    size_t mismatches;  /* elements wrong, unwritten ones included */
    size_t unwritten;   /* elements still holding the poison */
    char summary[256];  /* one line: what was compared and against what tolerance */
    char details[2048]; /* the first mismatches with coordinates, or why nothing was compared */
    char hint[512];     /* the lab's own next step for this failure; empty for the generic one */
} lab_check;

/* A lab's CPU reference for (seeds, shape), in one malloc'ed block (the lab's own layout). */
typedef void *(*lab_ref_fn)(sd_seeds seeds, const cl_shape *shape);

typedef struct lab_spec {
    const char *id;                     /* "01" */
    const char *slug;                   /* "dram-burst"; the lab's folder is labs/NN-slug */
    const char *title;                  /* "DRAM burst" */
    const char *summary;                /* one sentence for --list */
    double min_load_eff, min_store_eff; /* graded thresholds, fractions in [0, 1] */
    int points_correct, points_load, points_store;
    const char *size_text; /* the problem size, for the report and the manifest */
    /* Compares the outputs the child saved in workdir, for the problem of that shape, against
     * a CPU reference computed from the same seeds (the task's, for the scalars, and the data
     * seed the child's arrays were filled from: seeded.h sd_seeds). Returns 0 when it could
     * compare (whatever it found), -1 when the outputs are missing or malformed (details says
     * which). */
    int (*check)(const char *workdir, sd_seeds seeds, const cl_shape *shape, lab_check *out);
    /* The sizes it is graded, traced and checked at (labNN_data.c, shared with the child). */
    const cl_shapes *shapes;
    /* The student's own functions set the problem up (lab 07 allocates and uploads): the
     * recorded run's outputs are checked as well as the replay's, since a replay sets the
     * problem up itself. */
    int student_setup;
    /* The lab's own next step when efficiency falls short, after the generic hint. */
    const char *efficiency_hint;
    /* gnuplot commands that draw the explore run's CSV (the data file is '$CSV' in the text,
     * the picture '$SVG'); NULL when the lab has no explore run. */
    const char *explore_plot;
    /* Optional speed gate (points_speed > 0): the student's launch, timed in the same run as a
     * grader-owned baseline kernel (baseline_text says which) on the same inputs, must take at
     * most 1 / min_speedup of the baseline's time. speed_hint is the next step when it does not. */
    int points_speed;
    double min_speedup;
    const char *baseline_text;
    const char *speed_hint;
    double flop; /* the task's floating-point operations, for a rate beside its time; 0: none */
    /* Set when the trace engine runs a smaller problem than the other engines (shapes->traced;
     * a kernel whose every thread loops over a long dimension would take minutes under the
     * tracer): what it runs, for the report. Trace and counters are then compared more loosely
     * (decide.c): they measured problems of different sizes. */
    const char *trace_size_text;
    /* With trace_size_text: how many times the trace's sectors per request the counters may
     * count at the graded size before the engines disagree. 0: 1.5, for products whose partial
     * tiles differ between the sizes (labs 04, 05). A lab whose smaller problem has exactly the
     * graded one's pattern (labs 06, 07) sets it close to 1, so that a layout chosen by the
     * problem's size (coalesced only where the trace looks) shows. */
    double trace_ratio;
    /* Show shared-memory bank conflicts (from the counters, when they can be read); not graded. */
    int report_bank_conflicts;
    /* What the stub and the reference solution measured (efficiencies as graded; speed-ups
     * over the baseline where there is a speed gate): a course's thresholds must lie above the
     * stub's, where it falls short, and at most at the solution's (course.h). */
    struct {
        double stub_load, stub_store, solution_load, solution_store;
        double stub_speedup, solution_speedup;
    } measured;
    /* Gradescope's visibility of each graded part (correctness, loads, stores, speed), as a
     * course file sets it; NULL: the default (visible). */
    const char *visibility[4];
    /* Optional: the CPU reference check() compares with, for seeds and a shape, which
     * check() takes through lab_reference; the grader has the graded problem's made on a
     * thread while the kernel is compiled and recorded. NULL: check() computes its own. */
    lab_ref_fn reference;
} lab_spec;

extern const lab_spec *const lab_table[];
extern const size_t lab_count;

/* Finds a lab by number ("01", "1") or slug ("dram-burst"); NULL when none matches. */
const lab_spec *lab_find(const char *name);

/* The reference make computes for (seeds, shape): made now by this thread, or one made before
 * (waited for while another thread makes it). Kept by the table (a few of them, the oldest
 * made again when asked for after others): valid until the next call from any thread but the
 * one that asked. NULL when out of memory. */
const void *lab_reference(lab_ref_fn make, sd_seeds seeds, const cl_shape *shape);
/* Frees every reference made; none may be in use, or being made. */
void lab_forget_references(void);

/* Reads WORKDIR/NAME.bin into a malloc'ed buffer when its size is exactly bytes; returns NULL
 * (with why filled) otherwise. */
void *lab_load_output(const char *workdir, const char *name, size_t bytes, char *why,
                      size_t why_size);

/* The poison the grading run's children write over outputs and guards (salt.h): what
 * lab_compare counts as never written, and lab 07's padding must still hold. Set once a run,
 * before any check (gr_grade_lab); SL_DEFAULT_POISON until then. */
void lab_set_poison(uint32_t poison);
uint32_t lab_poison(void);

/* Compares one output with its CPU reference (rows x cols floats) and adds what it found to
 * out: elements checked, wrong, and still holding the child's poison (lab_poison). Describes
 * it on details (the first wrong coordinates, the poisoned count) when details is not NULL.
 * out->passed is the caller's to set. */
void lab_compare(lab_check *out, FILE *details, const char *name, const float *got,
                 const float *want, size_t rows, size_t cols, cmp_tolerance tol);

#ifdef __cplusplus
}
#endif

#endif
