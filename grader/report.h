/*
 * report.h - what a person (text) or a program (JSON, through cJSON) reads after a run.
 */
#ifndef CL_REPORT_H
#define CL_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "devinfo.h"
#include "outcome.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Facts about the run, for the manifest. */
typedef struct rp_manifest {
    const char *version;      /* the grader's */
    const char *nvcc_version; /* "13.0" or "" */
    const di_info *device;    /* NULL when no GPU */
    uint64_t seed;
    const char *arch;
} rp_manifest;

/* How many of n outcomes passed, failed, and were not graded. */
typedef struct rp_counts {
    size_t passed, failed, skipped;
} rp_counts;
rp_counts rp_count(const oc_outcome *outcomes, size_t n);

/* The text report of one lab: verdict, correctness, efficiency, bandwidth, hint, score. */
void rp_text_lab(FILE *out, const oc_outcome *o);

/* "PASS", "FAIL" or "NOT GRADED". */
const char *rp_verdict_word(oc_verdict v);

/* The closing line "N passed, N failed" (", N skipped" when some were not graded). */
void rp_text_summary(FILE *out, const oc_outcome *outcomes, size_t n);

/* The whole run as JSON text (malloc'ed; NULL on allocation failure). */
char *rp_json(const rp_manifest *m, const oc_outcome *outcomes, size_t n);

/* The run as Gradescope's results.json: per lab, one test each for correctness, loads and
 * stores with their points, the lab's text report as the output (malloc'ed; NULL on
 * allocation failure). */
char *rp_gradescope(const oc_outcome *outcomes, size_t n);

/* The same for a lab that was not graded (no file for it, a refused file): every part 0 points,
 * reason as each one's output. malloc'ed. */
char *rp_gradescope_ungraded(const lab_spec *spec, const char *reason);
/* The same for the n labs of a run that could grade nothing here (no GPU, no grading child):
 * a results.json that says why, never an empty file. malloc'ed. */
char *rp_gradescope_none(const lab_spec *const *specs, size_t n, const char *reason);
/* GitHub Classroom's runner result of such a run: status error, every part 0 points, reason as
 * each one's message (a runner without a GPU says so, not the reporter's own error). */
char *rp_classroom_none(const lab_spec *const *specs, size_t n, const char *reason);
/* The JSON report of such a run: passed false, reason as its error, no labs. malloc'ed. */
char *rp_json_none(const char *reason);

/* GitHub Classroom's runner result (version 1, as its graders emit and its reporter reads): one
 * test a part of each lab, its points all or none, so that the reporter's sum of scores is the
 * grade's total; status pass, fail, or error where a lab could not be graded. The workflow
 * base64-encodes it into the step's `result` output (tools/classroom/classroom.yml).
 * malloc'ed. */
char *rp_classroom(const oc_outcome *outcomes, size_t n);

/* The run as JUnit XML: one test case per lab, a failure (with the reason) when it failed,
 * skipped when it was not graded, the text report as system-out. */
void rp_junit(FILE *out, const oc_outcome *outcomes, size_t n);

/* grade --bench: every lab's stub and solution, graded in one run (stubs[i], solutions[i]),
 * and how long the stubs, the solutions and the solutions again (compiled before) took. */
typedef struct rp_bench {
    const char *gpu;  /* the device's name */
    const char *date; /* "2026-12-01" */
    uint64_t seed;
    const oc_outcome *stubs, *solutions;
    size_t n;
    double stubs_s, solutions_s, again_s; /* wall seconds of each pass */
    const di_info *dev; /* for the FP32 peak and the balance point; NULL: not shown */
    int no_cache;       /* the third pass compiled again (no cache) */
} rp_bench;

/* The bench as a table for a person (the bandwidth as a share of this GPU's ceiling and peak,
 * the engines' efficiencies, each lab's grading time by step) and, where csv is not NULL, as
 * CSV: one row a lab and kind. */
void rp_bench_table(FILE *out, FILE *csv, const rp_bench *b);

#ifdef __cplusplus
}
#endif

#endif
