/*
 * childenv.h - the environment of a grading child started with rn_options.clean_env: PATH,
 * LD_LIBRARY_PATH, the language (LANG, LANGUAGE, POSIX's LC_ categories), TZ, the GPU's
 * CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER and the grader's own diagnostics (GRADE_LOCK_LOG,
 * GRADE_LOCALEDIR), exact names all, from the grader's; HOME and TMPDIR the child's work folder;
 * then opt->env_add, over anything of the same name. Made by the runner before it forks (the
 * child of a threaded process must not allocate).
 */
#ifndef CL_CHILDENV_H
#define CL_CHILDENV_H

#include "runner.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The environment for opt, a NULL-terminated array of "NAME=value" strings; free it with
 * rn_free_environment. NULL when out of memory. */
char **rn_clean_environment(const rn_options *opt);
void rn_free_environment(char **env);

#ifdef __cplusplus
}
#endif

#endif
