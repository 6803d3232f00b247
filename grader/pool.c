/* pool.c - see pool.h. */
#define _GNU_SOURCE
#include "pool.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"

unsigned pool_cores(void)
{
    cpu_set_t set; /* the cores this process may use (a Slurm task's, say), not the machine's */
    long n = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                         : sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
}

unsigned pool_slots(const di_info *dev)
{
    const char *env = getenv("GRADE_JOBS");
    if (env && *env) {
        char *end;
        long v = strtol(env, &end, 10);
        if (!*end && v >= 1 && v <= 64)
            return (unsigned)v;
    }
    long cores = (long)pool_cores();
    size_t by_memory = dev->global_bytes / ((size_t)8 << 30);
    size_t n = cores > 1 ? (size_t)cores / 2 : 1;
    n = n < by_memory ? n : by_memory;
    return n < 1 ? 1 : n > 8 ? 8 : (unsigned)n;
}

static pid_t start(size_t i, const gl_lock *lock, int (*job)(void *, size_t, gl_lock *), void *ctx)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    /* The grading's own children stop with it, and it with the grader. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    rn_adopt_orphans();
    gl_lock own = GL_NONE;
    if (lock && gl_open(lock, &own) != 0)
        _exit(125);
    int status = job(ctx, i, &own);
    fflush(NULL);
    rn_kill_orphans();
    _exit(status);
}

int pool_run(size_t n, unsigned slots, const gl_lock *lock,
             int (*job)(void *ctx, size_t i, gl_lock *gpu),
             int (*done)(void *ctx, size_t i, int status), void *ctx)
{
    pid_t *pid = calloc(n ? n : 1, sizeof *pid);
    if (!pid)
        return -1;
    int rc = 0;
    size_t next = 0, running = 0, ended = 0;
    int stop = 0;
    slots = slots ? slots : 1;
    while (ended < n) {
        if (stop && running == 0)
            break; /* the rest is never started */
        while (!stop && next < n && running < slots) {
            pid[next] = start(next, lock, job, ctx);
            if (pid[next] > 0 && rn_spare(pid[next]) != 0) {
                /* Nothing spares it from the runner's clean-up of orphans (too many spared):
                 * it is waited for here, before anything else runs. */
                int st;
                while (waitpid(pid[next], &st, 0) < 0 && errno == EINTR)
                    ;
                pid[next] = 0;
                stop |= done(ctx, next, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
                ended++;
            } else if (pid[next] > 0) {
                running++;
            } else {
                rc = -1;
                stop |= done(ctx, next, -1);
                ended++;
            }
            next++;
        }
        int any = 0;
        for (size_t i = 0; i < next; ++i) {
            int st;
            if (pid[i] <= 0 || waitpid(pid[i], &st, WNOHANG) != pid[i])
                continue;
            rn_unspare(pid[i]);
            pid[i] = 0;
            running--;
            ended++;
            any = 1;
            stop |= done(ctx, i, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        }
        if (!any && ended < n) {
            struct timespec pause = {0, 2000000}; /* 2 ms */
            nanosleep(&pause, NULL);
        }
    }
    free(pid);
    return rc;
}

/* ---- the outcome, as a file ---- */

static int put_string(FILE *f, const char *s)
{
    uint64_t len = s ? strlen(s) : UINT64_MAX;
    return fwrite(&len, sizeof len, 1, f) == 1 && (!s || fwrite(s, 1, len, f) == len) ? 0 : -1;
}

static int get_string(FILE *f, char **s)
{
    uint64_t len;
    *s = NULL;
    if (fread(&len, sizeof len, 1, f) != 1)
        return -1;
    if (len == UINT64_MAX)
        return 0;
    if (len > ((uint64_t)1 << 30) || !(*s = malloc(len + 1)))
        return -1;
    if (fread(*s, 1, len, f) != len) {
        free(*s);
        *s = NULL;
        return -1;
    }
    (*s)[len] = '\0';
    return 0;
}

int pool_save_outcome(const char *path, const oc_outcome *o)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    int64_t blamed = o->blamed ? (int64_t)(o->blamed - o->worst) : -1;
    int ok = fwrite(o, sizeof *o, 1, f) == 1 && fwrite(&blamed, sizeof blamed, 1, f) == 1 &&
             put_string(f, o->compile_log) == 0 && put_string(f, o->run_log) == 0;
    return fclose(f) == 0 && ok ? 0 : -1;
}

int pool_load_outcome(const char *path, oc_outcome *o)
{
    FILE *f = fopen(path, "rb");
    memset(o, 0, sizeof *o);
    if (!f)
        return -1;
    int64_t blamed = -1;
    int ok = fread(o, sizeof *o, 1, f) == 1 && fread(&blamed, sizeof blamed, 1, f) == 1;
    o->compile_log = o->run_log = NULL; /* the writer's pointers */
    ok = ok && get_string(f, &o->compile_log) == 0 && get_string(f, &o->run_log) == 0;
    o->blamed = ok && blamed >= 0 && blamed < 2 ? &o->worst[blamed] : NULL;
    fclose(f);
    if (!ok) {
        oc_free(o);
        memset(o, 0, sizeof *o);
        return -1;
    }
    return 0;
}
