/*
 * test_child.c - replays started early (child.h: ch_start_early, ch_go, ch_finish), with
 * fake_child standing in for grade-worker: it reads its go line and goes there as the worker
 * does, and misbehaves as FAKE_WORKER says.
 */
#define _GNU_SOURCE /* mkdtemp, realpath */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "child.h"

static char root[PATH_MAX], waiting[PATH_MAX + 16], replays[PATH_MAX + 16];

static int setup(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/test_child_XXXXXX";
    if (!mkdtemp(tmpl) || !realpath(tmpl, root))
        return -1;
    snprintf(waiting, sizeof waiting, "%s/waiting", root);
    snprintf(replays, sizeof replays, "%s/run-1", root);
    return mkdir(waiting, 0700) == 0 && mkdir(replays, 0700) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rmdir(waiting);
    rmdir(replays);
    rmdir(root);
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pause_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* A run replay as grade.c asks for one: paths relative to the replays' folder. */
static ch_request early_request(const char **env, double timeout_s)
{
    ch_request req = {.args = {.mode = WI_RUN,
                               .lab = "01",
                               .image = "kernel.fatbin",
                               .record = "record.json",
                               .workdir = "run",
                               .seed = 7},
                      .timeout_s = timeout_s,
                      .env = env,
                      .cwd = waiting};
    return req;
}

static void test_early_child_goes_where_it_is_told(void **state)
{
    (void)state;
    ch_request req = early_request(NULL, 5.0);
    ch_early *e = ch_start_early(FAKE_CHILD_PATH, &req, 10.0);
    assert_non_null(e);
    assert_int_equal(ch_ready(e, 5.0), 1); /* set up, it waits for its go */
    ch_go(e, replays);
    rn_result r;
    assert_int_equal(ch_finish(e, &r), 0);
    assert_int_equal(r.status, RN_EXITED);
    assert_int_equal(r.exit_code, 0);
    assert_int_equal(r.went, 1);
    char want[PATH_MAX + 64];
    snprintf(want, sizeof want, "cwd=%s workdir=run go=yes", replays);
    assert_non_null(strstr(r.output, want));
    rn_result_free(&r);
}

static void test_early_child_without_a_go_is_stopped(void **state)
{
    (void)state;
    ch_request req = early_request(NULL, 5.0);
    ch_early *e = ch_start_early(FAKE_CHILD_PATH, &req, 10.0);
    assert_non_null(e);
    double t0 = now_s();
    rn_result r;
    assert_int_equal(ch_finish(e, &r), 0); /* never told to go on */
    assert_true(now_s() - t0 < 2.0);
    assert_int_equal(r.stopped, 1);
    assert_int_equal(r.went, 0);
    rn_result_free(&r);
}

static void test_early_child_that_ended_before_its_go_runs_again_there(void **state)
{
    (void)state;
    const char *env[] = {"FAKE_WORKER=die-before-go", NULL};
    ch_request req = early_request(env, 5.0);
    ch_early *e = ch_start_early(FAKE_CHILD_PATH, &req, 10.0);
    assert_non_null(e);
    double t0 = now_s();
    assert_int_equal(ch_ready(e, 5.0), 0); /* it ended first: said at once */
    assert_true(now_s() - t0 < 2.0);
    ch_go(e, replays);
    rn_result r;
    assert_int_equal(ch_finish(e, &r), 0);
    assert_int_equal(r.status, RN_EXITED);
    assert_int_equal(r.exit_code, 0);
    char want[PATH_MAX + 64];
    snprintf(want, sizeof want, "cwd=%s workdir=run go=no", replays);
    assert_non_null(strstr(r.output, want)); /* run again, in the go's folder */
    rn_result_free(&r);
}

static void test_early_child_still_setting_up_is_not_ready(void **state)
{
    (void)state;
    const char *env[] = {"FAKE_WORKER=slow", NULL};
    ch_request req = early_request(env, 5.0);
    ch_early *e = ch_start_early(FAKE_CHILD_PATH, &req, 10.0);
    assert_non_null(e);
    double t0 = now_s();
    assert_int_equal(ch_ready(e, 0.3), 0);
    assert_true(now_s() - t0 < 1.0);
    assert_int_equal(ch_ready(e, 5.0), 1); /* a second later it is */
    rn_result r;
    assert_int_equal(ch_finish(e, &r), 0); /* no go: stopped */
    assert_int_equal(r.stopped, 1);
    rn_result_free(&r);
}

static void test_early_child_time_limit_counts_from_its_go(void **state)
{
    (void)state;
    const char *env[] = {"FAKE_WORKER=hang", NULL};
    ch_request req = early_request(env, 0.5);
    ch_early *e = ch_start_early(FAKE_CHILD_PATH, &req, 10.0);
    assert_non_null(e);
    pause_s(1.0); /* twice its limit, waiting: not counted */
    double t0 = now_s();
    ch_go(e, replays);
    rn_result r;
    assert_int_equal(ch_finish(e, &r), 0);
    assert_int_equal(r.status, RN_TIMED_OUT);
    assert_int_equal(r.went, 1);
    assert_true(now_s() - t0 >= 0.5);
    assert_true(now_s() - t0 < 2.0);
    rn_result_free(&r);
}

/* A run child says when its measured sections are over (ch_measured), before it ends: what
 * it said first (that it was set up) is not taken for it. */
static void test_early_child_says_when_it_has_measured(void **state)
{
    (void)state;
    const char *env[] = {"FAKE_WORKER=measured", NULL};
    ch_request req = early_request(env, 10.0);
    ch_early *e = ch_start_early(FAKE_CHILD_PATH, &req, 10.0);
    assert_non_null(e);
    assert_int_equal(ch_measured(e), 0); /* no go yet: nothing to wait for */
    ch_go(e, replays);
    double t0 = now_s();
    assert_int_equal(ch_measured(e), 1);
    assert_true(now_s() - t0 < 0.8); /* it goes on for 1 s after saying so */
    rn_result r;
    assert_int_equal(ch_finish(e, &r), 0);
    assert_true(now_s() - t0 >= 0.9);
    assert_int_equal(r.status, RN_EXITED);
    assert_int_equal(r.exit_code, 0);
    rn_result_free(&r);
}

/* One that ends without saying so: ch_measured returns once it has ended, with 0 (its 'r',
 * left unread here, is not taken for the 'm'). */
static void test_early_child_that_ends_unmeasured_says_nothing(void **state)
{
    (void)state;
    ch_request req = early_request(NULL, 10.0);
    ch_early *e = ch_start_early(FAKE_CHILD_PATH, &req, 10.0);
    assert_non_null(e);
    ch_go(e, replays);
    assert_int_equal(ch_measured(e), 0);
    rn_result r;
    assert_int_equal(ch_finish(e, &r), 0);
    assert_int_equal(r.status, RN_EXITED);
    assert_int_equal(r.exit_code, 0);
    rn_result_free(&r);
}

/* An older record where the child goes (a recording's folder used before) is gone before it
 * goes there, as ch_run removes one: a child that then writes none leaves none to be read. */
static void test_early_child_goes_where_no_old_record_is(void **state)
{
    (void)state;
    char dir[PATH_MAX + 32], old[PATH_MAX + 64];
    snprintf(dir, sizeof dir, "%s/run", replays);
    snprintf(old, sizeof old, "%s/%s", dir, WI_RESULT_FILE);
    assert_int_equal(mkdir(dir, 0700), 0);
    FILE *f = fopen(old, "w");
    assert_non_null(f);
    fputs("{}", f);
    fclose(f);
    ch_request req = early_request(NULL, 5.0);
    ch_early *e = ch_start_early(FAKE_CHILD_PATH, &req, 10.0);
    assert_non_null(e);
    ch_go(e, replays);
    rn_result r;
    assert_int_equal(ch_finish(e, &r), 0);
    assert_int_equal(r.exit_code, 0);
    assert_int_equal(access(old, F_OK), -1);
    rn_result_free(&r);
    rmdir(dir);
}

/* A replay beside others that fails is run again alone; the result says so (rn_result.again),
 * for the early check (early_check.h), whose outputs the second run wrote over. */
static void test_a_replay_run_again_alone_says_so(void **state)
{
    (void)state;
    gl_lock lock;
    assert_int_equal(gl_create(root, &lock), 0);
    const char *fails[] = {"FAKE_WORKER=fail-beside", NULL};
    for (int failing = 0; failing < 2; ++failing) {
        ch_request req = early_request(failing ? fails : NULL, 10);
        req.cwd = replays;
        req.gpu = &lock;
        rn_result r;
        assert_int_equal(ch_run(FAKE_CHILD_PATH, &req, &r), 0);
        assert_int_equal(r.status, RN_EXITED);
        assert_int_equal(r.exit_code, 0);
        assert_int_equal(r.again, failing);
        rn_result_free(&r);
    }
    gl_close(&lock);
}

/* The recording, beside others (the grader holds the lock shared for it), as grade.c asks. */
static ch_request recording(const char **env, double timeout_s, gl_lock *lock)
{
    ch_request req = {.args = {.mode = WI_RECORD, .lab = "01", .workdir = ".", .seed = 7},
                      .timeout_s = timeout_s,
                      .env = env,
                      .cwd = replays,
                      .gpu = lock};
    return req;
}

typedef struct running {
    ch_request req;
    rn_result r;
    int rc;
} running;

static void *run_it(void *arg)
{
    running *x = arg;
    x->rc = ch_run(FAKE_CHILD_PATH, &x->req, &x->r);
    return NULL;
}

/* How long another grading waits to hold the GPU alone while x's recording runs: it asks once
 * the recording has the GPU, and holds it half a second. */
static double wait_beside(running *x, gl_lock *lock)
{
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, run_it, x), 0);
    pause_s(0.3);
    gl_lock mine;
    assert_int_equal(gl_open(lock, &mine), 0);
    double t0 = now_s();
    assert_int_equal(gl_take(&mine, GL_EXCLUSIVE, 20.0), 0);
    double waited = now_s() - t0;
    pause_s(0.5);
    gl_close(&mine);
    pthread_join(t, NULL);
    return waited;
}

/* Another grading waits little to hold the GPU alone beside the recording of a launcher that
 * behaves as how says, however long that sleeps; the recording still ends well, its pauses
 * out of its limit. again: its second run is the one that sleeps. */
static void check_gives_way(const char *how, int again)
{
    gl_lock lock;
    assert_int_equal(gl_create(root, &lock), 0);
    const char *env[] = {how, NULL};
    running x = {.req = recording(env, 10.0, &lock)};
    double waited = wait_beside(&x, &lock);
    assert_true(waited < 4.0); /* not the 5.7 s left of its sleep, even on a busy machine */
    assert_int_equal(x.rc, 0);
    assert_int_equal(x.r.status, RN_EXITED);
    assert_int_equal(x.r.exit_code, 0);
    assert_int_equal(x.r.again, again);
    assert_true(x.r.pauses >= 1);
    assert_true(x.r.paused_s >= 0.4);
    rn_result_free(&x.r);
    char mark[PATH_MAX + 32];
    snprintf(mark, sizeof mark, "%s/failed-once", replays);
    remove(mark);
    gl_close(&lock);
}

/* A launcher that sleeps holds up no other grading's measurement: its recording is stopped,
 * the GPU given up, once it has run a second and someone waits to hold the GPU alone. */
static void test_a_sleeping_recording_gives_way(void **state)
{
    (void)state;
    check_gives_way("FAKE_WORKER=sleep", 0);
}

/* Nor does one that fails once and sleeps in its second run: that runs as the first did, the
 * GPU shared and given way, never held alone for the student's host code. */
static void test_a_recording_run_again_gives_way_too(void **state)
{
    (void)state;
    check_gives_way("FAKE_WORKER=fail-once", 1);
}

/* The recording's limit beside others is the one it has alone: one verdict wherever graded. */
static void test_a_recording_beside_others_has_its_own_limit(void **state)
{
    (void)state;
    gl_lock lock;
    assert_int_equal(gl_create(root, &lock), 0);
    const char *env[] = {"FAKE_WORKER=hang", NULL};
    ch_request req = recording(env, 0.5, &lock);
    rn_result r;
    double t0 = now_s();
    assert_int_equal(ch_run(FAKE_CHILD_PATH, &req, &r), 0);
    assert_int_equal(r.status, RN_TIMED_OUT);
    assert_true(now_s() - t0 < 3.0); /* 0.5 s, not 1.25 x 0.5 + 80 */
    rn_result_free(&r);
    gl_close(&lock);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_early_child_goes_where_it_is_told),
        cmocka_unit_test(test_early_child_without_a_go_is_stopped),
        cmocka_unit_test(test_early_child_that_ended_before_its_go_runs_again_there),
        cmocka_unit_test(test_early_child_still_setting_up_is_not_ready),
        cmocka_unit_test(test_early_child_time_limit_counts_from_its_go),
        cmocka_unit_test(test_a_replay_run_again_alone_says_so),
        cmocka_unit_test(test_a_sleeping_recording_gives_way),
        cmocka_unit_test(test_a_recording_run_again_gives_way_too),
        cmocka_unit_test(test_a_recording_beside_others_has_its_own_limit),
        cmocka_unit_test(test_early_child_says_when_it_has_measured),
        cmocka_unit_test(test_early_child_that_ends_unmeasured_says_nothing),
        cmocka_unit_test(test_early_child_goes_where_no_old_record_is),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
