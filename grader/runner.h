/*
 * runner.h - runs one program as an isolated child process.
 *
 * The grader never initialises CUDA and never loads student code in its own process: every
 * compile and every run of a student's kernel goes through rn_run(). The child gets a session
 * and process group of its own (no controlling terminal: /dev/tty opens nothing, and no
 * keystroke can be pushed into the grader's terminal), a wall-clock limit (then SIGKILL to the
 * whole group: a hang becomes "timed out"), and its stdout and stderr are captured together up to a
 * cap (a flood is cut, the child is not blocked). The caller decides what the exit status means.
 */
#ifndef CL_RUNNER_H
#define CL_RUNNER_H

#include <stddef.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rn_options {
    double timeout_s;    /* wall-clock limit; <= 0 means none */
    size_t output_cap;   /* bytes of combined stdout+stderr kept; the rest is read and dropped */
    const char *workdir; /* chdir() there in the child; NULL keeps the current directory */
    const char *
        *env_add; /* NULL-terminated "NAME=value" entries added to the environment; may be NULL */
    /* The child starts from a small fixed environment instead of the grader's: PATH,
     * LD_LIBRARY_PATH, the language (LANG, LANGUAGE, POSIX's LC_ categories), TZ, the GPU's
     * CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER and the grader's own diagnostics
     * (GRADE_LOCK_LOG, GRADE_LOCALEDIR), exact names all; HOME and TMPDIR its work folder,
     * then env_add. 0: the grader's. */
    int clean_env;
    size_t max_file_bytes;   /* the largest file the child may write (RLIMIT_FSIZE); 0: no limit */
    size_t max_memory_bytes; /* its address space (RLIMIT_AS); 0: no limit */
    size_t max_data_bytes;   /* its heap and private mappings (RLIMIT_DATA); 0: no limit */
    /* Confines the child (sandbox.h) just before it runs argv[0], which the policy must let it
     * read; NULL: unconfined. */
    const struct sb_policy *sandbox;
    /* Descriptors of the grader's that the child inherits (all others are closed at exec), -1
     * ending the list; NULL: none. */
    const int *keep_fds;
    /* A descriptor that stops the child when it becomes readable (a byte written, or its other
     * end closed): killed, its result marked stopped. NULL: none. */
    const int *stop_fd;
    /* A child started early, before what it works on exists (child.h, ch_start_early): it sets
     * itself up and then waits for its go, which the caller writes to go_fd (at most PIPE_BUF
     * bytes, in one write); the runner passes them on to go_to (the write end of a pipe the
     * child reads) and only then starts the time limit. The other end of go_fd closed before
     * anything was written, or no go within go_wait_s seconds (<= 0: no limit), stops the child
     * as stop_fd does. NULL: none; the limit starts at once. */
    const int *go_fd;
    int go_to;
    double go_wait_s;
    /* A child that gives way to others at times (the recording, when another grading waits to
     * measure): asked every few milliseconds while it runs, must_yield(yield_ctx) returns 1
     * when it is to pause now; the runner then stops it and what it started (SIGSTOP), calls
     * wait_turn(yield_ctx), which returns when it may go on, and continues them (SIGCONT). Its
     * time limit and its elapsed time leave the pauses out. NULL: it never pauses. */
    int (*must_yield)(void *ctx);
    void (*wait_turn)(void *ctx);
    void *yield_ctx;
} rn_options;

typedef enum rn_status {
    RN_EXITED,      /* exited normally; see exit_code */
    RN_SIGNALED,    /* killed by a signal it did not expect; see signal */
    RN_TIMED_OUT,   /* still running at the limit; killed */
    RN_START_FAILED /* could not be started (fork or exec failed); see output for why */
} rn_status;

typedef struct rn_result {
    rn_status status;
    int exit_code;    /* when RN_EXITED */
    int signal;       /* when RN_SIGNALED */
    double elapsed_s; /* wall-clock time the child ran */
    char *output; /* NUL-terminated combined stdout+stderr, at most output_cap bytes; owned, free
                     with rn_result_free */
    size_t output_len;     /* bytes kept in output */
    size_t output_dropped; /* bytes read past the cap and discarded */
    int stopped;           /* killed because opt->stop_fd became readable, or no go came */
    int went;              /* with opt->go_fd: the go was passed on (elapsed_s counts from it) */
    int again;       /* what is described is a second run, alone, of a child that failed beside
                      * others (ch_run): what the first left in its folder was written over */
    double paused_s; /* seconds it was stopped for others (rn_options.must_yield) */
    unsigned pauses; /* how many times */
} rn_result;

/* Runs argv[0] (looked up in PATH when it has no '/') with argv, waits for it or for the time
 * limit, and fills *res. Returns 0 when *res describes what happened (including a crash, a
 * timeout or an exec failure), -1 only on bad arguments. Never leaves a zombie or a running
 * child behind. Two threads may each run a child at once: each child is spared from the other's
 * rn_kill_orphans while it runs. */
int rn_run(const char *const argv[], const rn_options *opt, rn_result *res);

void rn_result_free(rn_result *res);

/* Seconds on the monotonic clock: for measuring how long a step took. */
double rn_now_s(void);

/* Makes this process adopt every orphan among its descendants (PR_SET_CHILD_SUBREAPER), so
 * that what a child leaves running when it ends is still ours to stop. Returns 0, or -1 where
 * the kernel does not offer it. */
int rn_adopt_orphans(void);

/* Kills and reaps every child of this process that no rn_run() is waiting for: after a run,
 * the descendants that outlived it (adopted, with rn_adopt_orphans(); a process that left the
 * child's group and session included). Returns how many there were. rn_run() calls it when
 * its child has ended. */
int rn_kill_orphans(void);

/* pid, a child this process started to do its own work, is no orphan: rn_kill_orphans() leaves
 * it alone until rn_unspare(pid). -1 when too many are spared already. */
int rn_spare(pid_t pid);
void rn_unspare(pid_t pid);

/* Describes res for a person in one line, e.g. "exited with status 3", "killed by signal 11
 * (Segmentation fault)", "timed out after 10.0 s". Writes into buf (always NUL-terminated). */
void rn_describe(const rn_result *res, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
