/*
 * course.h - a course file: which labs a course grades and how, over the labs' own settings.
 * YAML (read with libyaml, so every error names its line and column; JSON is YAML too):
 *
 *     course: GPU programming, fall 2026   # a name for the reports
 *     timeout: 60                          # seconds each run of a kernel may take
 *     labs:                                # the course's labs, in order; each may override:
 *       "01":
 *         points: {correctness: 40, loads: 30, stores: 30}
 *         thresholds: {loads: 0.9, stores: 0.9}
 *         visibility: {loads: after_due_date}   # Gradescope's, per part
 *       "04":
 *         points: {speed: 30}
 *         min_speedup: 1.1
 *
 * A threshold at or below what the lab's stub measured (where the stub falls short) or above
 * what its reference solution measured is refused with both numbers (lab_spec.measured): the
 * stub would pass, or no correct solution could.
 */
#ifndef CL_COURSE_H
#define CL_COURSE_H

#include <stdio.h>

#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CO_MAX_LABS 16
#define CO_MAX_FILE_BYTES ((long long)1 << 20) /* a course file larger is refused */
#define CO_PARTS 4                             /* correctness, loads, stores, speed */

typedef struct co_course {
    char name[256];
    double timeout_s; /* 0: the grader's default */
    size_t nlabs;
    lab_spec labs[CO_MAX_LABS]; /* the labs' specs with the course's settings (visibility too) */
    unsigned set[CO_MAX_LABS];  /* which settings the course gave (CO_SET_*) */
} co_course;

enum {
    CO_SET_POINTS = 1 << 0,
    CO_SET_THRESHOLDS = 1 << 1,
    CO_SET_SPEEDUP = 1 << 2,
    CO_SET_VISIBILITY = 1 << 3
};

/* Reads the course file at path into *c. Returns 0, or -1 with why: "FILE:LINE:COLUMN: what"
 * for a malformed file, an unknown key or a value out of range. */
int co_load(const char *path, co_course *c, char *why, size_t why_size);

/* Prints the effective settings of every lab of c, and where each came from. */
void co_print(FILE *out, const co_course *c);

#ifdef __cplusplus
}
#endif

#endif
