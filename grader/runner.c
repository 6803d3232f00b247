/*
 * runner.c - runs one program as an isolated child process (see runner.h).
 *
 * The child is forked into a session and process group of its own with stdin on /dev/null and
 * stdout and stderr on one pipe. A second, close-on-exec pipe tells the parent whether the exec
 * happened: it reaches EOF when the exec succeeds, and carries the failing step and errno
 * when it does not, so an exec failure is never mistaken for an exit status. The parent
 * then polls the output pipe (and a pidfd, where the kernel has them) without ever blocking
 * the child, enforces the time limit on CLOCK_MONOTONIC, and finally kills the whole group
 * before reaping the child, so background grandchildren neither outlive the run nor hold
 * the pipe open forever.
 *
 * Built with the unit tests, e.g.
 *   gcc -std=c11 -Wall -Wextra -Werror -Igrader -DFAKE_CHILD_PATH='"/tmp/fake_child"' \
 *       tests/unit/test_runner.c grader/runner.c $(pkg-config --cflags --libs cmocka)
 */
#define _GNU_SOURCE /* pipe2, close_range, strsignal, SYS_pidfd_open */

#include "runner.h"
#include "childenv.h"
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <dirent.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* After the child exits, output still in flight (or written by a grandchild that is about
 * to finish) gets this long before the group is killed and reading stops. */
#define DRAIN_S 0.1
/* Without a pidfd nothing wakes poll() when the child exits, so it wakes this often. */
#define POLL_SLICE_MS 10
/* Reads per wake-up, so that a flood cannot keep the loop from checking the clock. */
#define READS_PER_WAKE 64
#define CHUNK_BYTES 65536
#define FIRST_ALLOC 4096

/* What went wrong in the child before or at exec, sent over the status pipe. */
enum child_stage { STAGE_SETUP, STAGE_CHDIR, STAGE_SETENV, STAGE_SANDBOX, STAGE_EXEC };

typedef struct child_report {
    int stage; /* enum child_stage */
    int err;   /* errno */
    int index; /* env_add entry, for STAGE_SETENV */
} child_report;

/* The captured output: at most cap bytes in buf (always NUL-terminated), the rest counted. */
typedef struct sink {
    char *buf;
    size_t len;
    size_t alloc;
    size_t cap;
    size_t dropped;
} sink;

double rn_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Milliseconds for poll() until time t, rounded up so that the wake-up is not early. */
/* The spared and the killed children's lists (below), and every fork of rn_run: a grader may
 * run children from two threads (a lab's trace beside its correctness replay). */
static pthread_mutex_t children_mu = PTHREAD_MUTEX_INITIALIZER;
static int spare(pid_t pid);

static int ms_until(double t, double now)
{
    double ms = (t - now) * 1000.0 + 1.0;
    if (ms < 0.0)
        return 0;
    if (ms > (double)INT_MAX)
        return INT_MAX;
    return (int)ms;
}

static bool valid_env_entry(const char *entry)
{
    const char *eq = strchr(entry, '=');
    return eq != NULL && eq != entry;
}

static bool valid_arguments(const char *const argv[], const rn_options *opt, const rn_result *res)
{
    if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0' || opt == NULL || res == NULL)
        return false;
    if (isnan(opt->timeout_s))
        return false;
    for (const char **e = opt->env_add; e != NULL && *e != NULL; e++) {
        if (!valid_env_entry(*e))
            return false;
    }
    return true;
}

static bool sink_init(sink *s, size_t cap)
{
    memset(s, 0, sizeof *s);
    s->cap = cap < SIZE_MAX / 2 ? cap : SIZE_MAX / 2;
    s->alloc = (s->cap < FIRST_ALLOC ? s->cap : FIRST_ALLOC) + 1;
    s->buf = malloc(s->alloc);
    if (s->buf == NULL)
        return false;
    s->buf[0] = '\0';
    return true;
}

static bool sink_reserve(sink *s, size_t need)
{
    if (need <= s->alloc)
        return true;
    size_t grown = s->alloc * 2 < s->cap + 1 ? s->alloc * 2 : s->cap + 1;
    if (grown < need)
        grown = need;
    char *p = realloc(s->buf, grown);
    if (p == NULL)
        return false;
    s->buf = p;
    s->alloc = grown;
    return true;
}

/* Keeps what fits under the cap and counts the rest; out of memory only drops more. */
static void sink_put(sink *s, const char *data, size_t n)
{
    size_t keep = s->cap - s->len < n ? s->cap - s->len : n;
    if (keep > 0 && !sink_reserve(s, s->len + keep + 1))
        keep = 0;
    memcpy(s->buf + s->len, data, keep);
    s->len += keep;
    s->buf[s->len] = '\0';
    s->dropped += n - keep;
}

/* Reads what the non-blocking fd has, at most max_reads times. Returns true at EOF (or on
 * an error that ends the stream), false when the pipe is merely empty for now. */
static bool drain(int fd, sink *s, int max_reads)
{
    char chunk[CHUNK_BYTES];
    for (int i = 0; i < max_reads; i++) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n > 0) {
            sink_put(s, chunk, (size_t)n);
        } else if (n == 0) {
            return true;
        } else if (errno != EINTR) {
            return errno != EAGAIN && errno != EWOULDBLOCK;
        }
    }
    return false;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

/* --- in the child, between fork and exec --- */

static _Noreturn void child_fail(int report_fd, int stage, int index)
{
    child_report rep = {stage, errno, index};
    ssize_t n = write(report_fd, &rep, sizeof rep);
    (void)n; /* nothing more can be done if the parent is gone */
    _exit(127);
}

/* Moves fd to 3 or above, close-on-exec, so that the dup2() calls onto 0, 1 and 2 cannot
 * clobber it (possible when the grader itself runs with a standard stream closed). */
static int child_lift_fd(int fd)
{
    return fd > 2 ? fd : fcntl(fd, F_DUPFD_CLOEXEC, 3);
}

static bool child_set_env(const char *entry)
{
    const char *eq = strchr(entry, '=');
    char *name = strndup(entry, (size_t)(eq - entry));
    bool ok = name != NULL && setenv(name, eq + 1, 1) == 0;
    free(name);
    return ok;
}

static _Noreturn void run_child(const char *const argv[], const rn_options *opt, char **envp,
                                int out_fd, int report_fd)
{
    report_fd = child_lift_fd(report_fd);
    if (report_fd < 0)
        _exit(127);
    /* A session of its own: no controlling terminal, so nothing it runs can open /dev/tty or
     * push characters into the terminal of whoever runs the grader (TIOCSTI). Its own process
     * group too, which the parent kills whole. */
    if (setsid() < 0)
        child_fail(report_fd, STAGE_SETUP, 0);
    /* If the grader dies (Ctrl-C reaches only its own process group), so does the child: a
     * hung kernel must not keep the GPU busy with nobody waiting for it. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);

    /* Ignored signals and the signal mask survive exec; the student's program gets the
     * defaults whatever the grader runs with (SIGPIPE ignored, for one). */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    for (int sig = 1; sig < NSIG; sig++)
        signal(sig, SIG_DFL);

    out_fd = child_lift_fd(out_fd);
    int null_fd = open("/dev/null", O_RDONLY);
    if (out_fd < 0 || null_fd < 0 || dup2(null_fd, STDIN_FILENO) < 0 ||
        dup2(out_fd, STDOUT_FILENO) < 0 || dup2(out_fd, STDERR_FILENO) < 0)
        child_fail(report_fd, STAGE_SETUP, 0);
    if (null_fd > STDERR_FILENO)
        close(null_fd);

    if (opt->workdir != NULL && chdir(opt->workdir) != 0)
        child_fail(report_fd, STAGE_CHDIR, 0);
    if (opt->max_file_bytes) {
        struct rlimit r = {opt->max_file_bytes, opt->max_file_bytes};
        setrlimit(RLIMIT_FSIZE, &r);
    }
    if (opt->max_memory_bytes) {
        struct rlimit r = {opt->max_memory_bytes, opt->max_memory_bytes};
        setrlimit(RLIMIT_AS, &r);
    }
    if (opt->max_data_bytes) {
        struct rlimit r = {opt->max_data_bytes, opt->max_data_bytes};
        setrlimit(RLIMIT_DATA, &r);
    }
    if (envp != NULL)
        environ = envp; /* made by the parent (rn_clean_environment): nothing to allocate here */
    for (int i = 0; envp == NULL && opt->env_add != NULL && opt->env_add[i] != NULL; i++) {
        if (!child_set_env(opt->env_add[i]))
            child_fail(report_fd, STAGE_SETENV, i);
    }
    if (opt->sandbox != NULL && sb_enter(opt->sandbox) != 0)
        child_fail(report_fd, STAGE_SANDBOX, 0);
#ifdef CLOSE_RANGE_CLOEXEC
    /* Descriptors the grader leaked without close-on-exec stay out of the student's program;
     * ours already have the flag. Best effort: an old kernel says ENOSYS. */
    close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
#endif
    for (int i = 0; opt->keep_fds != NULL && opt->keep_fds[i] >= 0; i++)
        if (fcntl(opt->keep_fds[i], F_SETFD, 0) != 0)
            child_fail(report_fd, STAGE_SETUP, 0);
    execvp(argv[0], (char *const *)argv);
    child_fail(report_fd, STAGE_EXEC, 0);
}

/* --- in the parent --- */

static char *format_message(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *msg = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (msg != NULL) {
        va_start(ap, fmt);
        vsnprintf(msg, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return msg;
}

static char *describe_report(const child_report *rep, const char *const argv[],
                             const rn_options *opt)
{
    const char *why = strerror(rep->err);
    switch (rep->stage) {
    case STAGE_CHDIR:
        return format_message("cannot change directory to '%s': %s", opt->workdir, why);
    case STAGE_SETENV:
        return format_message("cannot set environment entry '%s': %s", opt->env_add[rep->index],
                              why);
    case STAGE_SANDBOX:
        return format_message("cannot confine the child process for '%s' (Landlock): %s", argv[0],
                              why);
    case STAGE_EXEC:
        return format_message("cannot run '%s': %s", argv[0], why);
    default:
        return format_message("cannot set up the child process for '%s': %s", argv[0], why);
    }
}

/* Marks res as not started; msg (owned, may be NULL when out of memory) replaces the
 * output, whatever the cap, because it is the runner's word and not the child's. */
static void set_start_failed(rn_result *res, char *msg)
{
    free(res->output);
    res->status = RN_START_FAILED;
    res->output = msg;
    res->output_len = msg != NULL ? strlen(msg) : 0;
    res->output_dropped = 0;
}

/* Blocks until the exec has happened (EOF) or the child reports why it did not. */
static bool read_report(int fd, child_report *rep)
{
    for (;;) {
        ssize_t n = read(fd, rep, sizeof *rep);
        if (n < 0 && errno == EINTR)
            continue;
        return n == (ssize_t)sizeof *rep;
    }
}

/* True once the child has terminated; it is left a zombie so that its pid, which is also
 * the group's id, cannot be reused before the group is killed. */
static bool has_exited(pid_t pid)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0) {
        if (errno != EINTR)
            return true; /* nothing left to wait for */
    }
    return si.si_pid == pid;
}

static int reap(pid_t pid)
{
    int wstatus = 0;
    while (waitpid(pid, &wstatus, 0) < 0 && errno == EINTR) {
    }
    return wstatus;
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0); /* close-on-exec by default */
#else
    (void)pid;
    return -1;
#endif
}

/* A child started early waits for its go (rn_options.go_fd): what the caller wrote is passed
 * on to the child, and the time limit starts now. Returns 0 when it was passed on, -1 when
 * there was none (the other end closed) or it could not be. */
static int pass_go(int go_fd, int go_to)
{
    char buf[PIPE_BUF];
    ssize_t n;
    while ((n = read(go_fd, buf, sizeof buf)) < 0 && errno == EINTR)
        ;
    if (n <= 0)
        return -1;
    ssize_t w;
    while ((w = write(go_to, buf, (size_t)n)) < 0 && errno == EINTR)
        ;
    return w == n ? 0 : -1;
}

/* Reads the child's output until it has exited and the pipe is at EOF (or the drain time
 * is over), or until the time limit; then kills the group, reaps the child and fills res.
 * With a go to wait for (w->go_fd >= 0) the limit starts when it has been passed on. */
typedef struct watch {
    int out_fd, stop_fd, go_fd, go_to;
    double timeout_s, go_wait_s;
    int (*must_yield)(void *ctx);
    void (*wait_turn)(void *ctx);
    void *yield_ctx;
} watch;

static pid_t parent_and_state(const char *pid, char *state);
static int is_spared(pid_t pid);

/* The processes a paused child may have started: every process below pid, at any depth and from
 * any of its threads, whatever session or group it moved to; and every orphan this process
 * adopted (rn_adopt_orphans) that no rn_run waits for, with what is below it (a process that
 * left by a double fork). From one pass over /proc: each process's parent, then the marks
 * spread down until none is added. */
#define TREE_MAX 8192
typedef struct tree {
    pid_t pid[TREE_MAX], parent[TREE_MAX];
    char mark[TREE_MAX], state[TREE_MAX];
    size_t n;
} tree;

static void read_tree(tree *t, pid_t root)
{
    t->n = 0;
    DIR *d = opendir("/proc");
    pid_t self = getpid();
    for (struct dirent *e; d && t->n < TREE_MAX && (e = readdir(d));) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        size_t k = t->n;
        t->pid[k] = (pid_t)atoi(e->d_name);
        t->parent[k] = parent_and_state(e->d_name, &t->state[k]);
        t->mark[k] = t->pid[k] == root ||
                     (t->parent[k] == self && t->pid[k] != root && !is_spared(t->pid[k]));
        t->n++;
    }
    if (d)
        closedir(d);
    for (int added = 1; added;) {
        added = 0;
        for (size_t a = 0; a < t->n; ++a)
            for (size_t b = 0; !t->mark[a] && b < t->n; ++b)
                if (t->mark[b] && t->parent[a] == t->pid[b])
                    t->mark[a] = 1, added = 1;
    }
}

/* Stops (SIGSTOP) or continues (SIGCONT) every process of t that is marked; returns how many
 * marked processes were found running (not stopped, not dead) as read. */
static size_t signal_tree(const tree *t, int sig)
{
    size_t running = 0;
    for (size_t k = 0; k < t->n; ++k)
        if (t->mark[k]) {
            running += t->state[k] != 'T' && t->state[k] != 't' && t->state[k] != 'Z' &&
                       t->state[k] != 'X';
            kill(t->pid[k], sig);
        }
    return running;
}

/* The child and all it started paused while wait_turn waits (rn_options.must_yield). Returns
 * the seconds to leave out of its time: the pause, where everything stayed stopped through it;
 * 0 where something ran meanwhile (a process that escaped the stop, or one that continued
 * another), whose pause is then its own time. */
static double pause_child(pid_t pid, const watch *w)
{
    tree *t = malloc(sizeof *t);
    if (!t)
        return 0; /* not paused: none of it left out */
    double t0 = rn_now_s();
    kill(-pid, SIGSTOP);
    /* Until every process of it reads as stopped (one forked meanwhile is found and stopped on
     * the next pass; one not yet scheduled to take its SIGSTOP, on a busy machine, a few passes
     * later), at most about half a second. */
    size_t left = 1;
    for (int pass = 0; pass < 200 && left; ++pass) {
        read_tree(t, pid);
        left = signal_tree(t, SIGSTOP);
        struct timespec settle = {0, 2 * 1000 * 1000};
        if (left)
            nanosleep(&settle, NULL);
    }
    w->wait_turn(w->yield_ctx);
    read_tree(t, pid);
    int stayed = signal_tree(t, SIGSTOP) == 0 && left == 0;
    signal_tree(t, SIGCONT);
    kill(-pid, SIGCONT);
    free(t);
    return stayed ? rn_now_s() - t0 : 0;
}

static void supervise(pid_t pid, const watch *w, double start, sink *s, rn_result *res)
{
    int pidfd = open_pidfd(pid), out_fd = w->out_fd, go_fd = w->go_fd;
    bool exited = false, eof = false, timed_out = false, stopped = false;
    double end = start, timeout_s = go_fd >= 0 ? w->go_wait_s : w->timeout_s;

    for (;;) {
        double t = rn_now_s();
        if (!exited && has_exited(pid)) {
            exited = true;
            end = t;
        }
        if (exited && (eof || t - end >= DRAIN_S))
            break;
        if (!exited && timeout_s > 0 && t - start >= timeout_s) {
            timed_out = go_fd < 0; /* waiting for its go, it is stopped instead */
            stopped = go_fd >= 0;
            end = t;
            break;
        }

        int yielding = !exited && go_fd < 0 && w->must_yield;
        if (yielding && w->must_yield(w->yield_ctx)) {
            double paused = pause_child(pid, w);
            start += paused; /* its limit and its time leave the pause out */
            res->paused_s += paused;
            res->pauses++;
            continue;
        }
        int wait_ms = -1;
        if (exited) {
            wait_ms = ms_until(end + DRAIN_S, t);
        } else {
            if (timeout_s > 0)
                wait_ms = ms_until(start + timeout_s, t);
            if ((pidfd < 0 || yielding) && (wait_ms < 0 || wait_ms > POLL_SLICE_MS))
                wait_ms = POLL_SLICE_MS;
        }
        struct pollfd fds[4] = {{eof ? -1 : out_fd, POLLIN, 0},
                                {exited ? -1 : pidfd, POLLIN, 0},
                                {exited ? -1 : w->stop_fd, POLLIN, 0},
                                {exited ? -1 : go_fd, POLLIN, 0}};
        int ready = poll(fds, 4, wait_ms);
        if (ready < 0 && errno != EINTR)
            eof = true; /* cannot watch the pipe any more; still wait for the child */
        if (ready > 0 && fds[0].revents != 0)
            eof = drain(out_fd, s, READS_PER_WAKE);
        if (ready > 0 && fds[2].revents != 0 && !exited) {
            stopped = true; /* its result is no longer wanted */
            end = rn_now_s();
            break;
        }
        if (ready > 0 && fds[3].revents != 0 && !exited) {
            if (has_exited(pid))
                continue; /* it ended first: its go is not passed on (the loop's top sees it) */
            if (pass_go(go_fd, w->go_to) != 0) {
                stopped = true; /* no go: never wanted */
                end = rn_now_s();
                break;
            }
            res->went = 1;
            go_fd = -1;
            start = rn_now_s(); /* its time starts now */
            timeout_s = w->timeout_s;
        }
    }

    kill(-pid, SIGKILL);
    if (timed_out || stopped)
        kill(pid, SIGKILL); /* in case it left its group; it is not reaped yet, so it is ours */
    int wstatus = reap(pid);
    if (!eof)
        drain(out_fd, s, READS_PER_WAKE);
    if (pidfd >= 0)
        close(pidfd);

    res->elapsed_s = end - start;
    res->stopped = stopped;
    if (timed_out) {
        res->status = RN_TIMED_OUT;
    } else if (WIFSIGNALED(wstatus)) {
        res->status = RN_SIGNALED;
        res->signal = WTERMSIG(wstatus);
    } else {
        res->status = RN_EXITED;
        res->exit_code = WEXITSTATUS(wstatus);
    }
}

int rn_run(const char *const argv[], const rn_options *opt, rn_result *res)
{
    if (res != NULL)
        memset(res, 0, sizeof *res);
    if (!valid_arguments(argv, opt, res))
        return -1;

    int out[2] = {-1, -1}, status[2] = {-1, -1};
    sink s;
    double start = rn_now_s();
    if (!sink_init(&s, opt->output_cap)) {
        set_start_failed(res, NULL);
        goto done;
    }
    res->output = s.buf; /* set_start_failed() may replace it from here on */
    if (pipe2(out, O_CLOEXEC) != 0 || pipe2(status, O_CLOEXEC) != 0) {
        set_start_failed(res, format_message("cannot create a pipe: %s", strerror(errno)));
        goto done;
    }

    char **envp = opt->clean_env ? rn_clean_environment(opt) : NULL;
    if (opt->clean_env && !envp) {
        set_start_failed(
            res, format_message("cannot make the child's environment: %s", strerror(ENOMEM)));
        goto done;
    }
    /* Spared from the start, so that another thread's rn_kill_orphans (its own child ended)
     * never takes this one for an orphan. */
    pthread_mutex_lock(&children_mu);
    pid_t pid = fork();
    if (pid == 0)
        run_child(argv, opt, envp, out[1], status[1]); /* execs: never touches the mutex */
    int spared_it = pid > 0 && spare(pid) == 0;
    pthread_mutex_unlock(&children_mu);
    rn_free_environment(envp);
    if (pid < 0) {
        set_start_failed(res, format_message("cannot fork: %s", strerror(errno)));
        goto done;
    }

    /* The child's session (setsid) is its group; nothing is killed before it has reported its
     * exec (read_report), by which time the group exists. */
    close_fd(&out[1]);
    close_fd(&status[1]);

    child_report rep;
    if (read_report(status[0], &rep)) {
        reap(pid);
        if (spared_it)
            rn_unspare(pid);
        res->elapsed_s = rn_now_s() - start;
        set_start_failed(res, describe_report(&rep, argv, opt));
        goto done;
    }
    fcntl(out[0], F_SETFL, fcntl(out[0], F_GETFL) | O_NONBLOCK);
    watch w = {.out_fd = out[0],
               .stop_fd = opt->stop_fd ? *opt->stop_fd : -1,
               .go_fd = opt->go_fd ? *opt->go_fd : -1,
               .go_to = opt->go_to,
               .timeout_s = opt->timeout_s,
               .go_wait_s = opt->go_wait_s,
               .must_yield = opt->wait_turn ? opt->must_yield : NULL,
               .wait_turn = opt->wait_turn,
               .yield_ctx = opt->yield_ctx};
    supervise(pid, &w, start, &s, res);
    if (spared_it)
        rn_unspare(pid); /* reaped: its pid is free again */
    res->output = s.buf; /* may have moved while growing */
    res->output_len = s.len;
    res->output_dropped = s.dropped;
    rn_kill_orphans();

done:
    close_fd(&out[0]);
    close_fd(&out[1]);
    close_fd(&status[0]);
    close_fd(&status[1]);
    return 0;
}

int rn_adopt_orphans(void)
{
    return prctl(PR_SET_CHILD_SUBREAPER, 1) == 0 ? 0 : -1;
}

/* The parent of process pid, from /proc/PID/stat; -1 when it cannot be read. */
static pid_t parent_of(const char *pid)
{
    char state;
    return parent_and_state(pid, &state);
}

/* The parent of the process pid (a /proc name) and its state letter (R, S, D, T, Z...): -1
 * where it is gone. */
static pid_t parent_and_state(const char *pid, char *out_state)
{
    char path[64], line[512];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = '\0';
    /* "PID (COMM) STATE PPID ...": COMM may hold spaces and parentheses. */
    const char *end = strrchr(line, ')');
    char state;
    int ppid;
    int ok = end && sscanf(end + 1, " %c %d", &state, &ppid) == 2;
    *out_state = ok ? state : 'X';
    return ok ? (pid_t)ppid : -1;
}

/* Children of the grader's own, doing its work (batch.c's compiles ahead): not orphans. */
#define MAX_SPARED 64
static pid_t spared[MAX_SPARED];

/* The caller holds children_mu. */
static int spare(pid_t pid)
{
    for (int i = 0; i < MAX_SPARED; ++i)
        if (!spared[i]) {
            spared[i] = pid;
            return 0;
        }
    return -1;
}

int rn_spare(pid_t pid)
{
    pthread_mutex_lock(&children_mu);
    int rc = spare(pid);
    pthread_mutex_unlock(&children_mu);
    return rc;
}

void rn_unspare(pid_t pid)
{
    pthread_mutex_lock(&children_mu);
    for (int i = 0; i < MAX_SPARED; ++i)
        if (spared[i] == pid)
            spared[i] = 0;
    pthread_mutex_unlock(&children_mu);
}

static int is_spared(pid_t pid)
{
    for (int i = 0; i < MAX_SPARED; ++i)
        if (spared[i] == pid)
            return 1;
    return 0;
}

/* The children kill_children() killed and no one has reaped yet: only they are reaped here,
 * never a spared child (its own waiter must find it, and its pid must not be reused while it
 * is still spared). */
#define MAX_KILLED 4096
static pid_t killed[MAX_KILLED];
static int nkilled;

static void reap_killed(void)
{
    int kept = 0;
    for (int i = 0; i < nkilled; ++i) {
        pid_t r = waitpid(killed[i], NULL, WNOHANG);
        if (r == 0 || (r < 0 && errno == EINTR))
            killed[kept++] = killed[i]; /* not gone yet */
    }
    nkilled = kept;
}

/* Sends SIGKILL to every child of this process but the spared; returns how many there were. */
static int kill_children(void)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    pid_t self = getpid();
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || parent_of(e->d_name) != self ||
            is_spared((pid_t)atoi(e->d_name)))
            continue;
        pid_t pid = (pid_t)atoi(e->d_name);
        kill(pid, SIGKILL);
        int known = 0;
        for (int i = 0; i < nkilled && !known; ++i)
            known = killed[i] == pid;
        if (!known && nkilled < MAX_KILLED)
            killed[nkilled++] = pid;
        ++found;
    }
    closedir(d);
    return found;
}

int rn_kill_orphans(void)
{
    pthread_mutex_lock(&children_mu);
    int total = 0;
    double deadline = rn_now_s() + 10.0;
    /* Killed children may have been forking: go on until a round finds none. */
    for (int found = kill_children(); found > 0 && rn_now_s() < deadline; found = kill_children()) {
        total += found;
        reap_killed();
        struct timespec pause = {0, 2 * 1000 * 1000};
        nanosleep(&pause, NULL);
        reap_killed();
    }
    pthread_mutex_unlock(&children_mu);
    return total;
}

void rn_result_free(rn_result *res)
{
    if (res == NULL)
        return;
    free(res->output);
    res->output = NULL;
    res->output_len = 0;
}

void rn_describe(const rn_result *res, char *buf, size_t size)
{
    if (buf == NULL || size == 0)
        return;
    if (res == NULL) {
        snprintf(buf, size, "no result");
        return;
    }
    switch (res->status) {
    case RN_EXITED:
        snprintf(buf, size, "exited with status %d", res->exit_code);
        break;
    case RN_SIGNALED:
        snprintf(buf, size, "killed by signal %d (%s)", res->signal, strsignal(res->signal));
        break;
    case RN_TIMED_OUT:
        snprintf(buf, size, "timed out after %.1f s", res->elapsed_s);
        break;
    case RN_START_FAILED:
        snprintf(buf, size, "could not be started: %s",
                 res->output != NULL && res->output[0] != '\0' ? res->output : "unknown reason");
        break;
    default:
        snprintf(buf, size, "unknown status %d", (int)res->status);
        break;
    }
}
