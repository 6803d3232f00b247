/*
 * fake_child.c - a program that misbehaves on request, run by test_runner through rn_run().
 *
 *   fake_child exit N | hang | crash | abort | flood BYTES | echo TEXT | env NAME | pwd
 *            | fork-hang | daemon | sleep SECONDS | fsize | go FD
 *   fake_child run|trace --workdir DIR [--go FD] [other grade-worker options]
 *
 * fork-hang prints the pid of a grandchild that sleeps forever holding stdout, then exits 0
 * at once. daemon prints the pid of a great-grandchild that left the child's process group
 * and session (setsid, as a daemon does) and sleeps forever, then exits 0: only a parent that
 * adopts orphans can still stop it. fsize writes 1 MB to ./fsize.out. Built and run by hand:
 *   gcc -std=c11 -Wall -Wextra -Werror tests/unit/fake_child.c -o /tmp/fake_child
 *   /tmp/fake_child flood 100 | wc -c
 */
#define _XOPEN_SOURCE 700 /* fork, nanosleep, getcwd, setrlimit */

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* A crash test must not leave core files in the working directory. */
static void no_core_dump(void)
{
    struct rlimit none = {0, 0};
    setrlimit(RLIMIT_CORE, &none);
}

static int mode_exit(const char *arg)
{
    return atoi(arg);
}

/* "Forever" for a working runner, which kills it long before; a broken one gets a failed
 * test (killed by SIGALRM) instead of a hung suite and a stray process. */
static _Noreturn void sleep_forever(void)
{
    alarm(30);
    for (;;)
        pause();
}

static int mode_hang(const char *arg)
{
    (void)arg;
    sleep_forever();
}

static int mode_crash(const char *arg)
{
    (void)arg;
    no_core_dump();
    raise(SIGSEGV);
    return 1;
}

static int mode_abort(const char *arg)
{
    (void)arg;
    no_core_dump();
    abort();
}

/* Writes BYTES in total, in alternating blocks: 'o' to stdout, 'e' to stderr. */
static int mode_flood(const char *arg)
{
    char out[4096], err[4096];
    memset(out, 'o', sizeof out);
    memset(err, 'e', sizeof err);
    unsigned long long left = strtoull(arg, NULL, 10);
    for (int i = 0; left > 0; i++) {
        size_t n = left < sizeof out ? (size_t)left : sizeof out;
        if (write_all(i % 2 == 0 ? STDOUT_FILENO : STDERR_FILENO, i % 2 == 0 ? out : err, n) != 0)
            return 1;
        left -= n;
    }
    return 0;
}

static int mode_echo(const char *arg)
{
    printf("%s\n", arg);
    return 0;
}

static int mode_env(const char *arg)
{
    const char *value = getenv(arg);
    printf("%s\n", value != NULL ? value : "(unset)");
    return 0;
}

static int mode_pwd(const char *arg)
{
    (void)arg;
    char dir[PATH_MAX];
    if (getcwd(dir, sizeof dir) == NULL)
        return 1;
    printf("%s\n", dir);
    return 0;
}

static int mode_fork_hang(const char *arg)
{
    (void)arg;
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0)
        sleep_forever();
    printf("%ld\n", (long)pid);
    return 0;
}

static int mode_daemon(const char *arg)
{
    (void)arg;
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    pid_t pid = fork();
    if (pid < 0)
        return 1;
    if (pid == 0) {
        setsid();
        pid_t grand = fork();
        if (grand == 0) {
            close(fds[0]);
            for (int fd = 0; fd < 3; ++fd)
                close(fd);
            sleep_forever();
        }
        dprintf(fds[1], "%ld\n", (long)grand);
        _exit(0);
    }
    close(fds[1]);
    char line[32] = "";
    ssize_t n = read(fds[0], line, sizeof line - 1);
    line[n > 0 ? n : 0] = '\0';
    printf("%s", line);
    return 0;
}

static int mode_fsize(const char *arg)
{
    (void)arg;
    static char block[1 << 20];
    FILE *f = fopen("fsize.out", "wb");
    int ok = f && fwrite(block, 1, sizeof block, f) == sizeof block;
    if (f && fclose(f) != 0)
        ok = 0;
    return ok ? 0 : 1;
}

static int mode_sleep(const char *arg)
{
    double s = strtod(arg, NULL);
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
    return 0;
}

/* Waits for a line on descriptor FD (a child started early: rn_options.go_fd), prints it. */
static int mode_go(const char *arg)
{
    int fd = atoi(arg);
    char line[256];
    size_t n = 0;
    while (n + 1 < sizeof line && read(fd, line + n, 1) == 1 && line[n] != '\n')
        ++n;
    line[n] = '\0';
    printf("go: %s\n", line);
    return n ? 0 : 4;
}

static const struct {
    const char *name;
    int (*run)(const char *arg);
    int needs_arg;
} modes[] = {
    {"exit", mode_exit, 1},   {"hang", mode_hang, 0},     {"crash", mode_crash, 0},
    {"abort", mode_abort, 0}, {"flood", mode_flood, 1},   {"echo", mode_echo, 1},
    {"env", mode_env, 1},     {"pwd", mode_pwd, 0},       {"fork-hang", mode_fork_hang, 0},
    {"sleep", mode_sleep, 1}, {"daemon", mode_daemon, 0}, {"fsize", mode_fsize, 0},
    {"go", mode_go, 1},
};

/* As a grade-worker replay started early (test_child): says on --go FD that it is set up,
 * reads its go line from it and goes there, as the worker does; then prints where it is and
 * its --workdir. FAKE_WORKER in the environment says how it misbehaves: "die-before-go" (exits
 * 3 at once when it has a go to wait for: run again without one, it behaves), "slow" (sets
 * itself up for 1 s before it says so), "hang" (after its go), "fail-beside" (exits 3 when
 * handed the GPU lock, as a replay beside others whose CUDA call failed: run again alone, it
 * behaves), "measured" (after its go, says on --go that it has measured, as a run child does,
 * then goes on for 1 s), "sleep" (6 s before it ends, as a launcher that sleeps), "fail-once"
 * (exits 3 the first time in its folder, then sleeps 6 s: a launcher that stalls its re-run). */
static int as_worker(int argc, char **argv)
{
    const char *go = NULL, *workdir = "", *lock = NULL, *how = getenv("FAKE_WORKER");
    for (int i = 2; i + 1 < argc; ++i) {
        if (!strcmp(argv[i], "--go"))
            go = argv[i + 1];
        if (!strcmp(argv[i], "--workdir"))
            workdir = argv[i + 1];
        if (!strcmp(argv[i], "--gpu-lock"))
            lock = argv[i + 1];
    }
    if (go && how && !strcmp(how, "die-before-go"))
        return 3;
    if (lock && how && !strcmp(how, "fail-beside"))
        return 3;
    if (go) {
        char dir[PATH_MAX];
        size_t n = 0;
        int fd = atoi(go);
        if (how && !strcmp(how, "slow"))
            mode_sleep("1");
        if (write(fd, "r", 1) != 1)
            return 5;
        while (n + 1 < sizeof dir && read(fd, dir + n, 1) == 1 && dir[n] != '\n')
            ++n;
        dir[n] = '\0';
        if (n == 0 || chdir(dir) != 0)
            return 4;
        if (how && !strcmp(how, "measured")) {
            if (write(fd, "m", 1) != 1)
                return 5;
            mode_sleep("1");
        }
    }
    if (how && !strcmp(how, "hang"))
        sleep_forever();
    if (how && !strcmp(how, "sleep"))
        mode_sleep("6");
    if (how && !strcmp(how, "fail-once")) {
        FILE *mark = fopen("failed-once", "r");
        if (!mark) {
            mark = fopen("failed-once", "w");
            if (mark)
                fclose(mark);
            return 3;
        }
        fclose(mark);
        mode_sleep("6");
    }
    char cwd[PATH_MAX];
    printf("cwd=%s workdir=%s go=%s\n", getcwd(cwd, sizeof cwd) ? cwd : "?", workdir,
           go ? "yes" : "no");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 &&
        (!strcmp(argv[1], "run") || !strcmp(argv[1], "trace") || !strcmp(argv[1], "record")))
        return as_worker(argc, argv);
    for (size_t i = 0; argc >= 2 && i < sizeof modes / sizeof modes[0]; i++) {
        if (strcmp(argv[1], modes[i].name) != 0)
            continue;
        if (modes[i].needs_arg && argc < 3)
            break;
        return modes[i].run(argc >= 3 ? argv[2] : "");
    }
    fprintf(stderr, "usage: fake_child exit N | hang | crash | abort | flood BYTES | echo TEXT "
                    "| env NAME | pwd | fork-hang | sleep SECONDS\n");
    return 2;
}
