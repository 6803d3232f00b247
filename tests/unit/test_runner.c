/*
 * test_runner.c - unit tests for grader/runner.c, driving tests/unit/fake_child.
 *
 * Built and run by hand (the project CMake passes the built fake_child's path):
 *   gcc -std=c11 -Wall -Wextra -Werror tests/unit/fake_child.c -o /tmp/fake_child
 *   gcc -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Igrader \
 *       -DFAKE_CHILD_PATH='"/tmp/fake_child"' tests/unit/test_runner.c grader/runner.c
 * grader/childenv.c \
 *       $(pkg-config --cflags --libs cmocka) -o /tmp/t_runner && /tmp/t_runner
 */
#define _GNU_SOURCE /* pipe2; mkdtemp, realpath, setenv, clock_gettime */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pty.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner.h"

#ifndef FAKE_CHILD_PATH
#error "build with -DFAKE_CHILD_PATH='\"/path/to/fake_child\"'"
#endif

/* Short limits keep the suite fast; the slack absorbs a loaded two-core machine. */
#define SHORT_LIMIT_S 0.5
#define SLACK_S 2.0

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static rn_options default_options(void)
{
    rn_options opt = {.timeout_s = 5.0, .output_cap = 4096};
    return opt;
}

/* Runs fake_child MODE [ARG]; rn_run itself must succeed. */
static rn_result run_fake(const char *mode, const char *arg, const rn_options *opt)
{
    const char *argv[] = {FAKE_CHILD_PATH, mode, arg, NULL};
    rn_result res;
    assert_int_equal(rn_run(argv, opt, &res), 0);
    assert_non_null(res.output);
    assert_int_equal(strlen(res.output), res.output_len);
    return res;
}

/* True when pid no longer runs: gone, or a zombie that its new parent has yet to reap. */
static int is_dead(pid_t pid)
{
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 1;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = '\0';
    const char *paren = strrchr(stat, ')');
    return paren != NULL && (paren[2] == 'Z' || paren[2] == 'X');
}

static void test_run_passes_exit_code_through(void **state)
{
    (void)state;
    rn_options opt = default_options();
    const char *codes[] = {"0", "3", "255"};
    const int want[] = {0, 3, 255};
    for (size_t i = 0; i < 3; i++) {
        rn_result res = run_fake("exit", codes[i], &opt);
        assert_int_equal(res.status, RN_EXITED);
        assert_int_equal(res.exit_code, want[i]);
        rn_result_free(&res);
    }
}

static void test_run_captures_output(void **state)
{
    (void)state;
    rn_options opt = default_options();
    rn_result res = run_fake("echo", "hello, grader", &opt);
    assert_int_equal(res.status, RN_EXITED);
    assert_int_equal(res.exit_code, 0);
    assert_string_equal(res.output, "hello, grader\n");
    assert_int_equal(res.output_dropped, 0);
    rn_result_free(&res);
}

static void test_run_times_out_hang(void **state)
{
    (void)state;
    rn_options opt = default_options();
    opt.timeout_s = SHORT_LIMIT_S;
    double t0 = now_s();
    rn_result res = run_fake("hang", NULL, &opt);
    double wall = now_s() - t0;
    assert_int_equal(res.status, RN_TIMED_OUT);
    assert_true(res.elapsed_s >= SHORT_LIMIT_S);
    assert_true(res.elapsed_s <= SHORT_LIMIT_S + SLACK_S);
    assert_true(wall <= SHORT_LIMIT_S + SLACK_S);
    rn_result_free(&res);
}

static void test_run_measures_elapsed_of_normal_exit(void **state)
{
    (void)state;
    rn_options opt = default_options();
    rn_result res = run_fake("sleep", "0.2", &opt);
    assert_int_equal(res.status, RN_EXITED);
    assert_int_equal(res.exit_code, 0);
    assert_true(res.elapsed_s >= 0.2);
    assert_true(res.elapsed_s <= 0.2 + SLACK_S);
    rn_result_free(&res);
}

static void test_run_reports_sigsegv(void **state)
{
    (void)state;
    rn_options opt = default_options();
    rn_result res = run_fake("crash", NULL, &opt);
    assert_int_equal(res.status, RN_SIGNALED);
    assert_int_equal(res.signal, SIGSEGV);
    rn_result_free(&res);
}

static void test_run_reports_sigabrt(void **state)
{
    (void)state;
    rn_options opt = default_options();
    rn_result res = run_fake("abort", NULL, &opt);
    assert_int_equal(res.status, RN_SIGNALED);
    assert_int_equal(res.signal, SIGABRT);
    rn_result_free(&res);
}

static void test_run_caps_flood(void **state)
{
    (void)state;
    const size_t total = 10u * 1000 * 1000, cap = 64u * 1024;
    rn_options opt = default_options();
    opt.output_cap = cap;
    double t0 = now_s();
    rn_result res = run_fake("flood", "10000000", &opt);
    double wall = now_s() - t0;
    assert_int_equal(res.status, RN_EXITED);
    assert_int_equal(res.exit_code, 0);
    assert_int_equal(res.output_len, cap);
    assert_int_equal(res.output_dropped, total - cap);
    /* Both streams land in the one buffer: fake_child alternates 4 KiB blocks. */
    assert_int_equal(strspn(res.output, "o"), 4096);
    assert_int_equal(res.output[4096], 'e');
    assert_true(wall < SLACK_S);
    rn_result_free(&res);
}

static void test_run_keeps_nothing_when_cap_is_zero(void **state)
{
    (void)state;
    rn_options opt = default_options();
    opt.output_cap = 0;
    rn_result res = run_fake("echo", "hello", &opt);
    assert_int_equal(res.status, RN_EXITED);
    assert_string_equal(res.output, "");
    assert_int_equal(res.output_len, 0);
    assert_int_equal(res.output_dropped, strlen("hello\n"));
    rn_result_free(&res);
}

static void test_run_adds_env_in_child_only(void **state)
{
    (void)state;
    const char *env[] = {"CL_RN_NEW=fresh value", "CL_RN_OLD=replaced", NULL};
    rn_options opt = default_options();
    opt.env_add = env;
    setenv("CL_RN_OLD", "original", 1);
    unsetenv("CL_RN_NEW");

    rn_result res = run_fake("env", "CL_RN_NEW", &opt);
    assert_string_equal(res.output, "fresh value\n");
    rn_result_free(&res);
    res = run_fake("env", "CL_RN_OLD", &opt);
    assert_string_equal(res.output, "replaced\n");
    rn_result_free(&res);

    assert_null(getenv("CL_RN_NEW"));
    assert_string_equal(getenv("CL_RN_OLD"), "original");
    unsetenv("CL_RN_OLD");
}

/* clean_env: nothing of the grader's environment but the kept few; HOME and TMPDIR the work
 * folder; env_add last, over anything of the same name. */
static void test_run_clean_env(void **state)
{
    (void)state;
    char dir[] = "/tmp/cl_runner_XXXXXX", real[PATH_MAX], want[PATH_MAX + 8];
    assert_non_null(mkdtemp(dir));
    assert_non_null(realpath(dir, real));
    const char *env[] = {"CL_RN_NEW=fresh", "TMPDIR=/elsewhere", NULL};
    rn_options opt = default_options();
    opt.env_add = env;
    opt.clean_env = 1;
    opt.workdir = dir;
    setenv("CL_RN_SECRET", "the grader's", 1);
    setenv("CUDA_INJECTION64_PATH", "/some/tool.so", 1);
    setenv("CUDA_VISIBLE_DEVICES", "3", 1);
    setenv("LC_MESSAGES", "C", 1);
    setenv("LC_SECRET", "a token", 1); /* a kept prefix is not a kept name */
    setenv("CUDA_API_KEY", "a key", 1);
    struct {
        const char *name, *want;
    } cases[] = {{"CL_RN_SECRET", "(unset)\n"},
                 {"LC_SECRET", "(unset)\n"},
                 {"CUDA_API_KEY", "(unset)\n"},
                 {"CUDA_INJECTION64_PATH", "(unset)\n"},
                 {"CUDA_VISIBLE_DEVICES", "3\n"},
                 {"LC_MESSAGES", "C\n"},
                 {"CL_RN_NEW", "fresh\n"},
                 {"TMPDIR", "/elsewhere\n"},
                 {"HOME", want}};
    snprintf(want, sizeof want, "%s\n", real);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        rn_result res = run_fake("env", cases[i].name, &opt);
        assert_string_equal(res.output, cases[i].want);
        rn_result_free(&res);
    }
    char path[PATH_MAX + 8];
    snprintf(path, sizeof path, "%s\n", getenv("PATH"));
    rn_result res = run_fake("env", "PATH", &opt);
    assert_string_equal(res.output, path);
    rn_result_free(&res);
    opt.clean_env = 0; /* the grader's, as before */
    res = run_fake("env", "CL_RN_SECRET", &opt);
    assert_string_equal(res.output, "the grader's\n");
    rn_result_free(&res);
    unsetenv("CL_RN_SECRET");
    unsetenv("CUDA_INJECTION64_PATH");
    unsetenv("CUDA_VISIBLE_DEVICES");
    unsetenv("LC_MESSAGES");
    unsetenv("LC_SECRET");
    unsetenv("CUDA_API_KEY");
    rmdir(dir);
}

/* Run from a terminal (a pseudo-terminal here, as an interactive grade has), the child has none:
 * /dev/tty opens nothing, so nothing it runs can write to the terminal or push characters
 * into it. The harness checks first that it has one, so that the test can fail. */
static void test_run_has_no_terminal(void **state)
{
    (void)state;
    int master;
    pid_t pid = forkpty(&master, NULL, NULL, NULL);
    if (pid < 0) {
        skip(); /* no pseudo-terminals here (no /dev/ptmx) */
        return;
    }
    if (pid == 0) {
        int tty = open("/dev/tty", O_RDWR | O_NOCTTY);
        if (tty < 0)
            _exit(2); /* the harness itself has no terminal: the test would prove nothing */
        close(tty);
        const char *argv[] = {"/bin/sh", "-c",
                              "if (exec >/dev/tty) 2>/dev/null; then echo tty; else echo none; fi",
                              NULL};
        rn_options opt = {.timeout_s = 10, .output_cap = 4096};
        rn_result res;
        if (rn_run(argv, &opt, &res) != 0 || !res.output)
            _exit(3);
        int ok = !strcmp(res.output, "none\n");
        rn_result_free(&res);
        _exit(ok ? 0 : 1);
    }
    char buf[256];
    while (read(master, buf, sizeof buf) > 0)
        ; /* until the child's side closes (EIO) */
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    close(master);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* A paused child (rn_options.must_yield) is stopped with everything it started, also what left
 * its session by a double fork (adopted here) and what a thread forked: a heartbeat written by
 * such an escapee stops for the pause. */
typedef struct pauser {
    const char *beats;
    double began;
    int paused;
    long during; /* heartbeats written while paused */
} pauser;

static long beats_in(const char *path)
{
    FILE *f = fopen(path, "r");
    long n = 0;
    for (int c; f && (c = fgetc(f)) != EOF;)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

static int pause_once(void *ctx)
{
    pauser *p = ctx;
    return !p->paused && beats_in(p->beats) >= 3;
}

static void wait_a_while(void *ctx)
{
    pauser *p = ctx;
    p->paused = 1;
    struct timespec settle = {0, 100 * 1000 * 1000};
    nanosleep(&settle, NULL); /* a beat already under way lands */
    long before = beats_in(p->beats);
    struct timespec pause = {0, 600 * 1000 * 1000};
    nanosleep(&pause, NULL);
    p->during = beats_in(p->beats) - before;
}

static void test_run_pauses_all_it_started(void **state)
{
    (void)state;
    char beats[] = "/tmp/cl_runner_beats_XXXXXX";
    int fd = mkstemp(beats);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(rn_adopt_orphans(), 0);
    char script[512];
    snprintf(script, sizeof script,
             "(setsid sh -c 'while :; do echo b >> %s; sleep 0.05; done' &); sleep 2", beats);
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    pauser p = {beats, 0, 0, -1};
    rn_options opt = {.timeout_s = 20,
                      .output_cap = 4096,
                      .must_yield = pause_once,
                      .wait_turn = wait_a_while,
                      .yield_ctx = &p};
    rn_result res;
    assert_int_equal(rn_run(argv, &opt, &res), 0);
    assert_int_equal(res.status, RN_EXITED);
    assert_int_equal(res.pauses, 1);
    assert_int_equal(p.during, 0); /* the escaped heartbeat was stopped too */
    assert_true(res.paused_s >= 0.6);
    rn_result_free(&res);
    unlink(beats);
}

static void test_run_changes_workdir(void **state)
{
    (void)state;
    char dir[] = "/tmp/cl_runner_XXXXXX", real[PATH_MAX], want[PATH_MAX + 2];
    assert_non_null(mkdtemp(dir));
    assert_non_null(realpath(dir, real));
    snprintf(want, sizeof want, "%s\n", real);
    rn_options opt = default_options();
    opt.workdir = dir;

    rn_result res = run_fake("pwd", NULL, &opt);
    rmdir(dir);
    assert_int_equal(res.status, RN_EXITED);
    assert_string_equal(res.output, want);
    rn_result_free(&res);
}

static void assert_start_failed(const char *const argv[], const rn_options *opt,
                                const char *subject)
{
    rn_result res;
    assert_int_equal(rn_run(argv, opt, &res), 0);
    assert_int_equal(res.status, RN_START_FAILED);
    assert_non_null(res.output);
    assert_int_equal(strlen(res.output), res.output_len);
    assert_non_null(strstr(res.output, subject));
    assert_non_null(strstr(res.output, strerror(ENOENT)));
    rn_result_free(&res);
}

static void test_run_reports_missing_program(void **state)
{
    (void)state;
    rn_options opt = default_options();
    const char *absolute[] = {"/nonexistent/cl-no-such-program", NULL};
    const char *searched[] = {"cl-no-such-program-4f2a", NULL};
    assert_start_failed(absolute, &opt, "'/nonexistent/cl-no-such-program'");
    assert_start_failed(searched, &opt, "'cl-no-such-program-4f2a'");
    opt.output_cap = 0; /* the reason is the runner's, not the child's output: always kept */
    assert_start_failed(searched, &opt, "'cl-no-such-program-4f2a'");
}

static void test_run_reports_missing_workdir(void **state)
{
    (void)state;
    rn_options opt = default_options();
    opt.workdir = "/nonexistent/cl-no-such-dir";
    const char *argv[] = {FAKE_CHILD_PATH, "exit", "0", NULL};
    assert_start_failed(argv, &opt, "'/nonexistent/cl-no-such-dir'");
}

static void test_run_returns_promptly_after_fork_hang(void **state)
{
    (void)state;
    rn_options opt = default_options();
    opt.timeout_s = 10.0;
    double t0 = now_s();
    rn_result res = run_fake("fork-hang", NULL, &opt);
    double wall = now_s() - t0;
    assert_true(wall < 3.0);
    assert_int_equal(res.status, RN_EXITED);
    assert_int_equal(res.exit_code, 0);

    /* The grandchild was killed with the group, not left sleeping forever. */
    pid_t grandchild = (pid_t)strtol(res.output, NULL, 10);
    assert_true(grandchild > 1);
    double t1 = now_s();
    const struct timespec tick = {0, 10 * 1000 * 1000};
    while (!is_dead(grandchild) && now_s() - t1 < SLACK_S)
        nanosleep(&tick, NULL);
    assert_true(is_dead(grandchild));
    rn_result_free(&res);
}

static void test_run_stops_what_left_the_group(void **state)
{
    (void)state;
    /* A daemon: it left the child's process group and session, so killing the group misses
     * it; adopted as an orphan, it is still stopped when the run ends. */
    assert_int_equal(rn_adopt_orphans(), 0);
    rn_options opt = default_options();
    rn_result res = run_fake("daemon", NULL, &opt);
    assert_int_equal(res.status, RN_EXITED);
    pid_t daemon = (pid_t)strtol(res.output, NULL, 10);
    assert_true(daemon > 1);
    assert_true(is_dead(daemon));
    rn_result_free(&res);
}

/* A spared child (a compile ahead) that ended while orphans were being stopped is left for its
 * own waiter: rn_kill_orphans reaps only what it killed, so the pid is not free for reuse while
 * it is still spared. */
static void test_spared_child_is_left_to_its_waiter(void **state)
{
    (void)state;
    pid_t pid = fork();
    if (pid == 0)
        _exit(7);
    assert_true(pid > 0);
    assert_int_equal(rn_spare(pid), 0);
    const struct timespec tick = {0, 50 * 1000 * 1000};
    nanosleep(&tick, NULL); /* it has ended: a zombie, ours to wait for */
    assert_int_equal(rn_adopt_orphans(), 0);
    rn_options opt = default_options();
    rn_result res = run_fake("daemon", NULL, &opt); /* stops an orphan, so reaps */
    rn_result_free(&res);
    rn_kill_orphans();
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 7);
    rn_unspare(pid);
}

static void test_stop_fd_stops_the_child(void **state)
{
    (void)state;
    int stop[2];
    assert_int_equal(pipe(stop), 0);
    rn_options opt = default_options(); /* 5 s limit: far beyond the stop */
    opt.stop_fd = &stop[0];
    assert_int_equal(write(stop[1], "", 1), 1);
    double t0 = now_s();
    rn_result res = run_fake("hang", NULL, &opt);
    assert_true(now_s() - t0 < SLACK_S);
    assert_int_equal(res.stopped, 1);
    assert_int_not_equal(res.status, RN_TIMED_OUT);
    assert_int_not_equal(res.status, RN_EXITED);
    rn_result_free(&res);
    close(stop[0]);
    close(stop[1]);
}

/* A child started early (rn_options.go_fd): what the caller writes reaches it through the pipe
 * it reads, and its time limit starts then, not when it was started. */
typedef struct go_later {
    int fd;
    double after_s;
} go_later;

static void *write_go_later(void *arg)
{
    const go_later *g = arg;
    struct timespec ts = {0, (long)(g->after_s * 1e9)};
    nanosleep(&ts, NULL);
    ssize_t n = write(g->fd, "run-abc\n", 8);
    (void)n;
    return NULL;
}

static rn_result run_waiting(rn_options *opt, int go[2], int fwd[2])
{
    char fd[16];
    snprintf(fd, sizeof fd, "%d", fwd[0]);
    int keep[] = {fwd[0], -1};
    opt->keep_fds = keep;
    opt->go_fd = &go[0];
    opt->go_to = fwd[1];
    return run_fake("go", fd, opt);
}

static void test_go_reaches_the_child_and_starts_its_time(void **state)
{
    (void)state;
    int go[2], fwd[2];
    assert_int_equal(pipe2(go, O_CLOEXEC), 0);
    assert_int_equal(pipe2(fwd, O_CLOEXEC), 0);
    rn_options opt = default_options();
    opt.timeout_s = 0.3; /* shorter than the wait for the go */
    go_later g = {go[1], 0.6};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, write_go_later, &g), 0);
    rn_result res = run_waiting(&opt, go, fwd);
    pthread_join(t, NULL);
    assert_int_equal(res.status, RN_EXITED);
    assert_int_equal(res.exit_code, 0);
    assert_int_equal(res.went, 1);
    assert_int_equal(res.stopped, 0);
    assert_non_null(strstr(res.output, "go: run-abc"));
    assert_true(res.elapsed_s < 0.3); /* counted from the go */
    rn_result_free(&res);
    close(go[0]);
    close(go[1]);
    close(fwd[0]);
    close(fwd[1]);
}

static void test_no_go_stops_the_child(void **state)
{
    (void)state;
    for (int closed = 0; closed < 2; ++closed) {
        int go[2], fwd[2];
        assert_int_equal(pipe2(go, O_CLOEXEC), 0);
        assert_int_equal(pipe2(fwd, O_CLOEXEC), 0);
        rn_options opt = default_options();
        opt.go_wait_s = 0.3; /* ends the wait where the go's end stays open */
        if (closed) {
            close(go[1]);
            go[1] = -1;
        }
        double t0 = now_s();
        rn_result res = run_waiting(&opt, go, fwd);
        assert_true(now_s() - t0 < SLACK_S);
        assert_int_equal(res.stopped, 1);
        assert_int_equal(res.went, 0);
        assert_int_not_equal(res.status, RN_EXITED);
        rn_result_free(&res);
        close(go[0]);
        if (go[1] >= 0)
            close(go[1]);
        close(fwd[0]);
        close(fwd[1]);
    }
}

static void test_unstopped_child_is_not_marked(void **state)
{
    (void)state;
    int stop[2];
    assert_int_equal(pipe(stop), 0);
    rn_options opt = default_options();
    opt.stop_fd = &stop[0];
    rn_result res = run_fake("exit", "3", &opt);
    assert_int_equal(res.status, RN_EXITED);
    assert_int_equal(res.exit_code, 3);
    assert_int_equal(res.stopped, 0);
    rn_result_free(&res);
    close(stop[0]);
    close(stop[1]);
}

static void *sleep_a_second(void *arg)
{
    rn_options opt = default_options();
    rn_result *res = arg;
    *res = run_fake("sleep", "1", &opt);
    return NULL;
}

/* A child that ends on one thread (rn_run then stops every orphan) must not take another
 * thread's running child for one. */
static void test_two_threads_children_live_apart(void **state)
{
    (void)state;
    assert_int_equal(rn_adopt_orphans(), 0);
    rn_result slow;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, sleep_a_second, &slow), 0);
    const struct timespec tick = {0, 200 * 1000 * 1000};
    nanosleep(&tick, NULL); /* the slow child has started */
    rn_options opt = default_options();
    for (int i = 0; i < 3; ++i) {
        rn_result quick = run_fake("exit", "0", &opt);
        assert_int_equal(quick.status, RN_EXITED);
        rn_result_free(&quick);
    }
    pthread_join(t, NULL);
    assert_int_equal(slow.status, RN_EXITED);
    assert_int_equal(slow.exit_code, 0);
    assert_true(slow.elapsed_s >= 0.9);
    rn_result_free(&slow);
}

static void test_run_limits_file_size(void **state)
{
    (void)state;
    char dir[] = "/tmp/test_runner-XXXXXX";
    assert_non_null(mkdtemp(dir));
    rn_options opt = default_options();
    opt.workdir = dir;
    opt.max_file_bytes = 4096;
    rn_result res = run_fake("fsize", NULL, &opt);
    /* Writing past the limit kills it with SIGXFSZ (or, ignored, fails the write). */
    assert_true(res.status == RN_SIGNALED || (res.status == RN_EXITED && res.exit_code != 0));
    rn_result_free(&res);
    opt.max_file_bytes = 0;
    res = run_fake("fsize", NULL, &opt);
    assert_int_equal(res.status, RN_EXITED);
    assert_int_equal(res.exit_code, 0);
    rn_result_free(&res);
    char path[64];
    snprintf(path, sizeof path, "%s/fsize.out", dir);
    unlink(path);
    rmdir(dir);
}

static void test_run_leaves_no_zombies(void **state)
{
    (void)state;
    rn_options opt = default_options();
    opt.timeout_s = 0.2;
    const char *modes[] = {"crash", "hang", "fork-hang"};
    for (size_t i = 0; i < 3; i++) {
        rn_result res = run_fake(modes[i], NULL, &opt);
        rn_result_free(&res);
    }
    const char *missing[] = {"/nonexistent/cl-no-such-program", NULL};
    rn_result res;
    assert_int_equal(rn_run(missing, &opt, &res), 0);
    rn_result_free(&res);
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

static int count_open_fds(void)
{
    int n = 0;
    for (int fd = 0; fd < 1024; fd++)
        n += fcntl(fd, F_GETFD) != -1;
    return n;
}

static void test_run_closes_its_descriptors(void **state)
{
    (void)state;
    rn_options opt = default_options();
    opt.timeout_s = 0.2;
    int before = count_open_fds();
    const char *modes[] = {"echo", "hang", "fork-hang"};
    for (size_t i = 0; i < 3; i++) {
        rn_result res = run_fake(modes[i], "x", &opt);
        rn_result_free(&res);
    }
    const char *missing[] = {"/nonexistent/cl-no-such-program", NULL};
    rn_result res;
    assert_int_equal(rn_run(missing, &opt, &res), 0);
    rn_result_free(&res);
    assert_int_equal(count_open_fds(), before);
}

static void test_run_rejects_bad_arguments(void **state)
{
    (void)state;
    rn_options opt = default_options();
    rn_result res;
    const char *ok[] = {FAKE_CHILD_PATH, "exit", "0", NULL};
    const char *no_program[] = {NULL};
    const char *empty_program[] = {"", NULL};
    assert_int_equal(rn_run(NULL, &opt, &res), -1);
    assert_null(res.output);
    assert_int_equal(rn_run(no_program, &opt, &res), -1);
    assert_int_equal(rn_run(empty_program, &opt, &res), -1);
    assert_int_equal(rn_run(ok, NULL, &res), -1);
    assert_int_equal(rn_run(ok, &opt, NULL), -1);

    const char *no_equals[] = {"CL_RN_X", NULL};
    const char *no_name[] = {"=value", NULL};
    opt.env_add = no_equals;
    assert_int_equal(rn_run(ok, &opt, &res), -1);
    opt.env_add = no_name;
    assert_int_equal(rn_run(ok, &opt, &res), -1);
    rn_result_free(&res);
}

static void test_result_free_can_be_repeated(void **state)
{
    (void)state;
    rn_options opt = default_options();
    rn_result res = run_fake("echo", "x", &opt);
    rn_result_free(&res);
    assert_null(res.output);
    assert_int_equal(res.output_len, 0);
    rn_result_free(&res);
    rn_result_free(NULL);
}

static void assert_described(const rn_result *res, const char *want)
{
    char buf[256];
    rn_describe(res, buf, sizeof buf);
    assert_string_equal(buf, want);
}

static void test_describe_exit(void **state)
{
    (void)state;
    rn_result res = {.status = RN_EXITED, .exit_code = 3};
    assert_described(&res, "exited with status 3");
    res.output_dropped = 12345; /* the caller reports dropped output, not rn_describe */
    assert_described(&res, "exited with status 3");
}

static void test_describe_signal(void **state)
{
    (void)state;
    rn_result res = {.status = RN_SIGNALED, .signal = SIGSEGV};
    assert_described(&res, "killed by signal 11 (Segmentation fault)");
}

static void test_describe_timeout(void **state)
{
    (void)state;
    rn_result res = {.status = RN_TIMED_OUT, .elapsed_s = 10.04};
    assert_described(&res, "timed out after 10.0 s");
}

static void test_describe_start_failure(void **state)
{
    (void)state;
    char why[] = "cannot run 'nvcc': No such file or directory";
    rn_result res = {.status = RN_START_FAILED, .output = why, .output_len = strlen(why)};
    assert_described(&res, "could not be started: cannot run 'nvcc': No such file or directory");
    res.output = NULL;
    assert_described(&res, "could not be started: unknown reason");
}

static void test_describe_truncates_to_buffer(void **state)
{
    (void)state;
    rn_result res = {.status = RN_EXITED, .exit_code = 3};
    char buf[8];
    memset(buf, 'x', sizeof buf);
    rn_describe(&res, buf, sizeof buf);
    assert_string_equal(buf, "exited ");
    rn_describe(&res, buf, 0); /* nothing written, nothing crashes */
    assert_string_equal(buf, "exited ");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_passes_exit_code_through),
        cmocka_unit_test(test_run_captures_output),
        cmocka_unit_test(test_run_times_out_hang),
        cmocka_unit_test(test_run_measures_elapsed_of_normal_exit),
        cmocka_unit_test(test_run_reports_sigsegv),
        cmocka_unit_test(test_run_reports_sigabrt),
        cmocka_unit_test(test_run_caps_flood),
        cmocka_unit_test(test_run_keeps_nothing_when_cap_is_zero),
        cmocka_unit_test(test_run_adds_env_in_child_only),
        cmocka_unit_test(test_run_changes_workdir),
        cmocka_unit_test(test_run_reports_missing_program),
        cmocka_unit_test(test_run_reports_missing_workdir),
        cmocka_unit_test(test_run_returns_promptly_after_fork_hang),
        cmocka_unit_test(test_run_stops_what_left_the_group),
        cmocka_unit_test(test_spared_child_is_left_to_its_waiter),
        cmocka_unit_test(test_stop_fd_stops_the_child),
        cmocka_unit_test(test_unstopped_child_is_not_marked),
        cmocka_unit_test(test_go_reaches_the_child_and_starts_its_time),
        cmocka_unit_test(test_no_go_stops_the_child),
        cmocka_unit_test(test_two_threads_children_live_apart),
        cmocka_unit_test(test_run_limits_file_size),
        cmocka_unit_test(test_run_leaves_no_zombies),
        cmocka_unit_test(test_run_closes_its_descriptors),
        cmocka_unit_test(test_run_rejects_bad_arguments),
        cmocka_unit_test(test_result_free_can_be_repeated),
        cmocka_unit_test(test_run_clean_env),
        cmocka_unit_test(test_run_has_no_terminal),
        cmocka_unit_test(test_run_pauses_all_it_started),
        cmocka_unit_test(test_describe_exit),
        cmocka_unit_test(test_describe_signal),
        cmocka_unit_test(test_describe_timeout),
        cmocka_unit_test(test_describe_start_failure),
        cmocka_unit_test(test_describe_truncates_to_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
