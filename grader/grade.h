/*
 * grade.h - grading one lab, start to end: compile the kernel, run it in a child, check its
 * outputs here, measure its traffic in more children, decide the verdict (decide.h).
 */
#ifndef CL_GRADE_H
#define CL_GRADE_H

#include <stdint.h>
#include <stdio.h>

#include "decide.h"
#include "devinfo.h"
#include "outcome.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gr_config {
    const char *root;   /* project root: labs/, solutions/, handouts/ */
    const char *worker; /* path of grade-worker */
    const char *nvcc;   /* CUDA compiler */
    const char *arch;   /* nvcc -arch, "native" by default */
    const char *kernel; /* grade this file instead of the lab's kernel.cu; NULL for the default */
    int solution;       /* grade solutions/NN-slug/kernel.cu */
    uint64_t seed;
    int counters;           /* run the counters engine */
    int trace;              /* run the trace engine */
    const char *tracer_dir; /* where libcl_tracer.so and cl_trace_patch.fatbin are */
    int timing;             /* run the timing engine */
    double compile_timeout_s, run_timeout_s, trace_timeout_s, counters_timeout_s;
    const char *cwd; /* paths below it are shown relative to it (as typed); NULL: as they are */
    FILE *progress;  /* one line per step, or NULL */
    int confine_recording; /* run the recording in its sandbox (gr_probe says whether it can) */
    /* A folder of compiled kernels, reused when the file, its header, the flags and the toolkit
     * are the same byte for byte; NULL: none. Only where the recording is confined (a student's
     * host code could otherwise write into it). */
    const char *compile_cache;
} gr_config;

/* Asks a child what GPU there is, first inside the recording's sandbox. Returns 0 with *dev
 * filled when one is usable; 1 when there is none or it cannot be used (why says so, for a
 * person); -1 when the worker cannot run. *confined (when not NULL) is 1 when the GPU works
 * inside the sandbox, 0 when this machine has no Landlock or its driver does not start there. */
int gr_probe(const gr_config *cfg, const char *workdir, di_info *dev, int *confined, char *why,
             size_t why_size);

/* Whether the output files (NAME.bin) of dir hold the same bytes as every one of checked's
 * (regular files only, never through a link): a measured replay whose outputs equal those of
 * the run that passed the lab's check passes it too, without the CPU reference again. */
int gr_same_outputs(const char *checked, const char *dir);

/* Removes path and everything below it, never following a link. */
void gr_remove_tree(const char *path);

/* Compiles cfg->kernel for spec in workdir into cfg->compile_cache, and nothing more (no student
 * code runs): a later gr_grade_lab of the same file finds it there. 0 when it compiled. */
int gr_precompile(const gr_config *cfg, const lab_spec *spec, const char *workdir);

/* Grades spec's kernel in workdir (created if missing) and fills *out (free with oc_free). */
void gr_grade_lab(const gr_config *cfg, const lab_spec *spec, const char *workdir, oc_outcome *out);

/* The default kernel file of spec: ROOT/labs/NN-slug/kernel.cu (or solutions/...). */
/* What the compile of a submission may read and write (sandbox.h), for a lab's work folder:
 * the system, the toolkit nvcc belongs to (its folder written into toolkit) and workdir. */
struct sb_policy;
void gr_compile_policy(const gr_config *cfg, const char *workdir, struct sb_policy *p,
                       char toolkit[4096]);
/* What the recording (the student's host code) may write: dir, /dev/shm, the GPU's device
 * files and its own /proc/self (the CUDA driver writes there); it reads what its user may. */
void gr_record_policy(const char *dir, struct sb_policy *p);

void gr_default_kernel(const gr_config *cfg, const lab_spec *spec, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
