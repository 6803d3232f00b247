/*
 * pool.h - gradings side by side: each in a process of its own (forked: the grader's code and
 * tables, nothing of a student's), a few at once, sharing the GPU through a GPU lock
 * (gpulock.h) that keeps the timing's and the counters' measured sections alone on it. What a
 * grading found comes back as a file (pool_save_outcome), read where it ended.
 */
#ifndef CL_POOL_H
#define CL_POOL_H

#include <stddef.h>

#include "devinfo.h"
#include "gpulock.h"
#include "outcome.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How many labs this machine grades at once: one for every two cores this process may use and
 * every 8 GiB of the GPU's memory, at most 8; 1 (one after another, no lock) where it has less.
 * GRADE_JOBS, where set to a number from 1 to 64, wins. */
unsigned pool_slots(const di_info *dev);

/* The cores this process may use (its affinity: a Slurm task's share, say), at least 1. */
unsigned pool_cores(void);

/* Runs job(ctx, i, gpu) for i in [0, n), each in a child process of its own, at most slots at
 * once, in order of i; gpu is the child's own lock on the files of lock (GL_NONE when lock is
 * NULL). done(ctx, i, status) runs here as each ends, status its exit code (job's return
 * value), or -1 when it did not exit (a crash of the grader's own code); once done returns
 * nonzero, no job is started after it (those running are waited for). Returns 0, or -1 when a
 * child could not be started (done gets -1 for it). */
int pool_run(size_t n, unsigned slots, const gl_lock *lock,
             int (*job)(void *ctx, size_t i, gl_lock *gpu),
             int (*done)(void *ctx, size_t i, int status), void *ctx);

/* Writes o, and the strings it owns, to path; 0, or -1. */
int pool_save_outcome(const char *path, const oc_outcome *o);
/* Reads what pool_save_outcome wrote (in this program: the same layout) into *o, which then
 * owns its strings (oc_free); 0, or -1 when the file is missing or short. */
int pool_load_outcome(const char *path, oc_outcome *o);

#ifdef __cplusplus
}
#endif

#endif
