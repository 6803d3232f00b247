/*
 * test_gradebook.c - the batch's CSV gradebook: rows with commas, quotes and newlines read back
 * as they were written; a resumed gradebook knows its rows and drops a row cut short by a kill;
 * a gradebook is never overwritten without --resume, and a file that is none is refused.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "gradebook.h"

static char dir[64], path[128];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/test-gradebook-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/gradebook.csv", dir);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    static char text[8192];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    return text;
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("'%s' is not in \"%s\"", part, text);
}

static void test_rows_resume_and_a_row_cut_short(void **state)
{
    (void)state;
    gb_done done;
    char why[512];
    FILE *f = gb_open(path, 0, &done, why, sizeof why);
    assert_non_null(f);
    gb_row a = {"alice", "01", "PASS", 40, 30, 30, -1, 100, 100, "trace", 3.25, "correct"};
    gb_row b = {"bob, \"the\" builder",
                "01",
                "FAIL",
                40,
                0,
                0,
                -1,
                40,
                100,
                "trace",
                2.5,
                "correct, but loads are not coalesced enough;\nline two"};
    gb_row c = {
        "bob, \"the\" builder", "04", "FAIL", 40, 30, 30, 0, 70, 100, "counters", 4.0, "too slow"};
    assert_int_equal(gb_write(f, &a), 0);
    assert_int_equal(gb_write(f, &b), 0);
    assert_int_equal(gb_write(f, &c), 0);
    fclose(f);
    char *text = slurp(path);
    assert_contains(text, "\"student\",\"lab\",\"verdict\",\"correctness\",\"loads\",\"stores\","
                          "\"speed\",\"score\",\"max_score\",\"engine\",\"seconds\",\"reason\"\n");
    assert_contains(text, "\"alice\",\"01\",\"PASS\",\"40\",\"30\",\"30\",\"\",\"100\"");
    assert_contains(text, "\"bob, \"\"the\"\" builder\"");
    assert_contains(text, "\"70\",\"100\",\"counters\",\"4.00\",\"too slow\"\n");

    /* Without --resume, an existing gradebook is never overwritten. */
    assert_null(gb_open(path, 0, &done, why, sizeof why));
    assert_contains(why, "exists: add --resume");

    /* A kill in the middle of a row: the row is dropped, the others kept. */
    f = fopen(path, "a");
    fputs("\"carol\",\"01\",\"PA", f);
    fclose(f);
    f = gb_open(path, 1, &done, why, sizeof why);
    assert_non_null(f);
    assert_int_equal(done.n, 3);
    assert_true(gb_has(&done, "alice", "01"));
    assert_true(gb_has(&done, "bob, \"the\" builder", "04"));
    assert_false(gb_has(&done, "carol", "01"));
    assert_false(gb_has(&done, "alice", "04"));
    assert_false(gb_has(&done, "alic", "01"));
    gb_row d = {"carol", "01", "PASS", 40, 30, 30, -1, 100, 100, "trace", 1.0, "correct"};
    assert_int_equal(gb_write(f, &d), 0);
    fclose(f);
    gb_done_free(&done);
    text = slurp(path);
    assert_null(strstr(text, "\"PA\""));
    assert_contains(text, "\"too slow\"\n\"carol\",\"01\",\"PASS\"");
    f = gb_open(path, 1, &done, why, sizeof why);
    assert_non_null(f);
    assert_int_equal(done.n, 4);
    fclose(f);
    gb_done_free(&done);
}

static void test_what_is_no_gradebook(void **state)
{
    (void)state;
    gb_done done;
    char why[512], other[160];
    assert_null(gb_open("/nonexistent/gradebook.csv", 1, &done, why, sizeof why));
    assert_contains(why, "nothing to resume");
    snprintf(other, sizeof other, "%s/other.csv", dir);
    FILE *f = fopen(other, "w");
    fputs("name,mark\nalice,10\n", f);
    fclose(f);
    assert_null(gb_open(other, 1, &done, why, sizeof why));
    assert_contains(why, "is not a gradebook");
}

static void test_file_names(void **state)
{
    (void)state;
    char buf[64], other[64];
    bt_file_name("alice", buf, sizeof buf);
    assert_string_equal(buf, "alice");
    bt_file_name("../etc/passwd", buf, sizeof buf);
    assert_int_equal(strncmp(buf, "_._etc_passwd-", 14), 0);
    assert_int_equal(strlen(buf), 14 + 8);
    bt_file_name("", buf, sizeof buf);
    assert_int_equal(buf[0], '_');
    /* Names that had to change never meet another student's. */
    bt_file_name("a b", buf, sizeof buf);
    bt_file_name("a_b", other, sizeof other);
    assert_string_equal(other, "a_b");
    assert_string_not_equal(buf, other);
    bt_file_name("jos\xc3\xa9", buf, sizeof buf);
    bt_file_name("jos\xc3\xa8", other, sizeof other);
    assert_string_not_equal(buf, other);
}

/* A kill inside a quoted field (a reason holds a line break): the row is dropped whole, and
 * the next row is not swallowed into it. A name a spreadsheet would run as a formula is quoted. */
static void test_cut_inside_a_quoted_field_and_formulas(void **state)
{
    (void)state;
    char path2[160], why[512];
    snprintf(path2, sizeof path2, "%s/cut.csv", dir);
    gb_done done;
    FILE *f = gb_open(path2, 0, &done, why, sizeof why);
    assert_non_null(f);
    gb_row a = {"=1+1", "01", "FAIL", 0, 0, 0, -1, 0, 100, "none", 1.0, "line one\nline two"};
    assert_int_equal(gb_write(f, &a), 0);
    fclose(f);
    char *text = slurp(path2);
    assert_contains(text, "\"'=1+1\"");
    /* cut right after the line break inside the reason */
    char *cut = strstr(text, "line one\n");
    assert_non_null(cut);
    size_t keep = (size_t)(cut - text) + strlen("line one\n");
    assert_int_equal(truncate(path2, (off_t)keep), 0);
    f = gb_open(path2, 1, &done, why, sizeof why);
    assert_non_null(f);
    assert_int_equal(done.n, 0); /* the cut row is gone */
    gb_row b = {"bob", "01", "PASS", 40, 30, 30, -1, 100, 100, "trace", 1.0, "correct"};
    assert_int_equal(gb_write(f, &b), 0);
    fclose(f);
    gb_done_free(&done);
    f = gb_open(path2, 1, &done, why, sizeof why);
    assert_non_null(f);
    assert_int_equal(done.n, 1);
    assert_true(gb_has(&done, "bob", "01"));
    fclose(f);
    gb_done_free(&done);
}

/* Names that are written otherwise than they are (a formula's guard; one that begins with '
 * already), non-ASCII and long ones, are found again on resume, each exactly once. */
static void test_resume_finds_every_name(void **state)
{
    (void)state;
    char path3[160], why[512], longname[260];
    snprintf(path3, sizeof path3, "%s/names.csv", dir);
    memset(longname, 'l', 250);
    longname[250] = '\0';
    const char *names[] = {"=SUM(A1)", "+1",      "-x",   "@cmd",
                           "'quoted",  "''twice", "\tab", "jos\xc3\xa9 \xe5\x90\x8d\xe5\xad\x97",
                           "plain",    longname};
    size_t n = sizeof names / sizeof names[0];
    gb_done done;
    FILE *f = gb_open(path3, 0, &done, why, sizeof why);
    assert_non_null(f);
    for (size_t i = 0; i < n; ++i) {
        gb_row r = {names[i], "01", "PASS", 40, 30, 30, -1, 100, 100, "trace", 1.0, "ok"};
        assert_int_equal(gb_write(f, &r), 0);
    }
    fclose(f);
    gb_done_free(&done);
    f = gb_open(path3, 1, &done, why, sizeof why);
    assert_non_null(f);
    assert_int_equal(done.n, n);
    for (size_t i = 0; i < n; ++i)
        if (!gb_has(&done, names[i], "01"))
            fail_msg("'%s' is not found again", names[i]);
    assert_false(gb_has(&done, "SUM(A1)", "01"));
    assert_false(gb_has(&done, "quoted", "01"));
    fclose(f);
    gb_done_free(&done);
    char *text = slurp(path3);
    assert_contains(text, "\"'=SUM(A1)\"");
    assert_contains(text, "\"''quoted\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_resume_and_a_row_cut_short),
        cmocka_unit_test(test_what_is_no_gradebook),
        cmocka_unit_test(test_file_names),
        cmocka_unit_test(test_cut_inside_a_quoted_field_and_formulas),
        cmocka_unit_test(test_resume_finds_every_name),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
