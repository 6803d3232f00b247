/*
 * devscan.c - see devscan.h: the device code's check before any student code runs, from the
 * SASS cuobjdump makes of it (sassscan.h), else from its PTX (ptxscan.h).
 */
#define _GNU_SOURCE
#include "devscan.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "i18n.h"
#include "ptxscan.h"
#include "runner.h"
#include "confine.h"
#include "sandbox.h"
#include "wire.h"

int gr_cuobjdump(const gr_config *cfg, char path[PATH_MAX])
{
    const char *nvcc = cfg->nvcc && *cfg->nvcc ? cfg->nvcc : "nvcc";
    char found[PATH_MAX] = "", real[PATH_MAX];
    if (strchr(nvcc, '/'))
        snprintf(found, sizeof found, "%s", nvcc);
    for (const char *p = getenv("PATH"); !found[0] && p && *p;) {
        size_t n = strcspn(p, ":");
        snprintf(found, sizeof found, "%.*s/%s", (int)n, p, nvcc);
        if (!n || access(found, X_OK) != 0)
            found[0] = '\0';
        p += n + (p[n] == ':');
    }
    /* Beside nvcc as it is named, then beside the file its links lead to. */
    for (int i = 0; i < 2 && found[0]; ++i) {
        const char *from = i == 0 ? found : realpath(found, real) ? real : "";
        const char *slash = strrchr(from, '/');
        if (!slash)
            continue;
        snprintf(path, PATH_MAX, "%.*s/cuobjdump", (int)(slash - from), from);
        if (access(path, X_OK) == 0)
            return 0;
    }
    path[0] = '\0';
    return -1;
}

/* The most bytes of SASS read from one file (a lab's kernels list a few hundred kilobytes),
 * and how long cuobjdump may take to list them (well under a second). */
#define SASS_MAX_BYTES ((size_t)64 << 20)
#define SASS_TIMEOUT_S 60.0
#define SASS_MAX_FILES 8

static int by_name(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* The files of keep that hold the device code's SASS, sorted: every cubin nvcc kept (the
 * kernel's, and the device link's), or, where the compile came from the cache (which keeps
 * the fatbin and the PTX alone), kernel.fatbin, which holds the same cubin. How many; -1 when
 * there are more than SASS_MAX_FILES cubins, or one with a name too long to list. */
static int sass_files(const char *keep, char names[SASS_MAX_FILES][256])
{
    int n = 0;
    DIR *d = opendir(keep);
    for (struct dirent *e; d && n >= 0 && (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len <= 6 || strcmp(e->d_name + len - 6, ".cubin"))
            continue;
        if (n == SASS_MAX_FILES || len >= 256)
            n = -1;
        else
            snprintf(names[n++], 256, "%s", e->d_name);
    }
    if (d)
        closedir(d);
    if (n < 0)
        return -1;
    char fatbin[4300];
    snprintf(fatbin, sizeof fatbin, "%s/kernel.fatbin", keep);
    if (!n && access(fatbin, R_OK) == 0)
        snprintf(names[n++], 256, "kernel.fatbin");
    qsort(names, (size_t)n, sizeof names[0], by_name);
    return n;
}

/* Lists, with cuobjdump (tool) confined as the compile is, the SASS of the files of keep
 * (sass_files), one after another, into *text (malloc'ed, *size bytes). Returns 0; 1 where
 * cuobjdump failed (why says how: the PTX is checked instead); -1 where the kernel must not run
 * (o->run_problem: a listing past its cap, or the grader's own failure). */
static int list_sass(const gr_config *cfg, const char *keep, const char *tool,
                     char names[SASS_MAX_FILES][256], int files, oc_outcome *o, char **text,
                     size_t *size, char *why, size_t why_size)
{
    /* cuobjdump runs confined as the compile is, and may read the folder it lies in. */
    static sb_policy policy;
    static char toolkit[PATH_MAX], tool_dir[PATH_MAX];
    gr_compile_policy(cfg, o->workdir, &policy, toolkit);
    snprintf(tool_dir, sizeof tool_dir, "%.*s", (int)(strrchr(tool, '/') - tool), tool);
    if (tool_dir[0])
        sb_add(policy.read, tool_dir);
    char tmpdir[4300];
    snprintf(tmpdir, sizeof tmpdir, "TMPDIR=%s", keep);
    const char *env[] = {tmpdir, NULL};
    FILE *all = open_memstream(text, size);
    int rc = all ? 0 : -1;
    for (int i = 0; rc == 0 && i < files; ++i) {
        char path[4500];
        snprintf(path, sizeof path, "%s/%.255s", keep, names[i]);
        const char *argv[] = {tool, "-sass", path, NULL};
        rn_options ro = {.timeout_s = SASS_TIMEOUT_S,
                         .output_cap = SASS_MAX_BYTES,
                         .workdir = keep,
                         .max_file_bytes = (size_t)1 << 30,
                         .max_memory_bytes = (size_t)16 << 30,
                         .sandbox = &policy,
                         .env_add = env};
        rn_result r;
        if (rn_run(argv, &ro, &r) != 0) {
            rc = -1;
            break;
        }
        if (r.status != RN_EXITED || r.exit_code != 0) {
            char how[256];
            rn_describe(&r, how, sizeof how);
            snprintf(why, why_size, _("'cuobjdump -sass %s' %s: %.200s"), names[i], how,
                     r.output ? r.output : "");
            why[strcspn(why, "\n")] = '\0';
            rc = 1;
        } else if (r.output_dropped) {
            snprintf(o->run_problem, sizeof o->run_problem,
                     _("the SASS of the compiled kernel (%s) is over %zu MB: the grader cannot "
                       "check it"),
                     names[i], SASS_MAX_BYTES >> 20);
            rc = -1;
        } else {
            fprintf(all, "// cuobjdump -sass %s\n", names[i]);
            fwrite(r.output ? r.output : "", 1, r.output ? r.output_len : 0, all);
        }
        rn_result_free(&r);
    }
    if (all && fclose(all) != 0)
        rc = -1;
    return rc;
}

/* Refuses, from the SASS that cuobjdump makes of the device code in keep (sassscan.h), what
 * moves memory where no engine can see it; the SASS is written to keep/device.sass. Returns
 * 0 when it read the SASS (o->refused filled where it refuses); 1 when it could not, why
 * saying why (the PTX is checked instead); -1 when the kernel must not run (o->run_problem). */
static int scan_sass(const gr_config *cfg, const char *keep, oc_outcome *o, char *why,
                     size_t why_size)
{
    char tool[PATH_MAX], names[SASS_MAX_FILES][256];
    if (gr_cuobjdump(cfg, tool) != 0) {
        snprintf(why, why_size, _("no cuobjdump beside '%s'"), cfg->nvcc ? cfg->nvcc : "nvcc");
        return 1;
    }
    int files = sass_files(keep, names);
    if (files <= 0) {
        snprintf(why, why_size,
                 files ? _("nvcc kept more cubins than the grader lists")
                       : _("nvcc kept no cubin or fatbin"));
        return 1;
    }
    char *text = NULL;
    size_t size = 0;
    int rc = list_sass(cfg, keep, tool, names, files, o, &text, &size, why, why_size);
    ss_listing *listing = rc == 0 ? ss_parse(text, size) : NULL;
    if (rc == 0 && !listing)
        rc = -1;
    char saved[4300];
    snprintf(saved, sizeof saved, "%s/device.sass", keep);
    FILE *out = rc == 0 ? fopen(saved, "wb") : NULL;
    int written = out && fwrite(text, 1, size, out) == size;
    if (out && fclose(out) != 0)
        written = 0;
    if (rc == 0 && !written) {
        snprintf(o->run_problem, sizeof o->run_problem,
                 _("the grader cannot save the SASS of the compiled kernel in '%.400s'"), saved);
        rc = -1;
    }
    size_t instructions = 0;
    for (int c = 0; rc == 0 && c < SS_CLASSES; ++c)
        instructions += ss_count(listing, (ss_class)c);
    if (rc == 0 && !instructions) { /* not a listing that sassscan.c can read */
        snprintf(why, why_size, _("cuobjdump listed no instruction"));
        rc = 1;
    } else if (rc == 0) {
        ss_refusal(listing, o->refused, sizeof o->refused);
        o->counters_blind = ss_count(listing, SS_GLOBAL_ATOMIC) + ss_count(listing, SS_GENERIC);
    }
    if (rc < 0 && !o->run_problem[0])
        snprintf(o->run_problem, sizeof o->run_problem,
                 _("the grader cannot read the SASS of the compiled kernel to check it"));
    ss_free(listing);
    free(text);
    return rc;
}

/* Refuses device code that moves memory where no engine can see it: from its SASS where
 * cuobjdump can make it (scan_sass), else from every PTX file nvcc kept (ptxscan.h), before any
 * student code runs. */
void gr_scan_device_code(const gr_config *cfg, const lab_spec *spec, const char *keep,
                         oc_outcome *o)
{
    char cannot[512] = "";
    int sass = scan_sass(cfg, keep, o, cannot, sizeof cannot);
    if (sass <= 0)
        return;
    static int said; /* once a process: it is the toolkit's, most often, not the kernel's */
    if (!said++ && cfg->progress) {
        fprintf(cfg->progress,
                _("[%s] cannot read the compiled kernel's SASS (%s): checking its PTX instead\n"),
                spec->id, cannot);
        fflush(cfg->progress);
    }
    DIR *d = opendir(keep);
    struct dirent *e;
    int scanned = 0;
    char seen[256] = "";
    while (d && !o->refused[0] && (e = readdir(d))) {
        size_t n = strlen(e->d_name), used = strlen(seen);
        if (e->d_name[0] != '.' && used + n + 2 < sizeof seen)
            snprintf(seen + used, sizeof seen - used, "%s%s", used ? " " : "", e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".ptx"))
            continue;
        char path[4500], why[256];
        snprintf(path, sizeof path, "%s/%s", keep, e->d_name);
        size_t size = 0;
        char *ptx = wi_read_bytes(path, (size_t)64 << 20, &size, why, sizeof why);
        if (ptx) {
            ps_scan(ptx, o->refused, sizeof o->refused);
            scanned++;
        }
        free(ptx);
    }
    if (d)
        closedir(d);
    /* Unscanned device code is never run: the check fails closed. */
    if (!scanned && !o->refused[0])
        snprintf(o->run_problem, sizeof o->run_problem,
                 _("the grader found no PTX of the compiled kernel to check (nvcc kept: %s)"),
                 seen[0] ? seen : _("nothing"));
}

/* The device code's SASS (scan_sass), for what each traced instruction is; NULL where there
 * is none (its PTX was checked instead). */
ss_listing *gr_device_listing(const char *keep)
{
    char path[4300], why[256];
    snprintf(path, sizeof path, "%s/device.sass", keep);
    size_t n = 0;
    char *text = wi_read_bytes(path, SASS_MAX_BYTES, &n, why, sizeof why);
    ss_listing *l = text ? ss_parse(text, n) : NULL;
    free(text);
    return l;
}
