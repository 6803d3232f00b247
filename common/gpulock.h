/*
 * gpulock.h - one GPU shared by labs graded side by side. GPU work that measures nothing (a
 * recording, a correctness replay, the trace) takes the lock shared; the timing's and the
 * counters' measured sections take it alone, so that no other process's kernels or copies run
 * on the GPU while they measure (contexts of several processes time-share it). Two flock(2)ed
 * files: the lock and a turnstile, which a waiting exclusive holder keeps, so that new shared
 * holders queue behind it instead of starving it.
 *
 * A third file is the counters' own lock: one process at a time has a CUPTI profiler session
 * (beside another process's it fails with CUPTI_ERROR_HARDWARE_BUSY). Counters that CUPTI counts
 * by patching the kernel's instructions (what that kernel did, whatever else runs) are read
 * beside other gradings: the session started holding this lock alone (host work, while another
 * process may be timing), the work run with the GPU shared. Hardware counters are read with the
 * GPU held alone, this lock taken first.
 *
 * The files are unlinked as soon as they are open: only processes handed a descriptor can take
 * the lock, never a student's program that finds a path (the recording, the one child that runs
 * the student's host code, gets none; its parent holds the lock shared for it).
 */
#ifndef CL_GPULOCK_H
#define CL_GPULOCK_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gl_lock {
    int lock_fd, turn_fd, count_fd; /* -1 when there is no lock: every call below does nothing */
    int held;                       /* 0, GL_SHARED or GL_EXCLUSIVE */
    int counting;                   /* the counters' lock is held */
} gl_lock;

enum { GL_SHARED = 1, GL_EXCLUSIVE = 2 };

/* A lock that takes nothing: what a process handed no lock uses. */
#define GL_NONE ((gl_lock){-1, -1, -1, 0, 0})

/* Makes a new lock with its three files in dir (then unlinked), the descriptors close-on-exec.
 * Returns 0, or -1 with errno set (*l is then GL_NONE). */
int gl_create(const char *dir, gl_lock *l);

/* A lock of this process's own on the same files as from (inherited or another of its own):
 * flock(2) locks belong to an open file, so two processes that share a descriptor would share
 * one lock. Returns 0, or -1 with errno set (*own is then GL_NONE). GL_NONE gives GL_NONE. */
int gl_open(const gl_lock *from, gl_lock *own);

/* Takes the lock as how (GL_SHARED or GL_EXCLUSIVE), giving up what it held first (a holder
 * never waits while it holds, so two processes cannot wait for each other), waiting at most
 * wait_s seconds (< 0: as long as it takes). Returns 0 when held, 1 when the wait ran out (then
 * nothing is held), -1 on an error with errno set. */
int gl_take(gl_lock *l, int how, double wait_s);

/* Whether another process waits for the lock now (it keeps the turnstile while it waits: with
 * the lock held shared, that is one waiting to hold it alone). 0 also where there is no lock
 * or it cannot tell. */
int gl_waited_for(const gl_lock *l);

/* Gives up what it holds of the GPU lock (also what ending the process does). */
void gl_release(gl_lock *l);

/* Takes the counters' lock, giving up what it held of the GPU lock first (a process waiting to
 * count never keeps the GPU from an exclusive holder), waiting at most wait_s seconds (< 0: as
 * long as it takes); returns as gl_take. The GPU lock is then taken again as the caller needs
 * it. gl_release_counting gives it up (ending the process does too). */
int gl_take_counting(gl_lock *l, double wait_s);
void gl_release_counting(gl_lock *l);

/* Closes the descriptors (the lock is given up with them) and makes *l GL_NONE. */
void gl_close(gl_lock *l);

/* Names what this process holds the lock for ("run 01"), in the timeline that GRADE_LOCK_LOG,
 * where set to a file, gets a line for each take and release of: seconds on the monotonic
 * clock, pid, SH or EX, taken (with the seconds waited) or released (with the seconds held).
 * For finding where side-by-side grading waits (tests/gpu/lock_timeline.py). */
void gl_tag(const char *what);
/* A step of this process done: where GRADE_LOCK_LOG names the timeline's file, a line with the
 * step's name and the seconds since the last step (the first call starts the clock), for
 * tests/gpu/lock_timeline.py's table of where a child's time goes. Nothing otherwise. */
void gl_phase(const char *name);

/* "FD:FD:FD", the descriptors for a child's command line, and its reverse; parse returns 0, or
 * -1 when text is not three descriptor numbers. */
void gl_format(const gl_lock *l, char *buf, unsigned long size);
int gl_parse(const char *text, gl_lock *l);

#ifdef __cplusplus
}
#endif

#endif
