/*
 * build.h - compiles a lab's kernel.cu into a shared object with nvcc, in a child process.
 */
#ifndef CL_BUILD_H
#define CL_BUILD_H

#include "runner.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bd_options {
    const char *nvcc;        /* the compiler to run */
    const char *arch;        /* nvcc -arch value, e.g. "native" or "sm_90" */
    const char *include_dir; /* the lab's folder, for its launcher header */
    const char *keep_dir;    /* keep nvcc's intermediate files there (the device code's fatbin
                                among them); NULL: keep none */
    const char *workdir;     /* nvcc runs there; NULL: the current folder */
    double timeout_s;
    const struct sb_policy *sandbox; /* confines nvcc (sandbox.h); NULL: unconfined */
    const char **env;                /* "NAME=value" entries for nvcc's environment, or NULL */
    const int *stop_fd; /* once readable (a byte, or its writer closed), nvcc is stopped and the
                           compile fails (runner.h); NULL: none */
} bd_options;

/* Compiles source into output (a .so) with -lineinfo and the shared CUDA runtime. Returns 0
 * when it compiled, 1 when the compiler rejected it or could not run (res says how), -1 on bad
 * arguments. res->output holds the compiler's messages; free with rn_result_free. */
int bd_compile(const char *source, const char *output, const bd_options *opt, rn_result *res);

/* Fills argv (at least BD_MAX_ARGS entries) with the command bd_compile runs, for tests. The
 * -arch and -I arguments are written into *store, which must outlive argv. Returns the number
 * of arguments. */
#define BD_MAX_ARGS 24
typedef struct bd_argstore {
    char arch[64];
    char include[4200];
    char keep[4200];
} bd_argstore;
int bd_command(const char *source, const char *output, const bd_options *opt, bd_argstore *store,
               const char *argv[BD_MAX_ARGS]);

#ifdef __cplusplus
}
#endif

#endif
