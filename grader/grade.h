/*
 * grade.h - grading one lab, start to end: compile the kernel, run it in a child, check its
 * outputs here, measure its traffic in more children, decide the verdict (decide.h).
 */
#ifndef CL_GRADE_H
#define CL_GRADE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

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
    uint64_t seed;      /* the task (--seed): its scalars and its check shapes */
    /* Drawn afresh every run (salt.h, sl_draw_run): the replays' data salt, known to them and
     * to the grader's checks of them only; the recording's, for other arrays of the same
     * shapes; and the poison of every output and guard. */
    uint64_t salt, record_salt;
    uint32_t poison;
    uint32_t record_poison; /* the recording's own (salt.h): never the replays' */
    int counters;           /* run the counters engine */
    int trace;              /* run the trace engine */
    const char *tracer_dir; /* where libcl_tracer.so and cl_trace_patch.fatbin are */
    int timing;             /* run the timing engine */
    double compile_timeout_s, run_timeout_s, trace_timeout_s;
    const char *cwd; /* paths below it are shown relative to it (as typed); NULL: as they are */
    FILE *progress;  /* one line per step, or NULL */
    /* How far the recording is confined (confine.h, gr_confinement; gr_probe says how far it
     * can be): 0 not at all. */
    int confine_recording;
    /* A folder of compiled kernels, reused when the file, its header, the flags and the toolkit
     * are the same byte for byte; NULL: none. Only where the recording is confined (a student's
     * host code could otherwise write into it). */
    const char *compile_cache;
    unsigned compile_cache_keep; /* the most entries it keeps (the newest used); 0: no limit */
    /* This grading run, in words that no other run shares (its work folder): a kernel compiled
     * ahead in the same run is reported as compiled, not as compiled before. */
    const char *run_id;
    /* The GPU lock of labs graded side by side, this process's own (gpulock.h); NULL: the GPU
     * is this grading's alone. */
    struct gl_lock *gpu;
    /* Start the replays of a lab graded alone (no lock) with it, to set themselves up while it
     * is compiled and recorded (ch_start_early); 0: each when its turn comes. */
    int early_replays;
    /* With early_replays, start the recording too, to make its CUDA context meanwhile (it
     * loads the student's code only once the kernel is compiled); 0: in its turn. */
    int early_recording;
    /* Check the graded problem's outputs as soon as the run child has saved them, while it
     * still measures (early_check.h); 0: once it has ended. */
    int early_checks;
    /* The lab's compile, started before the probe into compile_cache (main.c,
     * compile_before_probe): gr_grade_lab waits for it before its compile looks there, and
     * sets it to 0. NULL or 0: none. */
    pid_t *compiling;
    /* Compiles stop once this descriptor is readable (bd_options.stop_fd); NULL: never. */
    const int *compile_stop_fd;
    /* The counting server of gradings side by side (child.h ch_serve, countreq.h): a lab whose
     * counters CUPTI counts by patching instructions sends its count there instead of counting
     * in its run child, and counts in a child of its own where no answer comes. NULL: none. */
    const struct gr_counting *counting;
} gr_config;

typedef struct gr_counting {
    int sock;  /* the gradings' end of the server's socket */
    pid_t pid; /* the server, stopped by a grading whose kernel hangs while it is counted */
} gr_counting;

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

/* Whether file, a path in the device code's line table, is the student's kernel: source (this
 * lab's src/kernel.cu) or another of the grader's copies of it, all named src/kernel.cu, where a
 * compile ahead (gr_compile_ahead) or an earlier run whose device code the cache kept compiled
 * the same text (the cache's key holds the text). */
int gr_names_student_source(const char *file, const char *source);

/* Compiles cfg->kernel for spec in workdir into cfg->compile_cache, and nothing more (no student
 * code runs): a later gr_grade_lab of the same file finds it there. 0 when it compiled. */
int gr_precompile(const gr_config *cfg, const lab_spec *spec, const char *workdir);

/* Starts gr_precompile of kernel for spec in a child process of its own, in the folder dir
 * (made, then removed when it is done); with text, of the size bytes of text, written into dir
 * first. The child is spared from rn_kill_orphans. Returns its pid, to give gr_wait_ahead
 * before the lab is graded; 0 when there is no cache or no child (the lab is then compiled
 * when it is graded). */
pid_t gr_compile_ahead(const gr_config *cfg, const lab_spec *spec, const char *dir,
                       const char *kernel, const char *text, size_t size);
void gr_wait_ahead(pid_t pid);
/* How many compiles may run ahead of the grading: the cores but one, at most 8. */
size_t gr_compiles_ahead(void);

/* Grades spec's kernel in workdir (created if missing) and fills *out (free with oc_free). */
void gr_grade_lab(const gr_config *cfg, const lab_spec *spec, const char *workdir, oc_outcome *out);

/* The default kernel file of spec: ROOT/labs/NN-slug/kernel.cu (or solutions/...). */
/* The cuobjdump beside the nvcc the grader uses (cfg->nvcc, found through PATH when it is a
 * bare name; beside the file its links lead to, when not beside the link), written into path.
 * Returns 0, or -1 with path "" where there is none. */
int gr_cuobjdump(const gr_config *cfg, char path[4096]);

void gr_default_kernel(const gr_config *cfg, const lab_spec *spec, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
