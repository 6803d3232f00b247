/*
 * test_course.c - course files: the effective settings of a good one (and Gradescope's
 * visibility from it), and for broken ones the error with its line and column: YAML that does
 * not parse, an unknown key, a lab that does not exist, a value out of range, and thresholds the
 * stub would pass or no solution could. Also: every lab's own thresholds lie between what its
 * stub and its solution measured, as a course's must.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "course.h"
#include "outcome.h"
#include "report.h"

static char path[64];

static const char *write_course(const char *text)
{
    snprintf(path, sizeof path, "/tmp/test-course-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return path;
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("'%s' is not in \"%s\"", part, text);
}

static void refused(const char *text, const char *where, const char *what)
{
    co_course c;
    char why[1024], want[128];
    assert_int_equal(co_load(write_course(text), &c, why, sizeof why), -1);
    snprintf(want, sizeof want, "%s:%s: ", path, where);
    assert_contains(why, want);
    assert_contains(why, what);
    unlink(path);
}

static void test_good_course(void **state)
{
    (void)state;
    co_course c;
    char why[1024];
    const char *text = "# a comment\n"
                       "course: GPU programming, fall 2026\n"
                       "timeout: 30\n"
                       "labs:\n"
                       "  \"01\":\n"
                       "    points: {correctness: 50, loads: 25, stores: 25}\n"
                       "    thresholds: {loads: 0.85}\n"
                       "    visibility: {loads: after_due_date, stores: hidden}\n"
                       "  matmul:\n"
                       "    min_speedup: 1.15\n"
                       "  7:\n";
    assert_int_equal(co_load(write_course(text), &c, why, sizeof why), 0);
    unlink(path);
    assert_string_equal(c.name, "GPU programming, fall 2026");
    assert_true(c.timeout_s == 30);
    assert_int_equal(c.nlabs, 3);
    const lab_spec *l01 = &c.labs[0], *l04 = &c.labs[1], *l07 = &c.labs[2];
    assert_string_equal(l01->id, "01");
    assert_int_equal(l01->points_correct, 50);
    assert_true(l01->min_load_eff == 0.85);
    assert_true(l01->min_store_eff == lab_find("01")->min_store_eff); /* the lab's own */
    assert_string_equal(l01->visibility[1], "after_due_date");
    assert_string_equal(l01->visibility[2], "hidden");
    assert_null(l01->visibility[0]);
    assert_string_equal(l04->id, "04");
    assert_true(l04->min_speedup == 1.15);
    assert_int_equal(c.set[1], CO_SET_SPEEDUP);
    assert_string_equal(l07->id, "07");
    assert_int_equal(c.set[2], 0);
    assert_true(lab_find("01")->min_load_eff == 0.90); /* the registry's spec is untouched */

    /* Gradescope hears the course's visibility. */
    oc_outcome o;
    memset(&o, 0, sizeof o);
    o.spec = l01;
    o.verdict = OC_FAIL;
    char *json = rp_gradescope(&o, 1);
    cJSON *root = cJSON_Parse(json);
    free(json);
    cJSON *tests = cJSON_GetObjectItem(root, "tests");
    assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 0), "visibility"));
    assert_string_equal(
        cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 1), "visibility")->valuestring,
        "after_due_date");
    cJSON_Delete(root);

    FILE *f = tmpfile();
    co_print(f, &c);
    rewind(f);
    char shown[4096];
    shown[fread(shown, 1, sizeof shown - 1, f)] = '\0';
    fclose(f);
    assert_contains(shown, "01   dram-burst           50/25/25/-              85%/90%");
    assert_contains(shown, "1.15x     speed-up");
    assert_contains(shown, "nothing (the lab's own)");
    /* What each lab's thresholds lie between, from the lab's own spec. */
    assert_contains(shown, "measured: stub 12.5%/12.5%, solution 100.0%/100.0%\n");
    assert_contains(shown, "measured: stub 15.6%/");
    assert_contains(shown, "speed-up 1.00x/1.21x");
}

static void test_broken_courses(void **state)
{
    (void)state;
    refused("labs: {\"01\": {points: [1, 2}\n", "1:28", "did not find expected ',' or ']'");
    refused("labs:\n  \"01\":\n    tresholds: {loads: 0.9}\n", "3:5",
            "unknown key 'tresholds' in lab 01 (known: points, thresholds, min_speedup, "
            "visibility)");
    refused("labs:\n  \"09\":\n", "2:3", "no lab '09'");
    refused("labs:\n  \"02\":\n    thresholds:\n      stores: 1.5\n", "4:15",
            "lab 02's stores threshold must be a number from 0 to 1, not '1.5'");
    refused("labs:\n  \"01\":\n    thresholds: {loads: 0.1}\n", "3:25",
            "lab 01's loads threshold 0.1 is at or below what the lab's stub reaches (0.125)");
    refused("labs:\n  \"04\":\n    min_speedup: 1.0\n", "3:18",
            "at or below what the coalesced naive kernel the gate must fail reaches (1.00x)");
    refused("labs:\n  \"04\":\n    min_speedup: 1.5\n", "3:18",
            "above what the lab's reference solution reaches (1.21x)");
    refused("labs:\n  \"01\":\n    min_speedup: 1.2\n", "3:5", "lab 01 has no speed gate");
    refused("labs:\n  \"01\":\n    points: {speed: 10}\n", "3:14", "lab 01 has no speed part");
    refused("labs:\n  \"01\":\n    points: {loads: 2.5}\n", "3:21", "must be a whole number");
    refused("labs:\n  \"01\":\n    visibility: {loads: later}\n", "3:25",
            "must be visible, hidden, after_due_date or after_published, not 'later'");
    refused("labs:\n  \"01\":\n  \"1\":\n", "3:3", "lab 01 is given twice");
    refused("course: x\ncourse: y\nlabs:\n  \"01\":\n", "2:1", "'course' is given twice");
    refused("course: x\n", "1:1", "names no labs");
    refused("timeout: 0\nlabs:\n  \"01\":\n", "1:10", "timeout must be a number from 1 to 86400");
    /* What a term's course files did (issue 36): a second document, a visibility of a part the
     * lab has not, a lab of no points. */
    refused("labs:\n  \"01\":\n---\nlabs:\n  \"02\":\n", "4:1", "a second YAML document");
    refused("labs:\n  \"01\":\n    visibility: {speed: hidden}\n", "3:18",
            "lab 01 has no speed part to set the visibility of");
    refused("labs:\n  \"01\":\n    points: {correctness: 0, loads: 0, stores: 0}\n", "2:3",
            "lab 01 gives no points");
    co_course c;
    char why[256];
    assert_int_equal(co_load("/nonexistent/course.yml", &c, why, sizeof why), -1);
    assert_contains(why, "cannot read the course file '/nonexistent/course.yml'");
    /* A FIFO is refused at once, never waited on. */
    char fifo[80];
    snprintf(fifo, sizeof fifo, "%s.fifo", path);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(co_load(fifo, &c, why, sizeof why), -1);
    assert_contains(why, "not a regular file");
    unlink(fifo);
}

/* A lab's own thresholds lie above what its stub reaches where the stub falls short, and at
 * most at what its solution reaches: the bar a course file is held to. */
static void test_every_labs_own_thresholds_are_in_range(void **state)
{
    (void)state;
    for (size_t i = 0; i < lab_count; ++i) {
        const lab_spec *s = lab_table[i];
        assert_true(s->measured.solution_load > 0 && s->measured.solution_store > 0);
        assert_true(s->min_load_eff <= s->measured.solution_load);
        assert_true(s->min_store_eff <= s->measured.solution_store);
        if (s->measured.stub_load < s->measured.solution_load)
            assert_true(s->min_load_eff > s->measured.stub_load);
        if (s->measured.stub_store < s->measured.solution_store)
            assert_true(s->min_store_eff > s->measured.stub_store);
        if (s->points_speed > 0)
            assert_true(s->min_speedup > s->measured.stub_speedup &&
                        s->min_speedup <= s->measured.solution_speedup);
    }
}

static void test_the_example_course_loads(void **state)
{
    (void)state;
    co_course c;
    char why[1024];
    if (co_load(CL_SOURCE_DIR "/tools/course.example.yml", &c, why, sizeof why) != 0)
        fail_msg("%s", why);
    assert_int_equal(c.nlabs, lab_count);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_course),
        cmocka_unit_test(test_broken_courses),
        cmocka_unit_test(test_every_labs_own_thresholds_are_in_range),
        cmocka_unit_test(test_the_example_course_loads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
