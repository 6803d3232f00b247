/*
 * ptxscan.h - finds, in the PTX that nvcc made of a submission, the instructions that move
 * memory where no engine of the grader can see it: asynchronous copies (cp.async, its bulk
 * and tensor forms, TMA) and texture and surface access. The trace patches ordinary global
 * loads and stores only, and the counters it is checked against count those alone, so a kernel
 * that used these would be graded on the rest of its traffic. Such a kernel is refused, by name.
 *
 * Pure C: the grader scans the file nvcc kept (--keep), before any student code runs. It
 * decides from the SASS where it can (sassscan.h); this scan is what it falls back on where
 * cuobjdump cannot run.
 */
#ifndef CL_PTXSCAN_H
#define CL_PTXSCAN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Scans ptx (NUL-terminated PTX text; comments are skipped). Returns 0 when it holds none of
 * those instructions; 1 when it does, with why filled: the instruction, its line, and what to
 * use instead, in a sentence that follows "it ...". */
int ps_scan(const char *ptx, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
