/*
 * child.h - the grader's side of the grading child (grade-worker): start it for one mode with
 * the wire's command line (wire.h), read back its record, and explain how it ended in words
 * for a student. It runs through the runner (runner.h): its own process group, a time limit,
 * capped output.
 */
#ifndef CL_CHILD_H
#define CL_CHILD_H

#include <stddef.h>
#include <sys/types.h>

#include "gpulock.h"
#include "runner.h"
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ch_request {
    wi_args args;                    /* the mode, lab, kernel, work folder, seed and flags */
    double timeout_s;                /* the wall-clock limit of this child */
    const char **env;                /* "NAME=value" entries added to its environment, or NULL */
    const struct sb_policy *sandbox; /* confines it (sandbox.h); NULL: unconfined */
    size_t max_data_bytes;           /* its RLIMIT_DATA; 0: none */
    size_t max_file_bytes;           /* its RLIMIT_FSIZE; 0: none */
    /* The GPU lock of labs graded side by side (this process's own, gpulock.h); NULL: none. */
    gl_lock *gpu;
    /* Stops the child when readable (rn_options.stop_fd); a stopped child is not run again. */
    const int *stop_fd;
    /* The folder the child runs in (its relative paths resolve there); NULL: the grader's. */
    const char *cwd;
} ch_request;

/* Removes any old record from the work folder, runs worker with req and fills *r (free with
 * rn_result_free). Returns 0 when *r says what happened, -1 when it could not be started.
 * With a GPU lock: the recording (the student's host code, never handed the lock) runs while
 * this process holds it shared; a replay is handed it, to share the GPU and to have it alone
 * while it measures. A child of either kind that does not end cleanly (exit 0) is run once more
 * with the GPU held alone for it: a failure counts only when it also happens alone (a lock not
 * free in time, CL_EXIT_GPU_BUSY, and a timeout or a CUDA error caused by neighbours do not). */
int ch_run(const char *worker, const ch_request *req, rn_result *r);

/* A replay started early: it starts CUDA and sets the lab's problem up while the kernel is
 * still compiled and recorded, and waits for ch_go to name the folder its request's paths are
 * relative to (the replays' folder, which is made only once the recording has ended). It waits
 * in req->cwd, an empty folder: what it writes there before its go (its paths relative to a
 * folder without their subfolders) fails. (The recording, started early too, makes its CUDA
 * context and waits where its paths already lead; it loads the student's code only after its
 * go.) Only for a child with no GPU lock in req: one held for it by the grader (ch_run's
 * recording beside others) is not started early. req and the strings it points to must live
 * until ch_finish. The wait is limited to wait_s seconds
 * (then the child is stopped). NULL when out of memory: run it with ch_run then. */
typedef struct ch_early ch_early;
ch_early *ch_start_early(const char *worker, const ch_request *req, double wait_s);
/* Whether it has set itself up and waits (it says so once it does), waiting at most wait_s
 * seconds for that: 0 when it ended first, or is still setting up at the limit. */
int ch_ready(ch_early *e, double wait_s);
/* Lets it go on in dir (made absolute here), an older record where it goes removed first. */
void ch_go(ch_early *e, const char *dir);
/* After ch_go: waits until a run child started early says that its measured sections (the
 * timing and the counters) are over, 1, or ends without saying so, 0. */
int ch_measured(ch_early *e);
/* Waits for it to end and fills *r as ch_run would (free with rn_result_free); frees e.
 * Without a go it is stopped (r->stopped). One that ended before it read its go (no GPU free
 * in time, no thread or pipe to start it with, ...) is run now with ch_run, in the folder of
 * its go. Returns as ch_run. */
int ch_finish(ch_early *e, rn_result *r);
/* Reads the record the child left in workdir into *res. Returns 0, or -1 with why (no record,
 * not a regular file, malformed, a key missing). */
int ch_read_result(const char *workdir, wi_result *res, char *why, size_t why_size);

/* The counting server (countreq.h, grade-worker counters --serve) of gradings side by side:
 * started here, in a process group of its own that dies with this process, handed gpu (the
 * lock, which it shares) and its end of a new socket pair; *sock gets the other end, close-on-
 * exec, for the gradings this process forks to send their requests on. What it prints goes
 * to log. NULL where it could not be started (the gradings then count in their run children,
 * as without it). */
typedef struct ch_server ch_server;
ch_server *ch_serve(const char *worker, const gl_lock *gpu, const char *log, int *sock);
/* Its process, for a grading to stop one that counts a kernel that hangs. */
pid_t ch_server_pid(const ch_server *s);
/* Closes this process's end of the socket (the gradings that inherited it have ended: the
 * server sees that every sender is gone, and ends), waits at most wait_s seconds for it to
 * end, then kills it; frees s. */
void ch_serve_end(ch_server *s, int sock, double wait_s);

/* Explains a child that did not finish cleanly (r, run with the time limit limit_s) in one
 * line for a student: timed out, crashed, a CUDA call failed, the contract, ... */
void ch_explain(const rn_result *r, double limit_s, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
