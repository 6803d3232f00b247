/*
 * test_early_check.c - the graded problem's check made while the run child still measures
 * (early_check.h): made once the child's first record says its outputs are saved, never before,
 * and used only where those outputs are the ones the child ended with. The "child" here is the
 * test itself writing the record and outputs a replay would write.
 */
#define _GNU_SOURCE /* mkdtemp */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "early_check.h"

static char dir[PATH_MAX];
static atomic_int checks_made;
static char seen[16]; /* what the check read in out.bin */

/* The lab's check: reads out.bin, passes where it holds "right". */
static int fake_check(const char *workdir, sd_seeds seeds, const cl_shape *shape, lab_check *out)
{
    (void)seeds;
    (void)shape;
    memset(out, 0, sizeof *out);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/out.bin", workdir);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(seen, 1, sizeof seen - 1, f) : 0;
    seen[n] = '\0';
    if (f)
        fclose(f);
    out->passed = !strcmp(seen, "right");
    atomic_fetch_add(&checks_made, 1);
    return f ? 0 : -1;
}

static const cl_shapes shapes = {.graded = {{4}}};
static const lab_spec spec = {.id = "99", .check = fake_check, .shapes = &shapes};

static void sleep_ms(long ms)
{
    nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000}, NULL);
}

static void write_output(const char *text)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/out.bin", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The record a run child writes: after its first run (launched), or its last (after_timing:
 * its outputs saved again after timing). */
static wi_result write_record(int launched, int after_timing)
{
    wi_result r;
    memset(&r, 0, sizeof r);
    r.mode = WI_RUN;
    r.has_run = 1;
    r.run.launched = launched;
    r.run.guards_intact = 1;
    r.run.checked_after_timing = after_timing;
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/%s", dir, WI_RESULT_FILE);
    cJSON *json = wi_result_to_json(&r);
    assert_int_equal(wi_write_file(path, json), 0);
    cJSON_Delete(json);
    return r;
}

/* What a run child does before it measures: saves its outputs, then its first record; then
 * waits (at most 10 s, for a loaded machine) for the check to be made. */
static wi_result saved_and_checked(void)
{
    write_output("right");
    wi_result first = write_record(1, 0);
    for (int i = 0; i < 2000 && atomic_load(&checks_made) == 0; ++i)
        sleep_ms(5);
    return first;
}

static int setup(void **state)
{
    (void)state;
    char tmpl[] = "/tmp/test_early_check_XXXXXX";
    if (!mkdtemp(tmpl))
        return -1;
    snprintf(dir, sizeof dir, "%s", tmpl);
    atomic_store(&checks_made, 0);
    seen[0] = '\0';
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/out.bin", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/%s", dir, WI_RESULT_FILE);
    unlink(path);
    return rmdir(dir);
}

static const rn_result clean_end = {.status = RN_EXITED, .exit_code = 0};

static void test_checked_while_the_child_still_runs(void **state)
{
    (void)state;
    static ec_check e;
    ec_begin(&e, &spec, (sd_seeds){7, 8, 0}, dir, 1);
    sleep_ms(50);
    assert_int_equal(atomic_load(&checks_made), 0); /* nothing saved yet: nothing checked */
    wi_result last = saved_and_checked();
    /* Checked before the child has ended (ec_end not called yet). */
    assert_int_equal(atomic_load(&checks_made), 1);
    ec_end(&e, &clean_end, &last);
    assert_true(e.usable);
    assert_int_equal(e.rc, 0);
    assert_true(e.check.passed);
    assert_string_equal(seen, "right");
    assert_int_equal(atomic_load(&checks_made), 1);
}

static void test_a_record_before_the_launches_is_not_enough(void **state)
{
    (void)state;
    static ec_check e;
    ec_begin(&e, &spec, (sd_seeds){7, 8, 0}, dir, 1);
    write_output("half");
    wi_result last = write_record(0, 0); /* set up, not launched */
    sleep_ms(60);
    assert_int_equal(atomic_load(&checks_made), 0);
    ec_end(&e, &clean_end, &last);
    assert_false(e.usable);
    assert_int_equal(atomic_load(&checks_made), 0);
}

static void test_outputs_saved_again_after_timing_are_checked_after(void **state)
{
    (void)state;
    static ec_check e;
    ec_begin(&e, &spec, (sd_seeds){7, 8, 0}, dir, 1);
    saved_and_checked();
    write_output("wrong"); /* lab 04: a launch after timing, saved over the first's */
    wi_result last = write_record(1, 1);
    ec_end(&e, &clean_end, &last);
    assert_false(e.usable); /* grade.c checks what is there now */
}

static void test_a_second_run_alone_is_checked_after(void **state)
{
    (void)state;
    static ec_check e;
    ec_begin(&e, &spec, (sd_seeds){7, 8, 0}, dir, 1);
    wi_result last = saved_and_checked();
    rn_result again = clean_end;
    again.again = 1; /* failed beside others, run again alone: its outputs written over */
    ec_end(&e, &again, &last);
    assert_false(e.usable);
}

static void test_a_child_that_failed_is_checked_after(void **state)
{
    (void)state;
    static ec_check e;
    ec_begin(&e, &spec, (sd_seeds){7, 8, 0}, dir, 1);
    wi_result last = saved_and_checked();
    rn_result crashed = {.status = RN_SIGNALED, .signal = 11};
    ec_end(&e, &crashed, &last);
    assert_false(e.usable);
    assert_int_equal(atomic_load(&checks_made), 1); /* checked, but not used */
    ec_begin(&e, &spec, (sd_seeds){7, 8, 0}, dir, 1);
    rn_result failed = {.status = RN_EXITED, .exit_code = 3};
    for (int i = 0; i < 2000 && atomic_load(&checks_made) < 2; ++i)
        sleep_ms(5);
    ec_end(&e, &failed, &last);
    assert_false(e.usable);
    ec_begin(&e, &spec, (sd_seeds){7, 8, 0}, dir, 1);
    for (int i = 0; i < 2000 && atomic_load(&checks_made) < 3; ++i)
        sleep_ms(5);
    ec_end(&e, &clean_end, NULL); /* its last record could not be read */
    assert_false(e.usable);
    assert_int_equal(atomic_load(&checks_made), 3);
    ec_begin(&e, &spec, (sd_seeds){7, 8, 0}, dir, 1);
    ec_end(&e, NULL, NULL); /* never started */
    assert_false(e.usable);
}

static void test_no_record_ends_at_once(void **state)
{
    (void)state;
    static ec_check e;
    ec_begin(&e, &spec, (sd_seeds){7, 8, 0}, dir, 1);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ec_end(&e, &clean_end, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double waited = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    assert_true(waited < 0.5);
    assert_false(e.usable);
    assert_int_equal(atomic_load(&checks_made), 0);
}

static void test_switched_off_checks_nothing(void **state)
{
    (void)state;
    static ec_check e;
    write_output("right");
    wi_result last = write_record(1, 0);
    ec_begin(&e, &spec, (sd_seeds){7, 8, 0}, dir, 0);
    sleep_ms(30);
    ec_end(&e, &clean_end, &last);
    assert_false(e.usable);
    assert_int_equal(atomic_load(&checks_made), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_checked_while_the_child_still_runs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_record_before_the_launches_is_not_enough, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_outputs_saved_again_after_timing_are_checked_after,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_second_run_alone_is_checked_after, setup, teardown),
        cmocka_unit_test_setup_teardown(test_a_child_that_failed_is_checked_after, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_record_ends_at_once, setup, teardown),
        cmocka_unit_test_setup_teardown(test_switched_off_checks_nothing, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
