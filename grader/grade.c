/*
 * grade.c - see grade.h. Grading one lab, step by step:
 *
 *   compile   the student's file, copied alone with its contract header into an empty
 *             folder: a kernel object (host and device code) and its device code alone
 *   record    the only step that runs the student's host code: a grading child calls the
 *             launchers once and records every launch (record.h); every process it left
 *             behind is stopped when it ends (runner.h)
 *   replay    in a folder made after that, from the grader's own copies of the device code
 *             and the record: the correctness run and the timing, the trace, the counters,
 *             each a child that loads the device code alone and replays the launches on
 *             buffers of its own (replay.h); the correctness run's outputs are checked here
 *   decide    decide.c
 *
 * Every child's record is read through the wire (wire.h), and trusted for nothing but what it
 * says about the measurement.
 */
#define _GNU_SOURCE /* pipe2; nftw and mkdtemp too */
#include "i18n.h"
#include "grade.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build.h"
#include "child.h"
#include "countreq.h"
#include "decide.h"
#include "devscan.h"
#include "early_check.h"
#include "gpulock.h"
#include "confine.h"
#include "sandbox.h"
#include "sassscan.h"
#include "seeded.h"

#define PROBE_TIMEOUT_S 60
/* The host memory the recording may take (RLIMIT_DATA): the largest lab needs under 2 GB. And
 * the largest file it may write (RLIMIT_FSIZE): the largest output it saves is lab 06's 384 MB. */
#define RECORD_MAX_DATA_BYTES ((size_t)32 << 30)
#define RECORD_MAX_FILE_BYTES ((size_t)1 << 30)

void oc_free(oc_outcome *o)
{
    free(o->compile_log);
    free(o->run_log);
    o->compile_log = o->run_log = NULL;
}

static void progress(const gr_config *cfg, const char *fmt, ...)
{
    if (!cfg->progress)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(cfg->progress, fmt, ap);
    va_end(ap);
    fflush(cfg->progress);
}

static char *take_output(rn_result *r)
{
    char *s = r->output;
    r->output = NULL;
    return s ? s : calloc(1, 1);
}

static int make_dir(const char *path)
{
    return mkdir(path, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

/* Why there is no usable GPU, from the probe's record of the device, for a person. */
static void no_device(const wi_device *d, char *why, size_t why_size)
{
    if (d->info.driver_version == 0)
        snprintf(why, why_size, _("no CUDA GPU was found: this machine has no NVIDIA driver (%s)"),
                 *d->error ? d->error : "no device");
    else if (!strcmp(d->error, "cudaErrorInsufficientDriver"))
        snprintf(why, why_size,
                 _("the NVIDIA driver is older than this CUDA runtime (%s): update the driver, or "
                   "build the grader with an older CUDA toolkit"),
                 d->error_text);
    else
        snprintf(why, why_size, _("no CUDA GPU was found (%s)"),
                 *d->error ? d->error_text : "no device");
}

/* One probe child, confined by policy or not; 0 when it ran and wrote its result. */
static int probe_once(const gr_config *cfg, const char *workdir, const sb_policy *policy,
                      wi_result *res, char *why, size_t why_size)
{
    ch_request req = {.args = {.mode = WI_PROBE, .workdir = workdir},
                      .timeout_s = PROBE_TIMEOUT_S,
                      .sandbox = policy};
    rn_result r;
    if (make_dir(workdir) != 0 || ch_run(cfg->worker, &req, &r) != 0) {
        snprintf(why, why_size, _("cannot prepare '%s'"), workdir);
        return -1;
    }
    char bad[512] = "";
    int rc = 0;
    if (r.status != RN_EXITED || r.exit_code != 0 ||
        ch_read_result(workdir, res, bad, sizeof bad) != 0) {
        char how[256];
        rn_describe(&r, how, sizeof how);
        snprintf(why, why_size, _("the grading child '%s' %s%s%s%s%.300s"), cfg->worker, how,
                 *bad ? ", " : "", bad, r.output_len ? ":\n" : "", r.output ? r.output : "");
        rc = -1;
    }
    rn_result_free(&r);
    return rc;
}

static int usable(const wi_result *res)
{
    return res->device.info.count > 0 && !*res->device.error;
}

int gr_probe(const gr_config *cfg, const char *workdir, di_info *dev, int *confined, char *why,
             size_t why_size)
{
    memset(dev, 0, sizeof *dev);
    static wi_result res;
    static sb_policy policy;
    /* Confined as the recording will be, as far as the GPU starts: reads and writes (where
     * asked), writes only (the driver of some machine may read where the first does not look),
     * or not at all, to tell a machine without a GPU from a driver the sandbox stops. */
    int level = gr_confinement_asked();
    for (;; --level) {
        gr_record_policy(cfg, workdir, NULL, (gr_confinement)level, &policy);
        memset(&res, 0, sizeof res);
        int rc = probe_once(cfg, workdir, level ? &policy : NULL, &res, why, why_size);
        if (rc == 0 && usable(&res))
            break;
        if (level == GR_UNCONFINED) {
            if (rc != 0)
                return -1;
            break;
        }
    }
    if (confined)
        *confined = level;
    *dev = res.device.info;
    if (usable(&res))
        return 0;
    no_device(&res.device, why, why_size);
    return 1;
}

void gr_default_kernel(const gr_config *cfg, const lab_spec *spec, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s/%s-%s/kernel.cu", cfg->root, cfg->solution ? "solutions" : "labs",
             spec->id, spec->slug);
}

/* Shortens path to be relative to the folder cfg shows paths from, when it lies below it. */
static void shown_path(const gr_config *cfg, char *path)
{
    size_t len = cfg->cwd ? strlen(cfg->cwd) : 0;
    if (len && !strncmp(path, cfg->cwd, len) && path[len] == '/')
        memmove(path, path + len + 1, strlen(path + len + 1) + 1);
}

/* Where one lab's grading keeps its files, under its work folder. */
typedef struct lab_files {
    char dir[4200];    /* the lab's work folder, holding all of these */
    char src[4200];    /* src/: the student's kernel.cu, alone with its contract header */
    char source[4300]; /* src/kernel.cu */
    char so[4200];     /* kernel.so: host and device code, for the recording only */
    char keep[4200];   /* keep/: nvcc's intermediate files, the device code's fatbin among them */
    char rec[4200];    /* rec/: the recording's folder */
    char run[4200];    /* run-XXXXXX/: the replays' folder, made after the recording ended */
    char image[4300];  /* run-XXXXXX/kernel.fatbin: the grader's copy of the device code */
    char record[4300]; /* run-XXXXXX/record.json: the grader's copy of the record */
    char trace_record[4300]; /* ... and of the record made on the trace's smaller problem */
    /* run-XXXXXX/run, trace, counters: each replay's own work folder (by replay_dir) */
    char replay[3][4300];
} lab_files;

enum replay_dir { REPLAY_RUN, REPLAY_TRACE, REPLAY_COUNTERS };

/* The largest kernel.cu the grader compiles: any real one is a few kilobytes. */
#define MAX_SOURCE_BYTES ((size_t)1 << 20)

/* Copies the regular file from to to; 0, or -1 (too large, not a regular file, I/O). */
static int copy_file(const char *from, const char *to, size_t max)
{
    char why[256];
    size_t n = 0;
    void *data = wi_read_bytes(from, max, &n, why, sizeof why);
    FILE *f = data ? fopen(to, "wb") : NULL;
    int ok = f && fwrite(data, 1, n, f) == n;
    if (f && fclose(f) != 0)
        ok = 0;
    free(data);
    return ok ? 0 : -1;
}

/* The empty folder the student's file is compiled in: the file and its contract header, and
 * nothing of the grader's tree, the solutions or the tests within reach of a relative path. */
static int isolate_source(const gr_config *cfg, const lab_spec *spec, const char *source,
                          const lab_files *f, oc_outcome *o)
{
    char header[4200], copy[4300];
    snprintf(header, sizeof header, "%s/labs/%s-%s/lab%s.h", cfg->root, spec->id, spec->slug,
             spec->id);
    snprintf(copy, sizeof copy, "%s/lab%s.h", f->src, spec->id);
    if (make_dir(f->src) != 0 || copy_file(header, copy, MAX_SOURCE_BYTES) != 0) {
        o->compile_log = strdup(_("cannot prepare the folder the kernel is compiled in\n"));
        return -1;
    }
    if (copy_file(source, f->source, MAX_SOURCE_BYTES) != 0) {
        char line[4400];
        snprintf(line, sizeof line,
                 _("cannot read '%s' as the kernel to compile (a regular file of at most 1 MB)\n"),
                 o->kernel_path);
        o->compile_log = strdup(line);
        return -1;
    }
    return 0;
}

/* ---- compiled kernels, cached by content (gr_config.compile_cache) ----
 * An entry is the folder CACHE/HASH holding `key` (everything the compile's result depends on:
 * a version line, nvcc's --version and path, the compile's arguments with the work folder's
 * paths left out, the contract header and the kernel, byte for byte) and the compile's outputs
 * (kernel.so, and kernel.fatbin and the PTX files of keep/). HASH (FNV-1a) only finds the
 * folder: an entry is used when its key equals this compile's byte for byte, so a collision or
 * a toolkit or flag change is a miss, never a wrong kernel. */

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void gr_remove_tree(const char *path)
{
    nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* nvcc --version, once a process (the toolkit is part of the key). */
static const char *nvcc_version(const char *nvcc)
{
    static char text[2048];
    static int known;
    if (known)
        return text;
    known = 1;
    char cmd[PATH_MAX + 32];
    snprintf(cmd, sizeof cmd, "'%s' --version 2>&1", nvcc);
    FILE *p = strchr(nvcc, '\'') ? NULL : popen(cmd, "r");
    size_t n = p ? fread(text, 1, sizeof text - 1, p) : 0;
    text[n] = '\0';
    if (p)
        pclose(p);
    return text;
}

static char *compile_key(const gr_config *cfg, const lab_files *f, size_t *size)
{
    bd_options canon = {
        .nvcc = cfg->nvcc, .arch = cfg->arch, .include_dir = "SRC", .keep_dir = "KEEP"};
    bd_argstore store;
    const char *argv[BD_MAX_ARGS];
    bd_command("SRC/kernel.cu", "OUT/kernel.so", &canon, &store, argv);
    char *key = NULL;
    FILE *k = open_memstream(&key, size);
    if (!k)
        return NULL;
    fprintf(k, "grade compile cache 2\n%s\n", nvcc_version(cfg->nvcc ? cfg->nvcc : "nvcc"));
    /* What nvcc reads from its environment changes what it builds: flags it adds, the host
     * compiler it takes (named, or found on PATH). */
    static const char *const vars[] = {"NVCC_APPEND_FLAGS", "NVCC_PREPEND_FLAGS", "NVCC_CCBIN",
                                       "PATH"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; ++i) {
        const char *v = getenv(vars[i]);
        fprintf(k, "%s=%s\n", vars[i], v ? v : "(unset)");
    }
    for (int i = 0; argv[i]; ++i)
        fprintf(k, "%s\n", argv[i]);
    DIR *d = opendir(f->src); /* the header and the kernel, in a fixed order */
    char *names[8];
    int n = 0;
    for (struct dirent *e; d && n < 8 && (e = readdir(d));)
        if (e->d_name[0] != '.')
            names[n++] = strdup(e->d_name);
    if (d)
        closedir(d);
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (strcmp(names[i], names[j]) > 0) {
                char *t = names[i];
                names[i] = names[j];
                names[j] = t;
            }
    for (int i = 0; i < n; ++i) {
        char path[4500], why[64];
        snprintf(path, sizeof path, "%s/%s", f->src, names[i]);
        size_t len = 0;
        char *bytes = wi_read_bytes(path, MAX_SOURCE_BYTES, &len, why, sizeof why);
        fprintf(k, "%s %zu\n", names[i], len);
        if (bytes)
            fwrite(bytes, 1, len, k);
        free(bytes);
        free(names[i]);
    }
    fclose(k);
    return key;
}

/* Copies the compile's outputs between the work folder's f->so and f->keep and entry. */
static int copy_outputs(const lab_files *f, const char *entry, int into_entry)
{
    char a[4500], b[4500];
    snprintf(a, sizeof a, "%s/kernel.so", entry);
    int ok = into_entry ? copy_file(f->so, a, (size_t)256 << 20) == 0
                        : copy_file(a, f->so, (size_t)256 << 20) == 0;
    snprintf(a, sizeof a, "%s/keep", entry);
    if (into_entry)
        ok = ok && make_dir(a) == 0;
    DIR *d = opendir(into_entry ? f->keep : a);
    for (struct dirent *e; ok && d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (strcmp(e->d_name, "kernel.fatbin") && (n < 5 || strcmp(e->d_name + n - 4, ".ptx")))
            continue;
        snprintf(a, sizeof a, "%s/keep/%s", entry, e->d_name);
        snprintf(b, sizeof b, "%s/%s", f->keep, e->d_name);
        ok = into_entry ? copy_file(b, a, (size_t)64 << 20) == 0
                        : copy_file(a, b, (size_t)64 << 20) == 0;
    }
    if (d)
        closedir(d);
    return ok && d ? 0 : -1;
}

/* What a cache entry says of its compile, beside its outputs: the compile's output (warnings
 * included), how long it took, and which run made it. */
typedef struct compile_note {
    char *log;
    double seconds;
    char run[64];
} compile_note;

/* Whether the cache entry was stored under this key, byte for byte. */
static int holds_key(const char *entry, const char *key, size_t size)
{
    char path[4500], why[64];
    snprintf(path, sizeof path, "%s/key", entry);
    size_t n = 0;
    char *stored = wi_read_bytes(path, (size_t)8 << 20, &n, why, sizeof why);
    int same = stored && n == size && !memcmp(stored, key, size);
    free(stored);
    return same;
}

/* Reads an entry's note (its log, its run and seconds) into *note. */
static void read_note(const char *entry, compile_note *note)
{
    char path[4500], why[64];
    size_t n = 0;
    snprintf(path, sizeof path, "%s/log", entry);
    note->log = wi_read_bytes(path, (size_t)64 << 10, &n, why, sizeof why);
    snprintf(path, sizeof path, "%s/made", entry);
    char *made = wi_read_bytes(path, 256, &n, why, sizeof why);
    if (!made || sscanf(made, "%63s %lf", note->run, &note->seconds) != 2)
        note->run[0] = '\0';
    free(made);
}

/* A hit: the entry's outputs copied into the work folder and *note read; 0. A file nvcc
 * rejected (or ran out of time on) in this same run (a compile ahead's, to_cache): 1, *note
 * holding its messages.
 * Else -1: a rejection is never taken from another run (it could have been the machine's: a
 * full disk), and a spoiled or vanishing entry is compiled again. */
static int from_cache(const gr_config *cfg, const lab_files *f, const char *key, size_t size,
                      char *entry, size_t entry_size, compile_note *note)
{
    snprintf(entry, entry_size, "%s/%016llx", cfg->compile_cache,
             (unsigned long long)sd_fnv1a(key, size));
    if (!holds_key(entry, key, size))
        return -1;
    char path[4500];
    snprintf(path, sizeof path, "%s/rejected", entry);
    if (access(path, F_OK) == 0) {
        read_note(entry, note);
        if (cfg->run_id && !strcmp(note->run, cfg->run_id))
            return 1;
        free(note->log);
        note->log = NULL;
        return -1;
    }
    utimensat(AT_FDCWD, entry, NULL, 0); /* used now: the last to be pruned */
    snprintf(path, sizeof path, "%s/kernel.fatbin", f->keep);
    if (make_dir(f->keep) != 0 || copy_outputs(f, entry, 0) != 0 || access(path, R_OK) != 0 ||
        access(f->so, R_OK) != 0)
        return -1;
    read_note(entry, note);
    return 0;
}

typedef struct cache_entry {
    char name[32];
    struct timespec used;
} cache_entry;

static int newer_first(const void *a, const void *b)
{
    const struct timespec *x = &((const cache_entry *)a)->used,
                          *y = &((const cache_entry *)b)->used;
    return x->tv_sec != y->tv_sec ? (y->tv_sec > x->tv_sec) - (y->tv_sec < x->tv_sec)
                                  : (y->tv_nsec > x->tv_nsec) - (y->tv_nsec < x->tv_nsec);
}

/* Keeps the keep entries of the cache that were stored or used last; removes the others. */
static void prune_cache(const char *cache, unsigned keep)
{
    DIR *d = opendir(cache);
    if (!d)
        return;
    cache_entry *e = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *de; (de = readdir(d));) {
        char path[4500];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", cache, de->d_name);
        if (strlen(de->d_name) != 16 || lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue; /* entries are named by 16 hex digits; new-XXXXXX are being stored */
        if (n == cap) {
            cache_entry *more = realloc(e, (cap = cap ? 2 * cap : 64) * sizeof *e);
            if (!more)
                break;
            e = more;
        }
        snprintf(e[n].name, sizeof e[n].name, "%s", de->d_name);
        e[n++].used = st.st_mtim;
    }
    closedir(d);
    if (n > keep) {
        qsort(e, n, sizeof *e, newer_first);
        for (size_t i = keep; i < n; ++i) {
            char path[4500];
            snprintf(path, sizeof path, "%s/%s", cache, e[i].name);
            gr_remove_tree(path);
        }
    }
    free(e);
}

/* After a compile that worked: its outputs and note stored under entry, whole or not at all.
 * After one whose file nvcc rejected or that ran out of time (rejected): its note alone, and a
 * mark that says so, for gr_grade_lab to report a compile ahead's errors in the same run
 * (from_cache). */
static void to_cache(const gr_config *cfg, const lab_files *f, const char *key, size_t size,
                     const char *entry, const char *log, double seconds, int rejected)
{
    char tmp[4400];
    snprintf(tmp, sizeof tmp, "%s/new-XXXXXX", cfg->compile_cache);
    if (make_dir(cfg->compile_cache) != 0 || !mkdtemp(tmp))
        return;
    char path[4500];
    snprintf(path, sizeof path, "%s/rejected", tmp);
    FILE *mark = rejected ? fopen(path, "wb") : NULL;
    int stored = rejected ? mark && fclose(mark) == 0 : copy_outputs(f, tmp, 1) == 0;
    snprintf(path, sizeof path, "%s/log", tmp);
    FILE *l = stored ? fopen(path, "wb") : NULL;
    int ok = l && fputs(log ? log : "", l) >= 0;
    if (l && fclose(l) != 0)
        ok = 0;
    snprintf(path, sizeof path, "%s/made", tmp);
    FILE *m = ok ? fopen(path, "wb") : NULL;
    ok = m && fprintf(m, "%s %.3f\n", cfg->run_id ? cfg->run_id : "-", seconds) > 0;
    if (m && fclose(m) != 0)
        ok = 0;
    snprintf(path, sizeof path, "%s/key", tmp);
    FILE *k = ok ? fopen(path, "wb") : NULL;
    ok = k && fwrite(key, 1, size, k) == size;
    if (k && fclose(k) != 0)
        ok = 0;
    if (ok && rename(tmp, entry) != 0) {
        /* A whole entry of the same key, stored meanwhile by another compile, is as good as
         * this one, and may be being read: it stays. One of another key (a collision) or a
         * spoiled one gives way, set aside first so that a reader never sees it half removed. */
        char so[4500], fatbin[4500];
        snprintf(so, sizeof so, "%s/kernel.so", entry);
        snprintf(fatbin, sizeof fatbin, "%s/keep/kernel.fatbin", entry);
        int same =
            holds_key(entry, key, size) && access(so, R_OK) == 0 && access(fatbin, R_OK) == 0;
        char aside[4500];
        snprintf(aside, sizeof aside, "%s/old-%d", cfg->compile_cache, (int)getpid());
        ok = !same && rename(entry, aside) == 0 && rename(tmp, entry) == 0;
        if (!same)
            gr_remove_tree(aside);
    }
    if (!ok)
        gr_remove_tree(tmp);
    else if (cfg->compile_cache_keep)
        prune_cache(cfg->compile_cache, cfg->compile_cache_keep);
}

/* nvcc names the grader's copy of the kernel (WORK/src/kernel.cu, or a compile ahead's, or an
 * earlier run's, for a log from the cache): each such path in log becomes the one the student
 * knows, shown. Returns the new log (log freed), or log where there is nothing to rename. */
static char *with_student_path(char *log, const char *shown)
{
    static const char copy[] = "/src/kernel.cu";
    if (!log || !strstr(log, copy))
        return log;
    char *out = NULL;
    size_t size = 0;
    FILE *m = open_memstream(&out, &size);
    if (!m)
        return log;
    const char *p = log;
    for (const char *hit; (hit = strstr(p, copy));) {
        const char *end = hit + sizeof copy - 1, *start = hit;
        while (start > p && !strchr(" \t\n\"'", start[-1]))
            --start;
        fwrite(p, 1, (size_t)(start - p), m);
        if (*start == '/')
            fputs(shown, m);
        else
            fwrite(start, 1, (size_t)(end - start), m);
        p = end;
    }
    fputs(p, m);
    if (fclose(m) != 0) {
        free(out);
        return log;
    }
    free(log);
    return out;
}

/* With announced, its "compiling" line was printed already (a compile ahead waited for). */
static int compile_kernel(const gr_config *cfg, const lab_spec *spec, oc_outcome *o,
                          const lab_files *f, int announced)
{
    static sb_policy policy;
    static char toolkit[PATH_MAX];
    gr_compile_policy(cfg, o->workdir, &policy, toolkit);
    char tmpdir[4300];
    snprintf(tmpdir, sizeof tmpdir, "TMPDIR=%s", f->keep);
    const char *env[] = {tmpdir, NULL};
    bd_options bo = {.nvcc = cfg->nvcc,
                     .arch = cfg->arch,
                     .include_dir = f->src,
                     .keep_dir = f->keep,
                     .workdir = f->src,
                     .timeout_s = cfg->compile_timeout_s,
                     .sandbox = &policy,
                     .env = env,
                     .stop_fd = cfg->compile_stop_fd};
    rn_result r;
    char *key = NULL, entry[4400] = "";
    size_t key_size = 0;
    compile_note note = {0};
    int hit = -1;
    if (cfg->compile_cache && (key = compile_key(cfg, f, &key_size)))
        hit = from_cache(cfg, f, key, key_size, entry, sizeof entry, &note);
    if (hit >= 0) {
        /* Compiled ahead in this run (gr_compile_ahead), or by an earlier one; or, hit 1,
         * rejected by a compile ahead in this run (its messages). */
        int ahead = cfg->run_id && !strcmp(note.run, cfg->run_id);
        if (ahead && !announced) /* with announced, its "compiling" line was printed */
            progress(cfg, _("[%s] compiled %s (ahead of its grading)\n"), spec->id, o->kernel_path);
        else if (!ahead)
            progress(cfg,
                     _("[%s] %s: compiled before (the same file, header, flags and toolkit)\n"),
                     spec->id, o->kernel_path);
        free(key);
        o->compile_log = note.log ? note.log : calloc(1, 1);
        if (o->compile_log)
            wi_clean_text(o->compile_log);
        o->compiled = hit == 0;
        o->compile_cached = !ahead;
        o->compile_s = ahead ? note.seconds : 0;
        return hit;
    }
    if (!announced)
        progress(cfg, _("[%s] compiling %s\n"), spec->id, o->kernel_path);
    if (make_dir(f->keep) != 0) {
        free(key);
        return -1;
    }
    int rc = bd_compile(f->source, f->so, &bo, &r);
    o->compile_s = r.elapsed_s;
    o->compile_log = take_output(&r);
    wi_clean_text(o->compile_log);
    if (rc != 0 && r.status == RN_TIMED_OUT) {
        free(o->compile_log);
        o->compile_log = strdup(_("nvcc did not finish in time\n"));
    } else if (rc != 0 && r.status == RN_START_FAILED) {
        char line[512];
        snprintf(line, sizeof line, _("cannot run the CUDA compiler '%s': %s"), bo.nvcc,
                 o->compile_log);
        free(o->compile_log);
        o->compile_log = strdup(line);
    }
    /* nvcc's own rejection of the file is stored too, and a compile that ran out of time (a
     * compile ahead's is not run again in the same run: a file that makes nvcc hang costs the
     * limit once); not one stopped or that could not start. */
    int rejected = rc == 1 && !r.stopped &&
                   ((r.status == RN_EXITED && r.exit_code != 0) || r.status == RN_TIMED_OUT);
    if ((rc == 0 || rejected) && key && entry[0])
        to_cache(cfg, f, key, key_size, entry, o->compile_log, o->compile_s, rejected);
    free(key);
    rn_result_free(&r);
    o->compiled = rc == 0;
    return rc;
}

/* A replay that changed one of the lab's inputs (its result names it, input; "" none) broke
 * the contract. */
static void note_input_changed(oc_outcome *o, const char *input)
{
    if (o->refused[0] || !input[0])
        return;
    snprintf(o->refused, sizeof o->refused,
             _("a replay changed the input '%s' (its launches must leave their inputs as they "
               "found them)"),
             input);
}

/* The seeds the replays' arrays were filled from (the run's secret salt), and the
 * recording's: the task's scalars with other arrays of the same shapes. */
static sd_seeds replay_seeds(const gr_config *cfg)
{
    return (sd_seeds){cfg->seed, sd_data_seed(cfg->seed, cfg->salt), cfg->poison};
}

static sd_seeds record_seeds(const gr_config *cfg)
{
    return (sd_seeds){cfg->seed, sd_data_seed(cfg->seed, cfg->record_salt), cfg->record_poison};
}

/* "NAME=SALT" for a child's environment (wire.h WI_ENV_DATA_SALT), in buf. */
static const char *salt_entry(uint64_t salt, char *buf, size_t size)
{
    snprintf(buf, size, "%s=%" PRIu64, WI_ENV_DATA_SALT, salt);
    return buf;
}

/* The replays' environment: the run's data salt, which only they are given (never on a
 * command line, which the recording could read). It lives as long as the process, for the
 * replays started early (ch_start_early); it is written only when the salt changes, which
 * happens before any replay of a run is started. */
static const char **replay_env(const gr_config *cfg)
{
    static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    static char entry[64];
    static const char *env[2] = {entry, NULL};
    char want[64];
    salt_entry(cfg->salt, want, sizeof want);
    pthread_mutex_lock(&mu);
    if (strcmp(entry, want))
        snprintf(entry, sizeof entry, "%s", want);
    pthread_mutex_unlock(&mu);
    return env;
}

/* spec's check of the outputs in dir, its time added to *seconds. */
static int timed_check(const lab_spec *spec, double *seconds, const char *dir, sd_seeds seeds,
                       const cl_shape *shape, lab_check *out)
{
    double t = rn_now_s();
    int rc = spec->check(dir, seeds, shape, out);
    *seconds += rn_now_s() - t;
    return rc;
}

/* Takes what a child said and how it ended into o's run fields; returns 1 when it finished. */
static int note_child(const gr_config *cfg, const rn_result *r, const char *prefix, oc_outcome *o)
{
    int finished = r->status == RN_EXITED && r->exit_code == 0;
    if (finished)
        return 1;
    free(o->run_log);
    o->run_log = r->output ? strdup(r->output) : calloc(1, 1);
    if (o->run_log)
        wi_clean_text(o->run_log);
    o->run_status = (int)r->status;
    o->run_exit = r->exit_code;
    char how[400];
    ch_explain(r, cfg->run_timeout_s, how, sizeof how);
    snprintf(o->run_problem, sizeof o->run_problem, "%s%s", prefix, how);
    return 0;
}

static wi_record full_record, small_record, check_records[CL_MAX_CHECK_SHAPES];

/* How long a replay started with the lab may wait for its go: the compile and the recording,
 * each as long as it may take beside other gradings, and some. */
static double early_wait_s(const gr_config *cfg)
{
    return cfg->compile_timeout_s + 1.25 * cfg->run_timeout_s + WI_GPU_WAIT_S_BESIDE + 30.0;
}

/* The recording's child: its request, and the policy and environment that request points to.
 * Where the replays start with the lab, the recording does too (record_early): it makes its
 * CUDA context while the kernel is compiled, and loads the student's code at its go. */
typedef struct record_job {
    sb_policy policy;
    char tmpdir[4300], home[4300];
    char salt[64]; /* the recording's data salt, never the replays' */
    const char *env[4];
    ch_request req;
    ch_early *early;  /* started with the lab, not yet told to go on */
    gr_leftovers shm; /* /dev/shm before it started: what it makes there is removed after */
} record_job;

static void record_init(const gr_config *cfg, const lab_spec *spec, const lab_files *f,
                        record_job *j)
{
    /* The student's host code may read what its user may, but write only in its own folder
     * (and the GPU's device files), and signal nothing outside its sandbox. */
    gr_record_policy(cfg, f->rec, f->dir, (gr_confinement)cfg->confine_recording, &j->policy);
    snprintf(j->tmpdir, sizeof j->tmpdir, "TMPDIR=%s", f->rec);
    snprintf(j->home, sizeof j->home, "HOME=%s", f->rec); /* its folder, not the grader's home */
    j->env[0] = j->tmpdir;
    j->env[1] = j->home;
    j->env[2] = salt_entry(cfg->record_salt, j->salt, sizeof j->salt);
    j->env[3] = NULL;
    j->req = (ch_request){.args = {.mode = WI_RECORD,
                                   .lab = spec->id,
                                   .kernel = f->so,
                                   .workdir = f->rec,
                                   .seed = cfg->seed,
                                   .poison = cfg->record_poison},
                          .timeout_s = cfg->run_timeout_s,
                          .env = j->env,
                          .sandbox = cfg->confine_recording ? &j->policy : NULL,
                          .max_data_bytes = RECORD_MAX_DATA_BYTES,
                          .max_file_bytes = RECORD_MAX_FILE_BYTES,
                          .gpu = cfg->gpu};
    j->early = NULL;
    gr_leftovers_note(&j->shm);
}

/* Its folder made and the child started, to wait for its go (record_run) or its end. Only
 * without a GPU lock (a lab graded alone): beside others the grader holds the lock for the
 * recording, which an early start would not. */
static void record_early(const gr_config *cfg, const lab_files *f, record_job *j)
{
    if (cfg->gpu && cfg->gpu->lock_fd >= 0)
        return;
    if (make_dir(f->rec) == 0)
        j->early = ch_start_early(cfg->worker, &j->req, early_wait_s(cfg));
}

/* The recording: the student's host code, once. Fills o's run fields when it does not end
 * well, and o->refused with what the launcher did that its contract forbids. */
static int record_run(const gr_config *cfg, const lab_spec *spec, oc_outcome *o, lab_files *f,
                      record_job *j)
{
    progress(cfg, _("[%s] running the launcher once, recording its launches\n"), spec->id);
    rn_result r;
    int started;
    if (j->early) {
        ch_go(j->early, "."); /* it runs where it was started: its paths are the grader's */
        started = ch_finish(j->early, &r) == 0;
        j->early = NULL;
    } else {
        started = make_dir(f->rec) == 0 && ch_run(cfg->worker, &j->req, &r) == 0;
    }
    gr_leftovers_remove(&j->shm); /* it has ended, with all it started: nothing outlives it */
    if (!started) {
        snprintf(o->run_problem, sizeof o->run_problem, _("cannot start the grading child"));
        return -1;
    }
    int finished = note_child(cfg, &r, "", o); /* keeps the child's output when it failed */
    if (finished) {
        o->run_log = take_output(&r);
        wi_clean_text(o->run_log);
    }
    rn_result_free(&r);
    if (!finished)
        return -1;
    char path[4400], why[512];
    snprintf(path, sizeof path, "%s/%s", f->rec, WI_RECORD_FILE);
    if (wi_record_load(path, &full_record, why, sizeof why) != 0) {
        snprintf(o->run_problem, sizeof o->run_problem,
                 _("the recording of the launches is unusable: %.400s"), why);
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s", f->rec, WI_TRACE_RECORD_FILE);
    o->trace_recorded = wi_record_load(path, &small_record, why, sizeof why) == 0;
    snprintf(o->refused, sizeof o->refused, "%s", full_record.refused);
    if (!o->refused[0] && o->trace_recorded)
        snprintf(o->refused, sizeof o->refused, "%s", small_record.refused);
    const cl_shapes *shapes = spec->shapes;
    for (unsigned k = 0; k < shapes->nchecks; ++k) {
        char name[64];
        snprintf(name, sizeof name, WI_CHECK_RECORD_FILE, k);
        snprintf(path, sizeof path, "%s/%s", f->rec, name);
        if (wi_record_load(path, &check_records[k], why, sizeof why) != 0) {
            snprintf(o->run_problem, sizeof o->run_problem,
                     _("the recording of the launches is unusable: %.400s"), why);
            return -1;
        }
        if (!o->refused[0] && check_records[k].refused[0]) {
            char shape[128];
            shapes->describe(&shapes->checks[k], shape, sizeof shape);
            snprintf(o->refused, sizeof o->refused, "at %s, %.360s", shape,
                     check_records[k].refused);
        }
    }
    wi_clean_text(o->refused);
    return 0;
}

/* The replays' folder, made now that nothing the student started is left, with the grader's
 * own copies of the device code and the records in it. The replays' requests name what is in it
 * relative to it (replay_names), so that a replay started before it existed (ch_start_early)
 * finds them once told where it is. */
static const char *const replay_names[] = {"run", "trace", WI_COUNTERS_DIR};
#define REPLAY_IMAGE WI_REPLAY_IMAGE

static int prepare_replays(const lab_spec *spec, const oc_outcome *o, lab_files *f,
                           const void *image, size_t size)
{
    snprintf(f->run, sizeof f->run, "%s/run-XXXXXX", o->workdir);
    if (!mkdtemp(f->run))
        return -1;
    for (int i = 0; i < 3; ++i) {
        snprintf(f->replay[i], sizeof f->replay[i], "%s/%s", f->run, replay_names[i]);
        if (make_dir(f->replay[i]) != 0)
            return -1;
    }
    snprintf(f->image, sizeof f->image, "%s/%s", f->run, REPLAY_IMAGE);
    snprintf(f->record, sizeof f->record, "%s/%s", f->run, WI_RECORD_FILE);
    /* The trace's record always has its own name: the smaller problem's, or the full one's. */
    snprintf(f->trace_record, sizeof f->trace_record, "%s/%s", f->run, WI_TRACE_RECORD_FILE);
    FILE *out = fopen(f->image, "wb");
    int ok = out && fwrite(image, 1, size, out) == size;
    if (out && fclose(out) != 0)
        ok = 0;
    if (ok && wi_record_save(f->record, &full_record) != 0)
        ok = 0;
    if (ok &&
        wi_record_save(f->trace_record, o->trace_recorded ? &small_record : &full_record) != 0)
        ok = 0;
    for (unsigned k = 0; ok && k < spec->shapes->nchecks; ++k) {
        char name[64], path[4400];
        snprintf(name, sizeof name, WI_CHECK_RECORD_FILE, k);
        snprintf(path, sizeof path, "%s/%s", f->run, name);
        ok = wi_record_save(path, &check_records[k]) == 0;
    }
    return ok ? 0 : -1;
}

/* A replay of mode, run in the replays' folder f->run (or, started early, in the one its go
 * names): its paths are relative to it. */
static ch_request replay_request(const gr_config *cfg, const lab_spec *spec, const lab_files *f,
                                 wi_mode mode, double timeout_s)
{
    enum replay_dir dir = mode == WI_TRACE      ? REPLAY_TRACE
                          : mode == WI_COUNTERS ? REPLAY_COUNTERS
                                                : REPLAY_RUN;
    ch_request req = {.args = {.mode = mode,
                               .lab = spec->id,
                               .image = REPLAY_IMAGE,
                               .record = mode == WI_TRACE ? WI_TRACE_RECORD_FILE : WI_RECORD_FILE,
                               .workdir = replay_names[dir],
                               .seed = cfg->seed,
                               .poison = cfg->poison},
                      .timeout_s = timeout_s,
                      .env = replay_env(cfg),
                      .gpu = cfg->gpu,
                      .cwd = f->run};
    return req;
}

/* Whether the labs' counters are counted by the run's counting server (gr_config.counting), for
 * labs graded side by side: every lab's (lab 05's bank conflicts, hardware counters, with the
 * GPU held alone there too). */
static int served(const gr_config *cfg)
{
    return cfg->counters && cfg->counting && cfg->counting->sock >= 0 && cfg->gpu &&
           cfg->gpu->lock_fd >= 0;
}

/* The answer to this lab's request to the counting server, to read (cq_wait); -1: none. */
static int count_answer = -1;

/* How long a count may take in the server: one replay of the work and its set-up, less than
 * a run child's correctness replay, timing and checks. */
static double count_limit_s(const gr_config *cfg)
{
    return cfg->run_timeout_s;
}

/* Stops the counting server: whatever it still counts, or has queued, then counts in the labs'
 * own children. */
static void stop_server(const gr_config *cfg)
{
    if (cfg->counting && cfg->counting->pid > 0)
        kill(cfg->counting->pid, SIGKILL);
}

/* Sends the lab's count to the server, once its replays' folder is ready (run_compiled): it is
 * counted beside the run child. Where it cannot be sent, the lab counts in a child of its own
 * (served_counts). */
static void ask_counts(const gr_config *cfg, const lab_spec *spec, const lab_files *f)
{
    if (!served(cfg))
        return;
    cq_request rq = {.seed = cfg->seed,
                     .salt = cfg->salt,
                     .poison = cfg->poison,
                     .limit_s = count_limit_s(cfg),
                     .shared = spec->report_bank_conflicts};
    snprintf(rq.lab, sizeof rq.lab, "%s", spec->id);
    if (!realpath(f->run, rq.dir) || cq_send(cfg->counting->sock, &rq, &count_answer) != 0)
        count_answer = -1;
}

/* The counters of a served lab, once its run is known to be right: the server's answer waited
 * for (the requests before it in its queue included), or where none comes (the server could
 * not count it, ended, or ran out of time), a counters child of its own, as where there is no
 * server. */
static void served_counts(const gr_config *cfg, const lab_spec *spec, const lab_files *f)
{
    if (!served(cfg))
        return; /* counted in the run child */
    /* Behind at most every other lab of the run; a server stuck on one ends at its limit. */
    double wait_s = 8 * (count_limit_s(cfg) + 1) + WI_GPU_WAIT_S_BESIDE;
    char answer = count_answer >= 0 ? cq_wait(count_answer, wait_s) : 0;
    count_answer = -1;
    if (answer == CQ_COUNTED)
        return;
    /* No answer in time: the server, where it still runs, is stopped, so that it cannot write
     * this lab's counters folder under the child's (a refusal ends it by itself). */
    if (answer != CQ_REFUSED)
        stop_server(cfg);
    ch_request req = replay_request(cfg, spec, f, WI_COUNTERS, 2 * cfg->run_timeout_s);
    req.args.shared_counters = spec->report_bank_conflicts;
    rn_result r;
    if (ch_run(cfg->worker, &req, &r) == 0)
        rn_result_free(&r);
}

/* Forgets the server's answer for a lab whose counters are not wanted (its run was wrong): a
 * server still counting a kernel whose run ran out of time counts one that hangs, and would
 * keep every other lab's count waiting until its limit: it is stopped (those labs then count
 * in children of their own). */
static void forget_counts(const gr_config *cfg, const oc_outcome *o)
{
    if (count_answer < 0)
        return;
    struct pollfd p = {count_answer, POLLIN, 0};
    if (o->run_status == RN_TIMED_OUT && poll(&p, 1, 0) == 0)
        stop_server(cfg);
    close(count_answer);
    count_answer = -1;
}

/* The correctness replay's request (correctness_run). */
static ch_request run_request(const gr_config *cfg, const lab_spec *spec, const lab_files *f)
{
    /* The counters replay each kernel a few times, fewer than the timing does: as long again. */
    double limit = cfg->run_timeout_s * (cfg->counters ? 2 : 1);
    ch_request req = replay_request(cfg, spec, f, WI_RUN, limit);
    req.args.no_timing = !cfg->timing;
    req.args.counters_dir = cfg->counters && !served(cfg) ? replay_names[REPLAY_COUNTERS] : NULL;
    req.args.shared_counters = spec->report_bank_conflicts;
    return req;
}

/* What the CPU checks of the correctness run found. They are made apart from the outcome, so
 * that they can run while the engines measure (the engines' results are kept only when the
 * checks pass), and merged into it with apply_checks. */
typedef struct checks {
    int check_ok; /* the spec could compare the outputs */
    lab_check check;
    char check_at[160];      /* the check shape check is of, in words; "" the graded one */
    unsigned shapes_checked; /* the graded problem and the small shapes checked */
    char run_problem[512];   /* a small shape's replay left no usable record */
    int guards_broken;       /* a small shape's replay wrote outside its outputs */
    char input_changed[64];  /* a small shape's replay changed this input */
    int recorded_run_correct;
    double seconds;
} checks;

/* The outputs the correctness run made on the lab's small check shapes (run/check-K): the first
 * one wrong, or written out of bounds, becomes the lab's check, named by its shape. */
static void check_small_shapes(const gr_config *cfg, const lab_spec *spec, const lab_files *f,
                               checks *c)
{
    const cl_shapes *shapes = spec->shapes;
    for (unsigned k = 0; k < shapes->nchecks; ++k) {
        char name[64], dir[4400], bad[512] = "";
        snprintf(name, sizeof name, WI_CHECK_DIR, k);
        snprintf(dir, sizeof dir, "%s/%s", f->replay[REPLAY_RUN], name);
        static wi_result res;
        static lab_check small;
        int read = ch_read_result(dir, &res, bad, sizeof bad) == 0 && res.has_run;
        if (read && res.run.input_changed[0] && !c->input_changed[0])
            snprintf(c->input_changed, sizeof c->input_changed, "%s", res.run.input_changed);
        int rc = read ? timed_check(spec, &c->seconds, dir, replay_seeds(cfg), &shapes->checks[k],
                                    &small)
                      : -1;
        c->shapes_checked++;
        if (read && rc == 0 && small.passed && res.run.guards_intact)
            continue;
        shapes->describe(&shapes->checks[k], c->check_at, sizeof c->check_at);
        if (!read) {
            snprintf(c->run_problem, sizeof c->run_problem,
                     _("the replay at %s left no usable record: %.300s"), c->check_at, bad);
        } else if (rc != 0 || !small.passed) {
            c->check = small;
            c->check_ok = rc == 0;
        } else {
            c->guards_broken = 1;
        }
        return;
    }
}

/* The CPU checks of what the correctness replay made (run/), and of the recording's own run
 * where that tells more. clean: the replay ran to the end within its outputs; only then are
 * the small shapes checked. Reads files; touches nothing else. */
static void check_outputs(const gr_config *cfg, const lab_spec *spec, const lab_files *f, int clean,
                          const ec_check *made, checks *c)
{
    memset(c, 0, sizeof *c);
    const cl_shape *graded = &spec->shapes->graded;
    if (made && made->usable) {
        c->check_ok = made->rc == 0;
        c->check = made->check;
        c->seconds = made->seconds;
    } else {
        c->check_ok = timed_check(spec, &c->seconds, f->replay[REPLAY_RUN], replay_seeds(cfg),
                                  graded, &c->check) == 0;
    }
    c->shapes_checked = 1;
    int passed = c->check_ok && c->check.passed;
    if (passed && clean)
        check_small_shapes(cfg, spec, f, c);
    passed = c->check_ok && c->check.passed;
    if (passed && spec->student_setup && !gr_same_outputs(f->replay[REPLAY_RUN], f->rec)) {
        /* The student's own functions set the problem up (a replay does that itself): their
         * whole run, as the recording made it, must be right too (outputs of the same bytes as
         * the replay's, which passed, are). */
        static lab_check own;
        int rc = timed_check(spec, &c->seconds, f->rec, record_seeds(cfg), graded, &own);
        if (rc != 0 || !own.passed) {
            c->check = own;
            c->check_ok = rc == 0;
        }
    }
    if (c->check_ok && !c->check.passed && !spec->student_setup) {
        /* Did the launcher's own run get it right? Then the work was not all in the kernels
         * it launched. */
        static lab_check own;
        c->recorded_run_correct =
            timed_check(spec, &c->seconds, f->rec, record_seeds(cfg), graded, &own) == 0 &&
            own.passed;
    }
}

static void apply_checks(oc_outcome *o, const checks *c)
{
    o->check_ok = c->check_ok;
    o->check = c->check;
    snprintf(o->check_at, sizeof o->check_at, "%s", c->check_at);
    o->shapes_checked = c->shapes_checked;
    if (c->run_problem[0] && !o->run_problem[0])
        snprintf(o->run_problem, sizeof o->run_problem, "%s", c->run_problem);
    if (c->guards_broken)
        o->guards_intact = 0;
    o->recorded_run_correct = c->recorded_run_correct;
    o->check_s += c->seconds;
    note_input_changed(o, c->input_changed);
}

typedef struct trace_job trace_job; /* the trace beside the run (trace_start, below) */
static void trace_start(trace_job *j);

/* The correctness replay (and, unless switched off, the timing engine and the counters engine,
 * in the same child: one CUDA start for the three): a child whose outputs are checked
 * (check_outputs) on the graded problem and the lab's small check shapes. */
static void correctness_run(const gr_config *cfg, const lab_spec *spec, oc_outcome *o,
                            const lab_files *f, ch_early *early, ec_check *made, trace_job *tj)
{
    ch_request req = run_request(cfg, spec, f);
    rn_result r;
    ec_begin(made, spec, replay_seeds(cfg), f->replay[REPLAY_RUN], cfg->early_checks);
    /* Alone, where no lock keeps the trace out of the run child's measured sections, the trace
     * starts once the child says they are over: beside its replays at the check shapes. */
    int locked = cfg->gpu && cfg->gpu->lock_fd >= 0;
    if (early && tj && !locked && ch_measured(early))
        trace_start(tj);
    if ((early ? ch_finish(early, &r) : ch_run(cfg->worker, &req, &r)) != 0) {
        ec_end(made, NULL, NULL);
        snprintf(o->run_problem, sizeof o->run_problem, _("cannot start the grading child"));
        return;
    }
    int finished = note_child(cfg, &r, _("when its recorded launches were replayed: "), o);
    static wi_result res;
    char bad[512];
    int read = ch_read_result(f->replay[REPLAY_RUN], &res, bad, sizeof bad) == 0;
    ec_end(made, &r, read ? &res : NULL);
    if (finished && !read)
        snprintf(o->run_problem, sizeof o->run_problem,
                 _("the grading child's record is unusable: %.400s"), bad);
    rn_result_free(&r);
    if (read && res.has_run)
        note_input_changed(o, res.run.input_changed);
    if (read && res.has_run && res.run.launched) {
        o->ran = 1;
        o->guards_intact = res.run.guards_intact;
        o->useful_bytes = res.run.useful_bytes;
        o->least_bytes[0] = res.run.least_load_bytes;
        o->least_bytes[1] = res.run.least_store_bytes;
        if (finished && res.has_timing) {
            o->timed = 1;
            o->student_ms = res.timing.student.median_ms;
            o->student_bytes_per_s = res.timing.student.bytes_per_s;
            o->ceiling_bytes_per_s = res.timing.ceiling.bytes_per_s;
            snprintf(o->ceiling_kernel, sizeof o->ceiling_kernel, "%s", res.timing.ceiling_kernel);
            o->peak_bytes_per_s = di_peak_bytes_per_s(&res.device.info);
            o->l2_bytes = res.device.info.l2_bytes;
            o->baseline_ms = res.timing.has_baseline ? res.timing.baseline.median_ms : 0;
        }
    }
}

/* A measured replay (the trace's, the counters') saved what it computed in dir: it must be
 * right too, or the kernel computed otherwise while it was measured. Notes the first that is
 * not, as `how` ("while it was traced"). */
/* Opens name in dir for reading: a regular file, never through a link, never blocking. */
static FILE *open_output(const char *dir, const char *name, struct stat *st)
{
    char path[4500];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    FILE *f = NULL;
    if (fd >= 0 && fstat(fd, st) == 0 && S_ISREG(st->st_mode))
        f = fdopen(fd, "rb");
    if (fd >= 0 && !f)
        close(fd);
    return f;
}

int gr_same_outputs(const char *checked, const char *dir)
{
    DIR *d = opendir(checked);
    struct dirent *e;
    int same = d != NULL, files = 0;
    static char a[1 << 16], b[1 << 16];
    while (same && (e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".bin"))
            continue;
        struct stat sa, sb;
        FILE *fa = open_output(checked, e->d_name, &sa), *fb = open_output(dir, e->d_name, &sb);
        same = fa && fb && sa.st_size == sb.st_size;
        for (size_t got; same && (got = fread(a, 1, sizeof a, fa)) > 0;)
            same = fread(b, 1, got, fb) == got && !memcmp(a, b, got);
        same = same && !ferror(fa) && !ferror(fb);
        files++;
        if (fa)
            fclose(fa);
        if (fb)
            fclose(fb);
    }
    if (d)
        closedir(d);
    return same && files > 0;
}

static void check_measured(const gr_config *cfg, const lab_spec *spec, oc_outcome *o,
                           const char *checked, const char *dir, const cl_shape *shape,
                           const char *how)
{
    static wi_result res;
    char bad[512] = "";
    int read = ch_read_result(dir, &res, bad, sizeof bad) == 0 && res.has_run;
    if (read)
        note_input_changed(o, res.run.input_changed);
    if (o->measured_wrong[0])
        return;
    /* Bytes equal to the checked run's pass as it did; anything else (a reduction summed in
     * another order, a smaller problem) is checked against the CPU reference again. */
    if (read && res.run.guards_intact && gr_same_outputs(checked, dir))
        return;
    int rc = read
                 ? timed_check(spec, &o->check_s, dir, replay_seeds(cfg), shape, &o->measured_check)
                 : -1;
    if (read && rc == 0 && o->measured_check.passed && res.run.guards_intact)
        return;
    snprintf(o->measured_wrong, sizeof o->measured_wrong, "%s", how);
    if (!read || rc != 0)
        snprintf(o->measured_check.details, sizeof o->measured_check.details,
                 _("its outputs could not be checked: %.400s"),
                 read ? o->measured_check.details : bad);
    else if (o->measured_check.passed)
        snprintf(o->measured_check.details, sizeof o->measured_check.details,
                 _("it wrote outside its outputs (the guard bytes around them changed)"));
}

static oc_engine_state engine_state(wi_engine_status s)
{
    static const oc_engine_state states[] = {OC_ENGINE_OK, OC_ENGINE_NO_PERMISSION,
                                             OC_ENGINE_UNSUPPORTED, OC_ENGINE_FAILED};
    return states[s];
}

/* Adds up what the counters read over the lab's kernels. */
static void add_counters(oc_outcome *o, const wi_counters *c)
{
    size_t used = 0;
    for (int i = 0; i < c->nkernels; ++i) {
        const wi_counter_kernel *k = &c->kernels[i];
        o->load.requests += k->v[WI_LD_REQUESTS];
        o->load.sectors += k->v[WI_LD_SECTORS];
        o->load.bytes += k->v[WI_LD_BYTES];
        o->store.requests += k->v[WI_ST_REQUESTS];
        o->store.sectors += k->v[WI_ST_SECTORS];
        o->store.bytes += k->v[WI_ST_BYTES];
        o->shared_ld_requests += k->v[WI_SH_LD_REQUESTS];
        o->shared_st_requests += k->v[WI_SH_ST_REQUESTS];
        o->shared_ld_conflicts += k->v[WI_SH_LD_CONFLICTS];
        o->shared_st_conflicts += k->v[WI_SH_ST_CONFLICTS];
        const char *name = k->name;
        if (used < sizeof o->counters_kernels && name[strspn(name, "0123456789")] != '\0')
            used += (size_t)snprintf(o->counters_kernels + used, sizeof o->counters_kernels - used,
                                     "%s%s", used ? ", " : "", name);
    }
}

/* What the counters engine found in the run child (correctness_run): its record in
 * counters/, and the outputs it left, which must be right too. */
static void counters_result(const gr_config *cfg, const lab_spec *spec, oc_outcome *o,
                            const lab_files *f)
{
    static wi_result res;
    char bad[512];
    snprintf(bad, sizeof bad, "%s", _("no counters in the record"));
    if (ch_read_result(f->replay[REPLAY_COUNTERS], &res, bad, sizeof bad) != 0 ||
        !res.has_counters) {
        o->counters = OC_ENGINE_FAILED;
        snprintf(o->counters_why, sizeof o->counters_why, _("the counters left no record: %.400s"),
                 bad);
        return;
    }
    o->counters = engine_state(res.counters.status);
    snprintf(o->counters_why, sizeof o->counters_why, "%s", res.counters.why);
    add_counters(o, &res.counters);
    /* Their share of the run child's time, for the breakdown (none where the server or a
     * child of their own counted). */
    o->counters_s = (res.counters.setup_ms + res.counters.measure_ms) / 1e3;
    if (!served(cfg))
        o->run_s -= o->counters_s < o->run_s ? o->counters_s : 0;
    if (o->counters == OC_ENGINE_OK)
        check_measured(cfg, spec, o, f->replay[REPLAY_RUN], f->replay[REPLAY_COUNTERS],
                       &spec->shapes->graded, _("while the counters were read"));
}

/* Reads line number `line` of path into buf, without leading blanks and the newline. */
static void source_line(const char *path, unsigned line, char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    char text[1024];
    for (unsigned n = 1; f && fgets(text, sizeof text, f); ++n) {
        if (n == line) {
            char *p = text + strspn(text, " \t");
            p[strcspn(p, "\r\n")] = '\0';
            snprintf(buf, size, "%s", p);
            break;
        }
    }
    if (f)
        fclose(f);
}

/* Whether a and b name the same existing file. */
static int same_file(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

static void add_scaled(cl_tally *into, const cl_tally *t, double scale)
{
    into->requests += (uint64_t)(t->requests * scale + 0.5);
    into->sectors += (uint64_t)(t->sectors * scale + 0.5);
    into->lines += (uint64_t)(t->lines * scale + 0.5);
    into->unique_bytes += (uint64_t)(t->unique_bytes * scale + 0.5);
    into->ideal_sectors += (uint64_t)(t->ideal_sectors * scale + 0.5);
}

/* Keeps, across kernels, the load and the store that waste the most sectors (scaled). */
static void consider_worst(oc_outcome *o, const char *kernel, const ta_instruction *in,
                           double scale)
{
    double waste = (double)(in->tally.sectors - in->tally.ideal_sectors) * scale;
    oc_worst *w = &o->worst[in->is_store ? 1 : 0];
    if (w->found && waste <= w->waste)
        return;
    memset(w, 0, sizeof *w);
    w->found = 1;
    w->waste = waste;
    w->tally = in->tally;
    snprintf(w->kernel, sizeof w->kernel, "%.255s", kernel); /* shown only: cut to fit */
    snprintf(w->file, sizeof w->file, "%s", in->file);
    w->line = in->line;
    w->is_store = in->is_store;
    w->size = in->size;
    w->active = in->sample.active;
    for (int l = 0; l < CL_WARP_SIZE; ++l)
        w->addr[l] = (w->active >> l) & 1 ? in->sample.addr[l] : 0;
}

/* Adds up what the trace saw over the lab's kernels. A kernel's traced requests stand for
 * `scale` times as many: the tracer computes it launch by launch from the warps it sampled and
 * the records its buffer dropped. Kernels of one lab can differ in both, so tallies are scaled
 * before they are added up. */

/* A place the trace names (file, line), for the report: only the file that was compiled is
 * quoted (its line's text), under the name the student knows it by, since a #line directive can
 * name any file; any other is shown as it is. Both are stripped of terminal controls. */
int gr_names_student_source(const char *file, const char *source)
{
    static const char copy[] = "/src/kernel.cu";
    size_t n = strlen(file), k = sizeof copy - 1;
    return same_file(file, source) || (n > k && !strcmp(file + n - k, copy));
}

static void name_place(const gr_config *cfg, const lab_files *f, const oc_outcome *o, char *file,
                       size_t file_size, unsigned line, char *text, size_t text_size)
{
    if (gr_names_student_source(file, f->source)) {
        if (line)
            source_line(f->source, line, text, text_size);
        snprintf(file, file_size, "%.1000s", o->kernel_path);
    } else {
        shown_path(cfg, file);
    }
    wi_clean_text(file);
    wi_clean_text(text);
}

/* Keeps apart what the trace saw of instructions the counters do not count (global atomics,
 * generic-address accesses), so that the engines are compared on what both see. */
static void note_blind(oc_outcome *o, const ss_listing *l, const wi_trace_kernel *k, double scale)
{
    for (size_t j = 0; l && j < k->k.nins; ++j) {
        const ta_instruction *in = &k->k.ins[j];
        int cls = ss_class_at(l, k->k.name, (unsigned long)in->pc);
        if (cls == SS_GLOBAL_ATOMIC || cls == SS_GENERIC)
            add_scaled(&o->trace_blind[in->is_store ? 1 : 0], &in->tally, scale);
    }
}

static void add_trace(const gr_config *cfg, oc_outcome *o, const wi_trace *t, const lab_files *f)
{
    ss_listing *listing = gr_device_listing(f->keep);
    for (size_t i = 0; i < t->nkernels; ++i) {
        const wi_trace_kernel *k = &t->kernels[i];
        double scale = k->scale > 0 ? k->scale : 1.0;
        add_scaled(&o->trace_loads, &k->k.loads, scale);
        add_scaled(&o->trace_stores, &k->k.stores, scale);
        o->trace_records += (double)k->k.records;
        o->trace_dropped += (double)k->dropped;
        if (k->sample > o->trace_sample)
            o->trace_sample = k->sample;
        for (size_t j = 0; j < k->k.nins; ++j)
            consider_worst(o, k->k.name, &k->k.ins[j], scale);
        note_blind(o, listing, k, scale);
        if (k->oob_reads && !o->oob_reads) {
            snprintf(o->oob_kernel, sizeof o->oob_kernel, "%.255s", k->k.name);
            snprintf(o->oob_file, sizeof o->oob_file, "%s", k->oob_file);
            o->oob_line = k->oob_line;
        }
        o->oob_reads += (double)k->oob_reads;
    }
    if (o->oob_reads) {
        name_place(cfg, f, o, o->oob_file, sizeof o->oob_file, o->oob_line, o->oob_text,
                   sizeof o->oob_text);
        wi_clean_text(o->oob_kernel);
    }
    for (int i = 0; i < 2; ++i) {
        oc_worst *w = &o->worst[i];
        if (w->found)
            name_place(cfg, f, o, w->file, sizeof w->file, w->line, w->text, sizeof w->text);
        else
            shown_path(cfg, w->file);
    }
    ss_free(listing);
}

/* How the trace is tried: beside the warps it always traces (the edges of every block, and the
 * grid's first and last block: tr_edge, tracer_shared.h), one warp in 16 of the others (every
 * warp of a small grid) with room for 2^21 records a launch (590 MB of device memory; only the
 * records made are copied back); where a launch filled its buffer, again with one warp in 128
 * and room for 2^23 (2.4 GB: a grid of 32-thread blocks is all edges). A full buffer would
 * leave the rest of a launch unseen: when even the second try fills one, the trace is not used
 * (trace_collect), and the lab is not passed (decide.c, gate_remeasured). */
static const struct {
    unsigned sample, max_records;
} trace_tries[] = {{16, 1u << 21}, {128, 1u << 23}};

/* The trace runs on a thread of its own (it needs only the records and the device code, never
 * the replay's results): beside the correctness replay where a GPU lock keeps it out of the
 * replay's measured sections, else once the run child has measured (trace_begin). Its first try's
 * child is started with the lab (trace_early), to set itself up while the kernel is compiled and
 * recorded. Once the replay's outputs are there and checked, trace_end applies what it found
 * (or, where the run was wrong, stops its child and forgets it). What the thread finds goes
 * into the job's own outcome, `found`, of which only the trace's fields are taken; it never
 * touches the lab's. */
typedef struct trace_job {
    const gr_config *cfg;
    const lab_spec *spec;
    const lab_files *f;
    oc_outcome found; /* trace, trace_why, trace_s, trace_useful_bytes */
    wi_trace t;       /* the trace to apply, when have */
    int have;
    int trace_recorded;
    gl_lock gpu;   /* its own lock on the GPU lock's files: the two threads' are apart */
    int stop[2];   /* a byte written to stop[1] stops its child: the trace is not wanted */
    int ready;     /* its lock and its stop pipe are there: it can run on its thread */
    int can;       /* trace_can_run: 0 not asked yet, 1 it can, -1 it cannot (found says why) */
    double wall_s; /* from its start to its end */
    pthread_t thread;
    int beside;        /* it runs on its thread (else trace_end runs it, when it is wanted) */
    ch_early *early;   /* the first try's child, started with the lab; NULL: none (any more) */
    int went;          /* early was told to go on */
    int ended;         /* trace_end is done */
    uint64_t key;      /* which warps it samples: from the seed and the submitted file */
    char env[7][4600]; /* the first try's environment, which early's request points to */
    const char *envp[8];
} trace_job;

/* The trace's sampling key: the seed mixed with the submitted file's bytes (FNV-1a), so that
 * the same file and seed always sample the same warps, and a file cannot hold the key that
 * its own bytes give. */
static uint64_t trace_key(uint64_t seed, const char *source)
{
    size_t n = 0;
    char why[256];
    char *bytes = wi_read_bytes(source, MAX_SOURCE_BYTES, &n, why, sizeof why);
    uint64_t h = sd_fnv1a(bytes ? bytes : "", bytes ? n : 0) ^ seed;
    free(bytes);
    return sd_mix64(sd_mix64(h + SD_GAMMA) + SD_GAMMA); /* splitmix64's step, twice */
}

/* The traced child's environment for a try (one warp in sample, room for max_records records
 * a launch, the sampling key), in bufs, pointed to by env; the replays' data salt with it.
 * The trace's file is named relative to the replays' folder, where the child runs. */
static void trace_env(const gr_config *cfg, unsigned sample, unsigned max_records, uint64_t key,
                      char bufs[7][4600], const char *env[8])
{
    snprintf(bufs[0], sizeof bufs[0], "%s=%s/%s", WI_ENV_INJECTION, cfg->tracer_dir, WI_TRACER_LIB);
    snprintf(bufs[1], sizeof bufs[1], "%s=%s/%s", WI_ENV_TRACE_PATCHES, cfg->tracer_dir,
             WI_TRACER_PATCH);
    snprintf(bufs[2], sizeof bufs[2], "%s=%s/%s", WI_ENV_TRACE_OUT, replay_names[REPLAY_TRACE],
             WI_TRACE_FILE);
    snprintf(bufs[3], sizeof bufs[3], "%s=%u", WI_ENV_TRACE_SAMPLE, sample);
    snprintf(bufs[4], sizeof bufs[4], "%s=%u", WI_ENV_TRACE_MAX_RECORDS, max_records);
    snprintf(bufs[5], sizeof bufs[5], "%s=%016llx", WI_ENV_TRACE_KEY, (unsigned long long)key);
    salt_entry(cfg->salt, bufs[6], sizeof bufs[6]);
    for (int i = 0; i < 7; ++i)
        env[i] = bufs[i];
    env[7] = NULL;
}

static ch_request trace_request(trace_job *j, const char **env)
{
    ch_request req = replay_request(j->cfg, j->spec, j->f, WI_TRACE, j->cfg->trace_timeout_s);
    req.env = env;
    req.gpu = j->gpu.lock_fd >= 0 ? &j->gpu : j->cfg->gpu; /* its own, where it runs beside */
    req.stop_fd = j->stop[0] >= 0 ? &j->stop[0] : NULL;
    return req;
}

/* Runs the traced child once (try i of trace_tries: the child started early, for the first);
 * 0 with *t filled when it ran. */
static int trace_child(trace_job *j, size_t i, wi_trace *t, char *why, size_t why_size)
{
    const gr_config *cfg = j->cfg;
    oc_outcome *o = &j->found;
    const lab_files *f = j->f;
    char out[4400], bufs[7][4600];
    const char *env[8];
    snprintf(out, sizeof out, "%s/%s", f->replay[REPLAY_TRACE], WI_TRACE_FILE);
    trace_env(cfg, trace_tries[i].sample, trace_tries[i].max_records, j->key, bufs, env);
    ch_request req = trace_request(j, env);
    ch_early *early = i == 0 ? j->early : NULL;
    j->early = i == 0 ? NULL : j->early;
    if (!early)
        remove(out);
    rn_result r;
    if ((early ? ch_finish(early, &r) : ch_run(cfg->worker, &req, &r)) != 0) {
        o->trace = OC_ENGINE_FAILED;
        snprintf(o->trace_why, sizeof o->trace_why, _("cannot start the grading child"));
        return -1;
    }
    o->trace_s += r.elapsed_s;
    static wi_result res;
    char bad[512];
    if (ch_read_result(f->replay[REPLAY_TRACE], &res, bad, sizeof bad) == 0 && res.has_run) {
        o->trace_useful_bytes = res.run.useful_bytes;
        o->trace_least_bytes[0] = res.run.least_load_bytes;
        o->trace_least_bytes[1] = res.run.least_store_bytes;
    }
    cJSON *json = wi_read_file(out, why, why_size);
    int rc = json ? wi_trace_from_json(json, t, why, why_size) : -1;
    cJSON_Delete(json);
    int finished = r.status == RN_EXITED && r.exit_code == 0;
    if (rc == 0 && *t->error) {
        o->trace = OC_ENGINE_FAILED;
        snprintf(o->trace_why, sizeof o->trace_why, "%s", t->error);
    } else if (rc != 0 && finished) {
        o->trace = OC_ENGINE_FAILED;
        snprintf(o->trace_why, sizeof o->trace_why,
                 _("the tracer wrote no results (is the driver new enough for this toolkit's "
                   "Compute Sanitizer?): %s%s%.200s"),
                 why, r.output_len ? ": " : "", r.output ? r.output : "");
    } else if (!finished) {
        o->trace = OC_ENGINE_RUN_FAILED;
        ch_explain(&r, cfg->trace_timeout_s, o->trace_why, sizeof o->trace_why);
    } else {
        o->trace = OC_ENGINE_OK;
    }
    rn_result_free(&r);
    return o->trace == OC_ENGINE_OK ? 0 : -1;
}

static uint64_t dropped(const wi_trace *t)
{
    uint64_t n = 0;
    for (size_t i = 0; i < t->nkernels; ++i)
        n += t->kernels[i].dropped;
    return n;
}

/* Whether every kernel launched on the smaller problem is one the full-size run launched, and
 * the other way round: the trace must measure the kernels that were checked and timed. */
static int same_kernels(const wi_record *a, const wi_record *b, char *which, size_t size)
{
    for (int pass = 0; pass < 2; ++pass) {
        const wi_record *x = pass ? b : a, *y = pass ? a : b;
        for (uint32_t i = 0; i < x->nops; ++i) {
            int found = x->ops[i].kind != WI_OP_LAUNCH;
            for (uint32_t j = 0; !found && j < y->nops; ++j)
                found =
                    y->ops[j].kind == WI_OP_LAUNCH && !strcmp(x->ops[i].kernel, y->ops[j].kernel);
            if (!found) {
                snprintf(which, size, "%s", x->ops[i].kernel);
                return 0;
            }
        }
    }
    return 1;
}

static int have_tracer(const gr_config *cfg)
{
    char lib[4200], patches[4200];
    snprintf(lib, sizeof lib, "%s/%s", cfg->tracer_dir, WI_TRACER_LIB);
    snprintf(patches, sizeof patches, "%s/%s", cfg->tracer_dir, WI_TRACER_PATCH);
    return access(lib, R_OK) == 0 && access(patches, R_OK) == 0;
}

/* Whether the trace can run on what was recorded; where not, j->found says why. */
static int trace_can_run(trace_job *j)
{
    if (j->can)
        return j->can > 0;
    oc_outcome *o = &j->found;
    char which[256];
    j->can = -1;
    if (!have_tracer(j->cfg)) {
        o->trace = OC_ENGINE_UNSUPPORTED;
        snprintf(o->trace_why, sizeof o->trace_why,
                 _("this grader was built without the Compute Sanitizer API (it comes with the "
                   "CUDA Toolkit, in compute-sanitizer/); rebuild where the toolkit has it"));
    } else if (j->trace_recorded &&
               !same_kernels(&full_record, &small_record, which, sizeof which)) {
        o->trace = OC_ENGINE_RUN_FAILED;
        snprintf(o->trace_why, sizeof o->trace_why,
                 _("on the smaller problem the trace runs, the launcher launched other kernels "
                   "than at full size ('%.200s' in one and not the other); the trace must see the "
                   "kernels that are checked and timed"),
                 which);
        wi_clean_text(o->trace_why);
    } else {
        j->can = 1;
    }
    return j->can > 0;
}

/* The trace's tries (trace_tries), into j: the trace to apply in j->t, or why there is none
 * in j->found. */
static void trace_collect(trace_job *j)
{
    double start = rn_now_s();
    const gr_config *cfg = j->cfg;
    oc_outcome *o = &j->found;
    progress(cfg, _("[%s] tracing the kernel's memory accesses (Compute Sanitizer)\n"),
             j->spec->id);
    size_t ntries = sizeof trace_tries / sizeof trace_tries[0];
    for (size_t i = 0; i < ntries; ++i) {
        wi_trace t;
        memset(&t, 0, sizeof t);
        char why[512] = "";
        int ok = trace_child(j, i, &t, why, sizeof why) == 0;
        int full = ok && dropped(&t) > 0 && i + 1 < ntries;
        if (ok && !full && dropped(&t) > 0) {
            /* Even the sparsest try left part of a launch unseen: a partial trace would grade
             * only what came first, so the trace is not used (the counters still may be). */
            o->trace = OC_ENGINE_RUN_FAILED;
            snprintf(o->trace_why, sizeof o->trace_why,
                     _("its kernels made more memory accesses than the trace can hold, even "
                       "watching one warp in %u (%llu records did not fit); the labs' kernels need "
                       "a small part of that"),
                     trace_tries[i].sample, (unsigned long long)dropped(&t));
        } else if (ok && !full) {
            j->t = t; /* kept for trace_end */
            j->have = 1;
            break;
        }
        wi_trace_free(&t);
        if (!full)
            break;
    }
    j->wall_s = rn_now_s() - start;
}

static void *trace_thread(void *arg)
{
    trace_collect(arg);
    return NULL;
}

/* A trace for spec, not started: its own handle on the GPU lock and the pipe that can stop its
 * child (where there are none, it cannot run on a thread: trace_end runs it, when wanted). */
static void trace_init(const gr_config *cfg, const lab_spec *spec, const lab_files *f, trace_job *j)
{
    memset(j, 0, sizeof *j);
    j->cfg = cfg;
    j->spec = spec;
    j->f = f;
    j->gpu = GL_NONE;
    j->stop[0] = j->stop[1] = -1;
    if (cfg->gpu && gl_open(cfg->gpu, &j->gpu) != 0)
        return;
    j->ready = pipe2(j->stop, O_CLOEXEC) == 0;
    if (!j->ready)
        j->stop[0] = j->stop[1] = -1;
}

/* The first try's child, started now (with the lab, before its compile) in the folder waiting:
 * it sets itself up and waits for trace_start. */
static void trace_early(trace_job *j, const char *waiting)
{
    if (!j->ready || !have_tracer(j->cfg))
        return;
    trace_env(j->cfg, trace_tries[0].sample, trace_tries[0].max_records, j->key, j->env, j->envp);
    ch_request req = trace_request(j, j->envp);
    req.cwd = waiting;
    j->early = ch_start_early(j->cfg->worker, &req, early_wait_s(j->cfg));
}

/* Lets the trace go on: its early child told where the replays' folder is, its tries on their
 * thread (else trace_end runs them). */
static void trace_start(trace_job *j)
{
    if (!trace_can_run(j))
        return;
    if (j->early && !j->went)
        ch_go(j->early, j->f->run);
    j->went = 1;
    if (j->ready)
        j->beside = pthread_create(&j->thread, NULL, trace_thread, j) == 0;
}

/* Readies the trace once the replays' folder is there, and starts it beside the correctness
 * replay where a GPU lock keeps it out of the replay's measured sections (labs graded side by
 * side, or in a batch): the run child then waits for the trace to give the GPU up before it
 * times and counts. Without a lock nothing would, so the trace waits until the run child says
 * that its measured sections are over (correctness_run), or has ended (check_and_measure). */
static void trace_begin(const gr_config *cfg, const oc_outcome *o, trace_job *j)
{
    j->trace_recorded = o->trace_recorded;
    if (cfg->gpu && cfg->gpu->lock_fd >= 0)
        trace_start(j);
}

/* Ends the trace: where it is wanted (the run was right), waits for it (or runs it now) and
 * applies what it found to o; where not, stops its child and forgets it. */
static void trace_end(trace_job *j, int wanted, oc_outcome *o)
{
    if (j->ended)
        return;
    j->ended = 1;
    if (!wanted && j->stop[1] >= 0) {
        ssize_t n = write(j->stop[1], "", 1); /* failing, the child runs to its end: time lost */
        (void)n;
    }
    if (j->beside) {
        pthread_join(j->thread, NULL);
    } else if (wanted && trace_can_run(j)) {
        if (j->early && !j->went)
            ch_go(j->early, j->f->run);
        j->went = 1;
        trace_collect(j);
    }
    if (j->early) { /* never needed: stopped, or never told to go on */
        rn_result r;
        if (ch_finish(j->early, &r) == 0)
            rn_result_free(&r);
        j->early = NULL;
    }
    for (int i = 0; i < 2; ++i)
        if (j->stop[i] >= 0)
            close(j->stop[i]);
    j->stop[0] = j->stop[1] = -1;
    gl_close(&j->gpu);
    o->trace_wall_s = j->wall_s;
    if (wanted) {
        o->trace = j->found.trace;
        snprintf(o->trace_why, sizeof o->trace_why, "%s", j->found.trace_why);
        o->trace_s = j->found.trace_s;
        o->trace_useful_bytes = j->found.trace_useful_bytes;
        memcpy(o->trace_least_bytes, j->found.trace_least_bytes, sizeof o->trace_least_bytes);
    }
    if (wanted && j->have) {
        add_trace(j->cfg, o, &j->t, j->f);
        check_measured(j->cfg, j->spec, o, j->f->replay[REPLAY_RUN], j->f->replay[REPLAY_TRACE],
                       &j->spec->shapes->traced, _("while it was traced"));
        o->trace_smaller = o->trace_useful_bytes > 0 && o->trace_useful_bytes < o->useful_bytes;
    }
    if (j->have)
        wi_trace_free(&j->t);
}

/* A step of the lab's grading done, in GRADE_LOCK_LOG's timeline beside its children's steps
 * (gpulock.h): where a lab graded alone waits, for tests/gpu/lock_timeline.py. The tag is set
 * each time: a child run for its lock (child.c) names the process after it meanwhile. */
static void step_done(const lab_spec *spec, const char *name)
{
    char tag[64];
    snprintf(tag, sizeof tag, "grade %s", spec->id);
    gl_tag(tag);
    gl_phase(name);
}

/* The CPU checks of the correctness run, with the trace going on beside them (started with the
 * replay, or now), then the engines, which count for a correct run only: what the counters found
 * in the run child and the trace's findings. The trace of a wrong run is stopped and
 * forgotten. */
static void check_and_measure(const gr_config *cfg, const lab_spec *spec, oc_outcome *o,
                              const lab_files *f, const ec_check *made, trace_job *tj)
{
    progress(cfg, _("[%s] checking the outputs against the CPU reference\n"), spec->id);
    int clean = !o->run_problem[0] && o->guards_intact;
    if (tj && !tj->went && clean)
        trace_start(tj); /* the run child has ended: nothing is measured beside it now */
    static checks found;
    check_outputs(cfg, spec, f, clean, made, &found);
    apply_checks(o, &found);
    step_done(spec, "checks");
    int correct = o->check_ok && o->check.passed && !o->run_problem[0] && o->guards_intact;
    if (correct && cfg->counters) { /* read, and their outputs compared, while the trace runs */
        served_counts(cfg, spec, f);
        counters_result(cfg, spec, o, f);
        step_done(spec, "counters");
    }
    forget_counts(cfg, o);
    if (tj) {
        trace_end(tj, correct, o);
        step_done(spec, "trace");
    }
}

/* Everything after the compile, each step only when the one before went well: the scan of the
 * device code, the recording, the correctness replay, its checks and the engines. The replays
 * started with the lab (*run_early, tj's first try) are told to go on once their folder is
 * made; what is not used here, gr_grade_lab ends. */
static void run_compiled(const gr_config *cfg, const lab_spec *spec, oc_outcome *o, lab_files *f,
                         const void *image, size_t image_size, record_job *rec,
                         ch_early **run_early, trace_job *tj)
{
    gr_scan_device_code(cfg, spec, f->keep, o);
    if (o->refused[0] || o->run_problem[0])
        return; /* refused as compiled: its host code never runs */
    double t = rn_now_s();
    int recorded = record_run(cfg, spec, o, f, rec) == 0;
    o->record_s = rn_now_s() - t;
    step_done(spec, "record");
    if (!recorded || o->refused[0])
        return;
    if (prepare_replays(spec, o, f, image, image_size) != 0) {
        snprintf(o->run_problem, sizeof o->run_problem, _("cannot prepare the replays' folder"));
        return;
    }
    ask_counts(cfg, spec, f);
    t = rn_now_s();
    progress(cfg, _("[%s] replaying the launches (correctness%s)\n"), spec->id,
             cfg->timing && cfg->counters ? _(", then timing and the hardware counters (CUPTI)")
             : cfg->timing                ? _(", then timing")
             : cfg->counters              ? _(", then the hardware counters (CUPTI)")
                                          : "");
    /* The trace's child started early must have set itself up before the run child measures:
     * nothing else keeps the two apart when a lab is graded alone. One still setting up is
     * stopped (the trace then starts in its turn). */
    if (*run_early && tj && tj->early && !ch_ready(tj->early, WI_GPU_WAIT_S)) {
        rn_result r;
        if (ch_finish(tj->early, &r) == 0)
            rn_result_free(&r);
        tj->early = NULL;
    }
    if (*run_early)
        ch_go(*run_early, f->run);
    if (tj)
        trace_begin(cfg, o, tj);
    ch_early *early = *run_early;
    *run_early = NULL; /* correctness_run ends it */
    static ec_check made;
    correctness_run(cfg, spec, o, f, early, &made, tj);
    o->run_s = rn_now_s() - t;
    step_done(spec, "run");
    if (o->ran)
        check_and_measure(cfg, spec, o, f, &made, tj);
}

/* The work folder's files of a lab's grading (lab_files), for workdir. */
static void files_in(const char *workdir, lab_files *f)
{
    memset(f, 0, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "%s", workdir);
    snprintf(f->src, sizeof f->src, "%s/src", workdir);
    snprintf(f->source, sizeof f->source, "%s/kernel.cu", f->src);
    snprintf(f->so, sizeof f->so, "%s/kernel.so", workdir);
    snprintf(f->keep, sizeof f->keep, "%s/keep", workdir);
    snprintf(f->rec, sizeof f->rec, "%s/rec", workdir);
}

int gr_precompile(const gr_config *cfg, const lab_spec *spec, const char *workdir)
{
    static oc_outcome o;
    memset(&o, 0, sizeof o);
    o.spec = spec;
    snprintf(o.workdir, sizeof o.workdir, "%s", workdir);
    snprintf(o.kernel_path, sizeof o.kernel_path, "%s", cfg->kernel ? cfg->kernel : "");
    static lab_files f;
    files_in(workdir, &f);
    int rc = cfg->compile_cache && cfg->kernel && make_dir(workdir) == 0 &&
                     isolate_source(cfg, spec, cfg->kernel, &f, &o) == 0 &&
                     compile_kernel(cfg, spec, &o, &f, 0) == 0
                 ? 0
                 : -1;
    oc_free(&o);
    return rc;
}

pid_t gr_compile_ahead(const gr_config *cfg, const lab_spec *spec, const char *dir,
                       const char *kernel, const char *text, size_t size)
{
    if (!cfg->compile_cache)
        return 0;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        char submitted[4300], labdir[4300];
        snprintf(submitted, sizeof submitted, "%s/submitted.cu", dir);
        snprintf(labdir, sizeof labdir, "%s/lab", dir);
        gr_config c = *cfg;
        c.kernel = text ? submitted : kernel;
        c.progress = NULL;
        c.cwd = NULL;
        int ready = make_dir(dir) == 0;
        if (ready && text) {
            int fd = open(submitted, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            ready = fd >= 0 && write(fd, text, size) == (ssize_t)size;
            if (fd >= 0 && close(fd) != 0)
                ready = 0;
        }
        if (ready)
            gr_precompile(&c, spec, labdir);
        gr_remove_tree(dir);
        _exit(0);
    }
    if (pid > 0 && rn_spare(pid) == 0)
        return pid;
    if (pid > 0)
        waitpid(pid, NULL, 0); /* nothing spares it: not ahead, then */
    return 0;
}

void gr_wait_ahead(pid_t pid)
{
    if (pid <= 0)
        return;
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    rn_unspare(pid);
}

size_t gr_compiles_ahead(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN) - 1;
    return n < 1 ? 1 : n > 8 ? 8 : (size_t)n;
}

/* A lab's CPU references of its graded problem and of the smaller one it traces, made on a
 * thread while the kernel is recorded and replayed: its checks then take them ready-made
 * (lab_reference). */
typedef struct reference_job {
    const lab_spec *spec;
    sd_seeds seeds;
    sd_seeds recorded; /* the recording's, whose run a lab that sets its problem up checks */
    int traced;        /* the trace runs */
    pthread_t thread;
    int started;
} reference_job;

static void *reference_thread(void *arg)
{
    const reference_job *r = arg;
    const cl_shapes *shapes = r->spec->shapes;
    lab_reference(r->spec->reference, r->seeds, &shapes->graded);
    if (r->traced && cl_traced_smaller(shapes)) /* the trace's outputs are checked too */
        lab_reference(r->spec->reference, r->seeds, &shapes->traced);
    if (r->spec->student_setup) /* the recording's own run is checked too, on its arrays */
        lab_reference(r->spec->reference, r->recorded, &shapes->graded);
    return NULL;
}

static void reference_begin(const gr_config *cfg, const lab_spec *spec, reference_job *r)
{
    r->spec = spec;
    r->seeds = replay_seeds(cfg);
    r->recorded = record_seeds(cfg);
    r->traced = cfg->trace;
    r->started = spec->reference && spec->shapes &&
                 pthread_create(&r->thread, NULL, reference_thread, r) == 0;
}

static void reference_end(reference_job *r)
{
    if (r->started)
        pthread_join(r->thread, NULL);
    r->started = 0;
    lab_forget_references(); /* a lab's are its own: the next may have another seed */
}

/* The lab's compile started before the probe (cfg->compiling, main.c), waited for: its
 * outputs are then in the cache the lab's compile looks in. Returns 1 where it was still at it
 * (its "compiling" line printed here), 0 otherwise. */
static int await_early_compile(const gr_config *cfg, const lab_spec *spec, const oc_outcome *o)
{
    if (!cfg->compiling || !*cfg->compiling)
        return 0;
    siginfo_t si = {0};
    int running = waitid(P_PID, (id_t)*cfg->compiling, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                  si.si_pid == 0;
    if (running)
        progress(cfg, _("[%s] compiling %s\n"), spec->id, o->kernel_path);
    gr_wait_ahead(*cfg->compiling);
    *cfg->compiling = 0;
    return running;
}

void gr_grade_lab(const gr_config *cfg, const lab_spec *spec, const char *workdir, oc_outcome *o)
{
    double start = rn_now_s();
    step_done(spec, "start");
    memset(o, 0, sizeof *o);
    o->spec = spec;
    snprintf(o->workdir, sizeof o->workdir, "%s", workdir);
    lab_set_poison(cfg->poison); /* what the checks count as never written */
    char source[4096];
    if (cfg->kernel)
        snprintf(source, sizeof source, "%s", cfg->kernel);
    else
        gr_default_kernel(cfg, spec, source, sizeof source);
    snprintf(o->kernel_path, sizeof o->kernel_path, "%s", source);
    shown_path(cfg, o->kernel_path); /* as a student would type it */

    static lab_files f;
    files_in(workdir, &f);
    char fatbin[4300], why[256];
    snprintf(fatbin, sizeof fatbin, "%s/kernel.fatbin", f.keep);
    void *image = NULL;
    size_t image_size = 0;
    /* The replays start with the lab, to start CUDA and set the lab's problem up while the
     * kernel is compiled and recorded; they wait in a folder of their own (where what a child
     * writes before its go goes nowhere) for theirs (run_compiled), and see nothing of the
     * student's before it. The recording starts with them and makes its CUDA context; it
     * loads the student's code at its go (record_early). */
    static trace_job tj;
    ch_early *run_early = NULL;
    if (cfg->trace) {
        trace_init(cfg, spec, &f, &tj);
        tj.key = trace_key(cfg->seed, source);
    }
    static record_job rec;
    record_init(cfg, spec, &f, &rec);
    static reference_job rj;
    rj.started = 0;
    char waiting[4300];
    snprintf(waiting, sizeof waiting, "%s/waiting", workdir);
    if (make_dir(workdir) != 0) {
        o->compile_log = strdup(_("cannot create the work directory\n"));
    } else {
        /* Only for a lab graded alone: beside other gradings the GPU is busy anyway (and a
         * batch compiles ahead), and two children more each made waits for the lock run out
         * (tests/gpu/RESULTS.md, tenth session). And only where the recording, which runs
         * while they wait, can neither signal them nor open their descriptors (Landlock:
         * ptrace-scoped always, signals from ABI 6). */
        int alone = !cfg->gpu || cfg->gpu->lock_fd < 0;
        int shielded = cfg->confine_recording && sb_abi() >= 6;
        if (cfg->early_replays && alone && shielded && make_dir(waiting) == 0) {
            ch_request req = run_request(cfg, spec, &f);
            req.cwd = waiting;
            run_early = ch_start_early(cfg->worker, &req, early_wait_s(cfg));
            if (cfg->trace)
                trace_early(&tj, waiting);
            if (cfg->early_recording)
                record_early(cfg, &f, &rec);
        }
        int announced = await_early_compile(cfg, spec, o);
        int compiled = isolate_source(cfg, spec, source, &f, o) == 0 &&
                       compile_kernel(cfg, spec, o, &f, announced) == 0;
        /* nvcc's messages (as it wrote them, and as the cache keeps them) name the student's
         * file as the student knows it. */
        o->compile_log = with_student_path(o->compile_log, o->kernel_path);
        step_done(spec, "compile");
        if (compiled) {
            /* The CPU reference of the graded problem, on a thread while the kernel is
             * recorded and replayed (lab_reference). */
            reference_begin(cfg, spec, &rj);
            /* The device code, kept in the grader's memory before any student code runs. */
            image = wi_read_bytes(fatbin, (size_t)64 << 20, &image_size, why, sizeof why);
            if (!image)
                snprintf(o->run_problem, sizeof o->run_problem,
                         _("nvcc left no device code to replay ('%.400s')"), fatbin);
            else
                run_compiled(cfg, spec, o, &f, image, image_size, &rec, &run_early,
                             cfg->trace ? &tj : NULL);
        }
    }
    ch_early *unused[] = {run_early, rec.early};
    for (int i = 0; i < 2; ++i) { /* never told to go on: stopped */
        rn_result r;
        if (unused[i] && ch_finish(unused[i], &r) == 0)
            rn_result_free(&r);
    }
    rec.early = NULL;
    gr_leftovers_remove(&rec.shm); /* a recording started early but never run, too */
    forget_counts(cfg, o);
    if (cfg->trace)
        trace_end(&tj, 0, o);
    reference_end(&rj);
    free(image);
    o->total_s = rn_now_s() - start;
    gr_decide(o);
    step_done(spec, "end");
}
