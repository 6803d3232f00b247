/*
 * test_pool.c - unit tests for common/gpulock.c and grader/pool.c: the GPU lock between
 * processes (shared with shared, alone when exclusive, a waiting exclusive holder ahead of later
 * shared ones, a wait with a limit, no path to it), gradings side by side, an outcome through
 * its file. No GPU needed.
 */
#define _GNU_SOURCE

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpulock.h"
#include "pool.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/test-pool-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000};
    nanosleep(&t, NULL);
}

/* In a child: takes lock as how, holds it ms, exits 0 (1: not taken within wait_s). */
static pid_t hold(const gl_lock *lock, int how, int ms, double wait_s)
{
    pid_t pid = fork();
    if (pid == 0) {
        gl_lock own;
        if (gl_open(lock, &own) != 0)
            _exit(2);
        int rc = gl_take(&own, how, wait_s);
        if (rc == 0)
            sleep_ms(ms);
        _exit(rc == 0 ? 0 : 1);
    }
    return pid;
}

static int exit_of(pid_t pid)
{
    int st;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_gpulock_files_are_unlinked(void **state)
{
    (void)state;
    gl_lock l;
    assert_int_equal(gl_create(dir, &l), 0);
    DIR *d = opendir(dir);
    int entries = 0;
    for (struct dirent *e; (e = readdir(d));)
        entries += e->d_name[0] != '.' || strlen(e->d_name) > 2;
    closedir(d);
    assert_int_equal(entries, 0); /* nothing a student's program could open by name */
    gl_close(&l);
    assert_int_equal(l.lock_fd, -1);
}

static void test_gpulock_shared_with_shared(void **state)
{
    (void)state;
    gl_lock l, mine;
    assert_int_equal(gl_create(dir, &l), 0);
    assert_int_equal(gl_open(&l, &mine), 0);
    assert_int_equal(gl_take(&mine, GL_SHARED, 1.0), 0);
    pid_t other = hold(&l, GL_SHARED, 0, 0.5);
    assert_int_equal(exit_of(other), 0);
    gl_close(&mine);
    gl_close(&l);
}

static void test_gpulock_exclusive_keeps_others_out(void **state)
{
    (void)state;
    gl_lock l, mine;
    assert_int_equal(gl_create(dir, &l), 0);
    assert_int_equal(gl_open(&l, &mine), 0);
    assert_int_equal(gl_take(&mine, GL_EXCLUSIVE, 1.0), 0);
    assert_int_equal(exit_of(hold(&l, GL_SHARED, 0, 0.2)), 1); /* waited 0.2 s in vain */
    assert_int_equal(exit_of(hold(&l, GL_EXCLUSIVE, 0, 0.2)), 1);
    gl_release(&mine);
    assert_int_equal(exit_of(hold(&l, GL_EXCLUSIVE, 0, 1.0)), 0);
    /* A shared holder keeps an exclusive one out, too. */
    assert_int_equal(gl_take(&mine, GL_SHARED, 1.0), 0);
    assert_int_equal(exit_of(hold(&l, GL_EXCLUSIVE, 0, 0.2)), 1);
    gl_close(&mine);
    gl_close(&l);
}

/* In a child: takes the counters' lock (holding the GPU lock shared first, with shared_first),
 * then the GPU lock shared, holds both ms, exits 0 (1: the counters' lock not taken within
 * wait_s, 3: the GPU lock not). */
static pid_t count(const gl_lock *lock, int ms, double wait_s, int shared_first)
{
    pid_t pid = fork();
    if (pid == 0) {
        gl_lock own;
        if (gl_open(lock, &own) != 0)
            _exit(2);
        if (shared_first && gl_take(&own, GL_SHARED, wait_s) != 0)
            _exit(3);
        if (gl_take_counting(&own, wait_s) != 0)
            _exit(1);
        if (gl_take(&own, GL_SHARED, wait_s) != 0)
            _exit(3);
        sleep_ms(ms);
        _exit(0);
    }
    return pid;
}

/* The counters' lock keeps another counter out, not the GPU's shared or exclusive holders; and
 * one waiting for it holds nothing of the GPU lock (it gave that up), so an exclusive holder
 * gets the GPU meanwhile. */
static void test_gpulock_counting_apart_from_the_gpu(void **state)
{
    (void)state;
    gl_lock l, mine;
    assert_int_equal(gl_create(dir, &l), 0);
    assert_int_equal(gl_open(&l, &mine), 0);
    assert_int_equal(gl_take(&mine, GL_SHARED, 1.0), 0);
    assert_int_equal(gl_take_counting(&mine, 1.0), 0);
    assert_int_equal(mine.held, 0); /* it gave the GPU up to wait */
    assert_true(mine.counting);
    assert_int_equal(gl_take(&mine, GL_SHARED, 1.0), 0);
    assert_true(mine.counting); /* the GPU lock taken again, the counters' kept */
    assert_int_equal(exit_of(count(&l, 0, 0.2, 0)), 1); /* another counter waits in vain */
    assert_int_equal(exit_of(hold(&l, GL_SHARED, 0, 0.2)), 0);
    gl_release(&mine);
    assert_int_equal(exit_of(hold(&l, GL_EXCLUSIVE, 0, 0.2)), 0); /* counting, GPU not held */
    assert_int_equal(exit_of(count(&l, 0, 0.2, 0)), 1);
    gl_release_counting(&mine);
    assert_false(mine.counting);
    assert_int_equal(exit_of(count(&l, 0, 0.5, 0)), 0);
    /* A counter that held the GPU shared and waits for the counters' lock keeps no exclusive
     * holder waiting. */
    assert_int_equal(gl_take_counting(&mine, 1.0), 0);
    pid_t waiting = count(&l, 0, 2.0, 1);
    sleep_ms(100);
    assert_int_equal(exit_of(hold(&l, GL_EXCLUSIVE, 0, 0.5)), 0);
    gl_release_counting(&mine);
    assert_int_equal(exit_of(waiting), 0);
    gl_close(&mine);
    gl_close(&l);
}

/* A process that shares one open file with its parent would share its lock: gl_open's is its
 * own. */
static void test_gpulock_open_is_a_lock_of_its_own(void **state)
{
    (void)state;
    gl_lock l;
    assert_int_equal(gl_create(dir, &l), 0);
    assert_int_equal(gl_take(&l, GL_EXCLUSIVE, 1.0), 0);
    assert_int_equal(exit_of(hold(&l, GL_SHARED, 0, 0.2)), 1);
    gl_close(&l);
}

/* While an exclusive holder waits, later shared ones queue behind it: it is not starved by
 * shared holders that keep coming. */
static void test_gpulock_exclusive_waits_ahead_of_later_shared(void **state)
{
    (void)state;
    gl_lock l;
    assert_int_equal(gl_create(dir, &l), 0);
    pid_t first = hold(&l, GL_SHARED, 400, 1.0);
    sleep_ms(100);
    pid_t writer = hold(&l, GL_EXCLUSIVE, 400, 5.0);
    sleep_ms(100);
    /* Arrives while the writer waits: it gets in only after the writer, 0.7 s from now at
     * the earliest, so a 0.3 s wait runs out. */
    assert_int_equal(exit_of(hold(&l, GL_SHARED, 0, 0.3)), 1);
    assert_int_equal(exit_of(first), 0);
    assert_int_equal(exit_of(writer), 0);
    gl_close(&l);
}

static void test_gpulock_format_and_parse(void **state)
{
    (void)state;
    gl_lock l = {5, 7, 9, 0, 0}, back;
    char text[32];
    gl_format(&l, text, sizeof text);
    assert_string_equal(text, "5:7:9");
    assert_int_equal(gl_parse(text, &back), 0);
    assert_int_equal(back.lock_fd, 5);
    assert_int_equal(back.turn_fd, 7);
    assert_int_equal(back.count_fd, 9);
    assert_int_equal(gl_parse("5", &back), -1);
    assert_int_equal(gl_parse("5:7", &back), -1);
    assert_int_equal(gl_parse("5:x:9", &back), -1);
    assert_int_equal(gl_parse("5:7:9:", &back), -1);
    assert_int_equal(gl_parse("-1:2:3", &back), -1);
    gl_lock none = GL_NONE; /* no lock: every call is a no-op that succeeds */
    assert_int_equal(gl_take(&none, GL_EXCLUSIVE, 0), 0);
}

static int ran[16], ends[16], statuses[16];
static size_t nends;

static int job(void *ctx, size_t i, gl_lock *gpu)
{
    (void)ctx;
    if (gl_take(gpu, GL_SHARED, 2.0) != 0)
        return 99;
    sleep_ms(i == 0 ? 300 : 20); /* the first ends last */
    if (i == 4)
        kill(getpid(), SIGKILL); /* a crash, which no handler of the test's can catch */
    return i == 3 ? 7 : 0;
}

static int done(void *ctx, size_t i, int status)
{
    (void)ctx;
    ran[i] = 1;
    statuses[i] = status;
    ends[nends++] = (int)i;
    return 0;
}

static void test_pool_runs_every_job_side_by_side(void **state)
{
    (void)state;
    gl_lock l;
    assert_int_equal(gl_create(dir, &l), 0);
    memset(ran, 0, sizeof ran);
    nends = 0;
    assert_int_equal(pool_run(6, 3, &l, job, done, NULL), 0);
    for (int i = 0; i < 6; ++i)
        assert_int_equal(ran[i], 1);
    assert_int_equal(statuses[0], 0);
    assert_int_equal(statuses[3], 7);  /* a job's exit status */
    assert_int_equal(statuses[4], -1); /* a crash */
    assert_int_not_equal(ends[0], 0);  /* side by side: job 0 did not end first */
    gl_close(&l);
}

/* Each job holds the lock alone 150 ms: side by side or not, they take 3 x 150 ms, since each
 * child has a lock of its own on the pool's files (one shared open file would let all in). */
static int alone(void *ctx, size_t i, gl_lock *gpu)
{
    (void)ctx;
    (void)i;
    if (gl_take(gpu, GL_EXCLUSIVE, 5.0) != 0)
        return 99;
    sleep_ms(150);
    return 0;
}

static int stop_after_first(void *ctx, size_t i, int status)
{
    (void)ctx;
    statuses[i] = status;
    ran[i] = 1;
    return 1;
}

static void test_pool_children_exclude_each_other(void **state)
{
    (void)state;
    gl_lock l;
    assert_int_equal(gl_create(dir, &l), 0);
    memset(ran, 0, sizeof ran);
    nends = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    assert_int_equal(pool_run(3, 3, &l, alone, done, NULL), 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double s = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    assert_true(s >= 0.44);
    for (int i = 0; i < 3; ++i)
        assert_int_equal(statuses[i], 0);
    /* done() asking to stop: nothing starts after it, what runs is waited for. */
    memset(ran, 0, sizeof ran);
    assert_int_equal(pool_run(6, 1, &l, alone, stop_after_first, NULL), 0);
    assert_int_equal(ran[0], 1);
    assert_int_equal(ran[1], 0);
    gl_close(&l);
}

static void test_pool_outcome_through_its_file(void **state)
{
    (void)state;
    static oc_outcome o, back;
    memset(&o, 0, sizeof o);
    o.score = 70;
    snprintf(o.reason, sizeof o.reason, "loads fall short");
    o.compile_log = strdup("warning: unused variable");
    o.run_log = NULL;
    o.blamed = &o.worst[1];
    o.worst[1].line = 42;
    char path[128];
    snprintf(path, sizeof path, "%s/outcome.bin", dir);
    assert_int_equal(pool_save_outcome(path, &o), 0);
    assert_int_equal(pool_load_outcome(path, &back), 0);
    assert_int_equal(back.score, 70);
    assert_string_equal(back.reason, "loads fall short");
    assert_string_equal(back.compile_log, "warning: unused variable");
    assert_null(back.run_log);
    assert_ptr_equal(back.blamed, &back.worst[1]);
    assert_int_equal(back.blamed->line, 42);
    oc_free(&back);
    oc_free(&o);
    /* A short file is refused, not read half. */
    FILE *f = fopen(path, "wb");
    fputs("short", f);
    fclose(f);
    assert_int_equal(pool_load_outcome(path, &back), -1);
    snprintf(path, sizeof path, "%s/missing.bin", dir);
    assert_int_equal(pool_load_outcome(path, &back), -1);
}

static void test_pool_slots_from_the_machine(void **state)
{
    (void)state;
    di_info dev = {.global_bytes = (size_t)4 << 30}; /* a 4 GiB GPU: one at a time */
    unsetenv("GRADE_JOBS");
    assert_int_equal(pool_slots(&dev), 1);
    dev.global_bytes = (size_t)141 << 30;
    unsigned n = pool_slots(&dev);
    cpu_set_t set;
    assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
    long cores = CPU_COUNT(&set);
    assert_int_equal(n, cores / 2 < 1 ? 1 : cores / 2 > 8 ? 8 : (unsigned)(cores / 2));
    setenv("GRADE_JOBS", "3", 1);
    assert_int_equal(pool_slots(&dev), 3);
    setenv("GRADE_JOBS", "zero", 1);
    assert_int_equal(pool_slots(&dev), n);
    unsetenv("GRADE_JOBS");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_gpulock_files_are_unlinked, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gpulock_shared_with_shared, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gpulock_exclusive_keeps_others_out, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gpulock_counting_apart_from_the_gpu, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gpulock_open_is_a_lock_of_its_own, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gpulock_exclusive_waits_ahead_of_later_shared, setup,
                                        teardown),
        cmocka_unit_test(test_gpulock_format_and_parse),
        cmocka_unit_test_setup_teardown(test_pool_runs_every_job_side_by_side, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pool_children_exclude_each_other, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pool_outcome_through_its_file, setup, teardown),
        cmocka_unit_test(test_pool_slots_from_the_machine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
