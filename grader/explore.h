/*
 * explore.h - 'grade --explore NN': a lab's experiment (grader-owned kernels, no student code)
 * run in a grading child, its CSV kept, and its chart drawn with gnuplot where it is installed.
 */
#ifndef CL_EXPLORE_H
#define CL_EXPLORE_H

#include <stddef.h>

#include "grade.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs spec's explore run in a child in workdir (created if missing) and copies its CSV to
 * csv_out. *table gets what the child printed, its table (malloc'ed: the caller frees it; set
 * also on failure, when it may say why). Returns 0, or -1 with why. */
int gr_explore(const gr_config *cfg, const lab_spec *spec, const char *workdir, const char *csv_out,
               char **table, char *why, size_t why_size);

/* Writes spec's gnuplot script for csv into gp (drawing svg) and, when gnuplot is on PATH,
 * runs it. Returns 0 when svg was drawn, 1 when gnuplot is missing (the script is kept),
 * -1 on error (why says so). */
int gr_explore_plot(const lab_spec *spec, const char *csv, const char *gp, const char *svg,
                    char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
