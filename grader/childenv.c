/* childenv.c - the small fixed environment a grading child starts from (runner.h,
 * rn_options.clean_env): which of the grader's variables pass, and the array made of them. */
#define _GNU_SOURCE /* environ */
#include "childenv.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *with_value(const char *name, const char *value)
{
    char *entry = NULL;
    return asprintf(&entry, "%s=%s", name, value) < 0 ? NULL : entry;
}

/* Whether the grader's variable entry (NAME=value) passes into a clean environment: exact
 * names only (a prefix would let LC_SECRET or CUDA_API_KEY through). */
static bool kept_variable(const char *entry)
{
    static const char *const names[] = {
        "PATH", "LD_LIBRARY_PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
        "LC_NUMERIC", "LC_COLLATE", "LC_TIME", "LC_MONETARY", "TZ", "GRADE_LOCK_LOG",
        "GRADE_LOCALEDIR",
        /* the GPU's settings (a batch's CUDA_VISIBLE_DEVICES), not an injected library: the
         * grader names the tracer itself where it wants one */
        "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", NULL};
    size_t len = strcspn(entry, "=");
    if (entry[len] != '=')
        return false;
    for (int i = 0; names[i]; i++)
        if (strlen(names[i]) == len && !strncmp(entry, names[i], len))
            return true;
    return false;
}

static bool same_name(const char *a, const char *b)
{
    size_t len = strcspn(a, "=");
    return strncmp(a, b, len + 1) == 0;
}

char **rn_clean_environment(const rn_options *opt)
{
    size_t n = 0, cap = 8;
    for (char **e = environ; *e; e++)
        cap++;
    for (const char **e = opt->env_add; e && *e; e++)
        cap++;
    char **env = calloc(cap, sizeof *env);
    if (!env)
        return NULL;
    for (char **e = environ; *e; e++)
        if (kept_variable(*e))
            env[n++] = strdup(*e);
    char dir[PATH_MAX];
    if (opt->workdir && realpath(opt->workdir, dir)) {
        env[n++] = with_value("HOME", dir);
        env[n++] = with_value("TMPDIR", dir);
    }
    for (const char **e = opt->env_add; e && *e; e++) {
        for (size_t i = 0; i < n; i++)
            if (env[i] && same_name(env[i], *e)) {
                free(env[i]);
                env[i] = env[--n];
                env[n] = NULL;
                break;
            }
        env[n++] = strdup(*e);
    }
    for (size_t i = 0; i < n; i++)
        if (!env[i]) {
            for (size_t j = 0; j < n; j++)
                free(env[j]);
            free(env);
            return NULL;
        }
    env[n] = NULL;
    return env;
}

void rn_free_environment(char **env)
{
    for (char **e = env; e && *e; e++)
        free(*e);
    free(env);
}
