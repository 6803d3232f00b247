/* child.c - see child.h. */
#define _GNU_SOURCE /* pipe2 */
#include "child.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exit_codes.h"
#include "i18n.h"

static void record_path(const char *cwd, const char *workdir, char *buf, size_t size)
{
    if (cwd && workdir[0] != '/')
        snprintf(buf, size, "%s/%s/%s", cwd, workdir, WI_RESULT_FILE);
    else
        snprintf(buf, size, "%s/%s", workdir, WI_RESULT_FILE);
}

static rn_options run_options(const ch_request *req, const int *keep_fds)
{
    rn_options ro = {.timeout_s = req->timeout_s,
                     .output_cap = 16 * 1024,
                     .workdir = req->cwd,
                     .env_add = req->env,
                     .clean_env = 1, /* the grader's environment is no business of the student's */
                     .sandbox = req->sandbox,
                     .max_data_bytes = req->max_data_bytes,
                     .max_file_bytes = req->max_file_bytes,
                     .keep_fds = keep_fds,
                     .stop_fd = req->stop_fd};
    return ro;
}

/* The student's host code (the recording) gives the GPU way to a grading that waits to hold
 * it alone (to time or to count): held shared for it by this process, the lock is given up
 * while the recording is stopped (rn_options.must_yield), once it has run YIELD_AFTER_S (an
 * honest recording is done by then, or nearly) and a waiter is still there a moment later (a
 * shared taker passing the turnstile is not one). A launcher that sleeps then holds up no
 * other grading's measurements, and its pauses are not in its time limit. */
#define YIELD_AFTER_S 1.0
typedef struct yielder {
    gl_lock *gpu;
    double since; /* when it last got the GPU */
    int seen;     /* probes in a row that found a waiter */
} yielder;

static int must_yield(void *ctx)
{
    yielder *y = ctx;
    if (rn_now_s() - y->since < YIELD_AFTER_S)
        return 0;
    y->seen = gl_waited_for(y->gpu) ? y->seen + 1 : 0;
    return y->seen >= 2;
}

static void wait_turn(void *ctx)
{
    yielder *y = ctx;
    gl_release(y->gpu);
    gl_take(y->gpu, GL_SHARED, -1); /* behind the waiter, through the turnstile */
    y->since = rn_now_s();
    y->seen = 0;
}

static int run_once(const char *worker, const ch_request *req, const wi_args *args,
                    const int *keep_fds, yielder *y, rn_result *r)
{
    const char *argv[WI_MAX_ARGV];
    char digits[WI_ARG_DIGITS];
    wi_args_to_argv(worker, args, digits, argv);
    rn_options ro = run_options(req, keep_fds);
    if (y) {
        ro.must_yield = must_yield;
        ro.wait_turn = wait_turn;
        ro.yield_ctx = y;
    }
    char path[4200];
    record_path(req->cwd, args->workdir, path, sizeof path);
    remove(path);
    return rn_run(argv, &ro, r);
}

/* The parent holds the lock as how while the child runs without it (where the lock cannot be
 * taken, an error of the lock's own, the child runs all the same: unprotected, not lost). */
static int run_holding(const char *worker, const ch_request *req, int how, rn_result *r)
{
    char tag[64];
    snprintf(tag, sizeof tag, "%s %s (for it)", wi_mode_name(req->args.mode),
             req->args.lab ? req->args.lab : "-");
    gl_tag(tag);
    int held = gl_take(req->gpu, how, -1) == 0;
    wi_args args = req->args;
    args.gpu_lock = NULL;
    yielder y = {req->gpu, rn_now_s(), 0};
    int yields = held && how == GL_SHARED && req->args.mode == WI_RECORD;
    int rc = run_once(worker, req, &args, NULL, yields ? &y : NULL, r);
    if (held)
        gl_release(req->gpu);
    return rc;
}

static int clean(const rn_result *r)
{
    return r->status == RN_EXITED && r->exit_code == 0;
}

/* How a child runs first: beside other gradings (a GPU lock), a replay is handed the lock
 * and the time limit also covers the waits (WI_GPU_WAIT_S_BESIDE): at most WI_GPU_WAIT_S at
 * each of a run child's seven limited takes (the GPU shared, the counters' lock, the GPU shared
 * again before and after CUPTI starts its session, alone for the timing, and where the counts
 * are read again alone, the counters' lock and the GPU alone again), as much again for its
 * retake after measuring (which has no limit), and a
 * quarter more for a GPU shared with others. What still runs out of that time is not run
 * again: a kernel that hangs costs its own slot the longer limit, never the whole GPU a second
 * one. keep gets the descriptors it inherits (-1 ended, room for 5: the lock's three, an early
 * child's go, the end), fds the lock's on its command line. Returns 1 when the grader holds the
 * lock for it instead (the recording), 0 otherwise. */
static int first_run(const ch_request *req, ch_request *beside, wi_args *args, int keep[5],
                     char fds[32])
{
    *beside = *req;
    *args = req->args;
    keep[0] = -1;
    gl_lock *gpu = req->gpu;
    if (!gpu || gpu->lock_fd < 0)
        return 0;
    /* Held for it (the recording): it waits for nothing in its limit, which is the one it has
     * alone, so that a launcher gets one verdict wherever it is graded. */
    if (req->args.mode != WI_RUN && req->args.mode != WI_TRACE && req->args.mode != WI_COUNTERS)
        return 1;
    beside->timeout_s = req->timeout_s * 1.25 + WI_GPU_WAIT_S_BESIDE;
    gl_format(gpu, fds, 32);
    args->gpu_lock = fds;
    keep[0] = gpu->lock_fd;
    keep[1] = gpu->turn_fd;
    keep[2] = gpu->count_fd;
    keep[3] = -1;
    return 0;
}

/* Whatever else went wrong beside other gradings (the lock not free in time, a CUDA error
 * such as memory a neighbour held) is confirmed alone before it counts: the child runs again
 * with the whole GPU and its own time limit. */
static int confirm_alone(const char *worker, const ch_request *req, int rc, rn_result *r)
{
    if (rc == 0 && req->gpu && req->gpu->lock_fd >= 0 && !clean(r) && r->status != RN_TIMED_OUT &&
        !r->stopped) {
        rn_result_free(r);
        /* The student's own host code never holds the GPU alone: the recording runs again as
         * it ran, giving way to others' measurements, so that a launcher that fails once and
         * then sleeps stalls nobody. */
        rc = run_holding(worker, req, req->args.mode == WI_RECORD ? GL_SHARED : GL_EXCLUSIVE, r);
        r->again = 1;
    }
    return rc;
}

int ch_run(const char *worker, const ch_request *req, rn_result *r)
{
    ch_request beside;
    wi_args args;
    int keep[5];
    char fds[32];
    int rc = first_run(req, &beside, &args, keep, fds)
                 ? run_holding(worker, &beside, GL_SHARED, r)
                 : run_once(worker, &beside, &args, keep[0] >= 0 ? keep : NULL, NULL, r);
    return confirm_alone(worker, req, rc, r);
}

/* ---- replays started early ---- */

struct ch_early {
    const char *worker;
    ch_request req;
    double wait_s;
    int go[2];  /* the grader writes its go to go[1]; the runner reads go[0] */
    int fwd[2]; /* a socket pair: the runner passes the go on to fwd[1], the child reads it from
                 * fwd[0], and says on fwd[0] that it is set up (ch_ready reads fwd[1]) */
    char dir[PATH_MAX];
    int gone;     /* ch_go wrote the go */
    int threaded; /* the child runs on thread */
    pthread_t thread;
    int rc;
    rn_result r;
};

static void close_pair(int p[2])
{
    for (int i = 0; i < 2; ++i)
        if (p[i] >= 0)
            close(p[i]);
    p[0] = p[1] = -1;
}

static void *early_thread(void *arg)
{
    ch_early *e = arg;
    ch_request beside;
    wi_args args;
    int keep[5];
    char fds[32], go[16];
    first_run(&e->req, &beside, &args, keep, fds); /* started early: never held for it */
    snprintf(go, sizeof go, "%d", e->fwd[0]);
    args.go_fd = go;
    int n = 0;
    while (keep[n] >= 0)
        ++n;
    keep[n] = e->fwd[0];
    keep[n + 1] = -1;
    const char *argv[WI_MAX_ARGV];
    char digits[WI_ARG_DIGITS];
    wi_args_to_argv(e->worker, &args, digits, argv);
    rn_options ro = run_options(&beside, keep);
    ro.go_fd = &e->go[0];
    ro.go_to = e->fwd[1];
    ro.go_wait_s = e->wait_s;
    e->rc = rn_run(argv, &ro, &e->r); /* an old record where it goes: removed by ch_go */
    /* The child is gone: ch_ready sees the end at once (the grader's copy of the child's end
     * stays open, for ch_finish to see whether its go was read). */
    shutdown(e->fwd[0], SHUT_WR);
    return NULL;
}

ch_early *ch_start_early(const char *worker, const ch_request *req, double wait_s)
{
    ch_early *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->worker = worker;
    e->req = *req; /* req->cwd: where it waits; it goes to its folder itself, once told */
    e->wait_s = wait_s;
    e->go[0] = e->go[1] = e->fwd[0] = e->fwd[1] = -1;
    if (pipe2(e->go, O_CLOEXEC) == 0 &&
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, e->fwd) == 0)
        e->threaded = pthread_create(&e->thread, NULL, early_thread, e) == 0;
    return e;
}

int ch_ready(ch_early *e, double wait_s)
{
    if (!e->threaded)
        return 0;
    struct pollfd p = {e->fwd[1], POLLIN, 0};
    int ready;
    while ((ready = poll(&p, 1, (int)(wait_s * 1000))) < 0 && errno == EINTR)
        ;
    char c = 0;
    return ready > 0 && read(e->fwd[1], &c, 1) == 1 && c == 'r';
}

int ch_measured(ch_early *e)
{
    if (!e->threaded || e->gone != 1)
        return 0;
    for (;;) { /* its 'r' may still be there, unread: only an 'm' counts */
        struct pollfd p = {e->fwd[1], POLLIN, 0};
        if (poll(&p, 1, -1) < 0) {
            if (errno == EINTR)
                continue;
            return 0;
        }
        char c = 0;
        ssize_t n = read(e->fwd[1], &c, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0; /* ended: early_thread shut the socket */
        if (c == 'm')
            return 1;
    }
}

void ch_go(ch_early *e, const char *dir)
{
    if (!realpath(dir, e->dir)) /* the child goes there from where it waited */
        snprintf(e->dir, sizeof e->dir, "%s", dir);
    char old[4200]; /* an older record where it goes is removed first, as run_once does */
    record_path(e->dir, e->req.args.workdir, old, sizeof old);
    remove(old);
    char line[PATH_MAX + 2];
    int n = snprintf(line, sizeof line, "%s\n", e->dir);
    if (e->threaded && n > 0 && n < PIPE_BUF)
        e->gone = write(e->go[1], line, (size_t)n) == n;
    if (e->go[1] >= 0)
        close(e->go[1]); /* the go is in the pipe: the runner reads it first */
    e->go[1] = -1;
    if (!e->gone)
        e->gone = -1; /* not passed: ch_finish runs it */
}

int ch_finish(ch_early *e, rn_result *r)
{
    if (e->go[1] >= 0)
        close(e->go[1]); /* no go: the runner stops the child */
    e->go[1] = -1;
    if (e->threaded)
        pthread_join(e->thread, NULL);
    int unread = 0; /* its go still in the socket: it ended before it read it */
    if (e->threaded && e->rc == 0 && e->r.went && ioctl(e->fwd[0], FIONREAD, &unread) == 0 &&
        unread > 0)
        e->r.went = 0;
    close_pair(e->go);
    close_pair(e->fwd);
    ch_request req = e->req;
    req.cwd = e->dir;
    int rc;
    if (!e->gone) {
        memset(r, 0, sizeof *r);
        if (e->threaded)
            *r = e->r;
        r->stopped = 1;
        rc = 0;
    } else if (!e->threaded || e->rc != 0 || !e->r.went) {
        /* It never got its go (it ended before, or never started): now, as any other. */
        if (e->threaded && e->rc == 0)
            rn_result_free(&e->r);
        rc = ch_run(e->worker, &req, r);
    } else {
        *r = e->r;
        rc = confirm_alone(e->worker, &req, 0, r);
    }
    free(e);
    return rc;
}

int ch_read_result(const char *workdir, wi_result *res, char *why, size_t why_size)
{
    char path[4200];
    record_path(NULL, workdir, path, sizeof path);
    cJSON *json = wi_read_file(path, why, why_size);
    int rc = json ? wi_result_from_json(json, res, why, why_size) : -1;
    cJSON_Delete(json);
    return rc;
}

/* ---- the counting server ---- */

struct ch_server {
    pid_t pid;
    char log[PATH_MAX]; /* its standard error, where how it ended is added */
};

ch_server *ch_serve(const char *worker, const gl_lock *gpu, const char *log, int *sock)
{
    int sv[2];
    ch_server *s = calloc(1, sizeof *s);
    if (!s || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) {
        free(s);
        return NULL;
    }
    char fd[16], fds[32];
    snprintf(fd, sizeof fd, "%d", sv[1]);
    gl_format(gpu, fds, sizeof fds);
    wi_args a = {.mode = WI_COUNTERS,
                 .workdir = ".",
                 .serve_fd = fd,
                 .gpu_lock = gpu->lock_fd >= 0 ? fds : NULL};
    const char *argv[WI_MAX_ARGV];
    char digits[WI_ARG_DIGITS];
    wi_args_to_argv(worker, &a, digits, argv);
    snprintf(s->log, sizeof s->log, "%s", log);
    int out = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    fflush(NULL);
    pid_t pid = out >= 0 ? fork() : -1;
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        setpgid(0, 0);
        int keep[] = {sv[1], gpu->lock_fd, gpu->turn_fd, gpu->count_fd};
        for (size_t i = 0; i < sizeof keep / sizeof keep[0]; ++i)
            if (keep[i] >= 0)
                fcntl(keep[i], F_SETFD, 0);
        int null_fd = open("/dev/null", O_RDONLY);
        if (null_fd >= 0)
            dup2(null_fd, STDIN_FILENO);
        dup2(out, STDOUT_FILENO);
        dup2(out, STDERR_FILENO);
        execv(worker, (char *const *)argv);
        _exit(127);
    }
    if (out >= 0)
        close(out);
    close(sv[1]); /* the server's alone: when it ends, what is queued for it ends too */
    if (pid < 0) {
        close(sv[0]);
        free(s);
        return NULL;
    }
    s->pid = pid;
    rn_spare(pid); /* this process's own helper: no orphan for the runner to clean up */
    *sock = sv[0];
    return s;
}

pid_t ch_server_pid(const ch_server *s)
{
    return s ? s->pid : -1;
}

void ch_serve_end(ch_server *s, int sock, double wait_s)
{
    if (sock >= 0)
        close(sock);
    if (!s)
        return;
    int st = 0;
    for (double waited = 0;; waited += 0.005) {
        pid_t got = waitpid(s->pid, &st, WNOHANG);
        if (got == s->pid || (got < 0 && errno != EINTR))
            break;
        if (waited >= wait_s) {
            kill(-s->pid, SIGKILL);
            kill(s->pid, SIGKILL);
            while (waitpid(s->pid, &st, 0) < 0 && errno == EINTR)
                ;
            break;
        }
        struct timespec pause = {0, 5000000};
        nanosleep(&pause, NULL);
    }
    rn_unspare(s->pid);
    /* How it ended, for whoever reads the log: a server that dies leaves no line of its own. */
    FILE *log = !WIFEXITED(st) || WEXITSTATUS(st) ? fopen(s->log, "a") : NULL;
    if (log) {
        if (WIFSIGNALED(st))
            fprintf(log, "the counting server was killed by signal %d\n", WTERMSIG(st));
        else
            fprintf(log, "the counting server exited %d\n", WEXITSTATUS(st));
        fclose(log);
    }
    free(s);
}

void ch_explain(const rn_result *r, double limit_s, char *buf, size_t size)
{
    char how[256];
    rn_describe(r, how, sizeof how);
    if (r->status == RN_TIMED_OUT) /* beside others the limit was stretched (ch_run) */
        snprintf(buf, size,
                 _("timed out after %.0f s: the kernel never finished (a loop whose index never "
                   "reaches its bound?)"),
                 r->elapsed_s > limit_s ? r->elapsed_s : limit_s);
    else if (r->status == RN_SIGNALED)
        snprintf(buf, size, _("crashed: %s"), how);
    else if (r->status == RN_START_FAILED)
        snprintf(buf, size, _("the grading child %s"), how);
    else if (r->exit_code == CL_EXIT_CUDA)
        snprintf(buf, size, _("a CUDA call failed (the message below names it)"));
    else if (r->exit_code == CL_EXIT_CONTRACT)
        snprintf(buf, size, _("the compiled kernel does not fit the lab's launcher contract"));
    else if (r->exit_code == CL_EXIT_IO)
        snprintf(buf, size, _("the grading child could not save its results"));
    else
        snprintf(buf, size, _("the kernel's process %s"), how);
}
