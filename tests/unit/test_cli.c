/*
 * test_cli.c - the command line of 'grade': every option, the defaults, and every usage error.
 *
 * Build and run (the project CMake builds it as test_cli):
 *   gcc -std=c11 -Wall -Wextra -Igrader tests/unit/test_cli.c grader/cli.c \
 *       $(pkg-config --cflags --libs cmocka) -o test_cli && ./test_cli
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void assert_close(double got, double want, double tol)
{
    if (fabs(got - want) > tol)
        fail_msg("got %.9g, want %.9g (tolerance %g)", got, want, tol);
}

/* One parse: argv as typed after "grade", the options, the message and the status. */
typedef struct parsed {
    int rc;
    cli_options o;
    char err[512];
} parsed;

static parsed parse_argv(char **args)
{
    parsed p;
    char *argv[32] = {"grade"};
    int argc = 1;
    while (args[argc - 1]) {
        assert_true(argc < 31);
        argv[argc] = args[argc - 1];
        ++argc;
    }
    argv[argc] = NULL;
    memset(&p, 0, sizeof p);
    /* Junk in err must be replaced, not appended to. */
    memset(p.err, 'x', sizeof p.err - 1);
    p.rc = cli_parse(argc, argv, &p.o, p.err, sizeof p.err);
    return p;
}

#define PARSE(...) parse_argv((char *[]){__VA_ARGS__, NULL})
#define PARSE_NOTHING() parse_argv((char *[]){NULL})

/* A successful parse leaves err empty. */
static parsed parse_ok(parsed p)
{
    if (p.rc != 0)
        fail_msg("cli_parse returned %d: %s", p.rc, p.err);
    assert_string_equal(p.err, "");
    return p;
}

/* A usage error: status 2 and exactly this message, in git's grammar (lower case first, no
 * full stop, one line). */
static void assert_usage_error(parsed p, const char *message)
{
    assert_int_equal(p.rc, 2);
    assert_string_equal(p.err, message);
    size_t len = strlen(p.err);
    assert_true(len > 0);
    assert_false(isupper((unsigned char)p.err[0]));
    assert_true(p.err[len - 1] != '.');
    assert_null(strchr(p.err, '\n'));
}

/* ---- defaults ---- */

static void test_parse_defaults(void **state)
{
    (void)state;
    parsed p = parse_ok(PARSE_NOTHING());
    assert_int_equal(p.o.action, CLI_GRADE);
    assert_int_equal(p.o.nlabs, 0);
    assert_null(p.o.kernel);
    assert_int_equal(p.o.solution, 0);
    assert_int_equal(p.o.format, CLI_TEXT);
    assert_null(p.o.output);
    assert_int_equal(p.o.seed, 0);
    assert_int_equal(p.o.seed_given, 0);
    assert_null(p.o.root);
    assert_null(p.o.arch);
    assert_null(p.o.nvcc);
    assert_null(p.o.csv);
    assert_int_equal(p.o.counters, 1);
    assert_int_equal(p.o.timing, 1);
    assert_close(p.o.timeout_s, 0.0, 0.0);
    assert_int_equal(p.o.keep, 0);
    assert_int_equal(p.o.quiet, 0);
}

static void test_parse_resets_options(void **state)
{
    (void)state;
    /* Whatever *o held before, a parse of nothing gives the defaults. */
    char *argv[] = {"grade", NULL};
    cli_options o;
    char err[64];
    memset(&o, 0x5A, sizeof o);
    assert_int_equal(cli_parse(1, argv, &o, err, sizeof err), 0);
    assert_int_equal(o.action, CLI_GRADE);
    assert_int_equal(o.nlabs, 0);
    assert_null(o.kernel);
    assert_int_equal(o.counters, 1);
    assert_int_equal(o.timing, 1);
    assert_int_equal(o.seed_given, 0);
}

/* ---- labs ---- */

static void test_parse_labs_collected_in_order(void **state)
{
    (void)state;
    parsed p = parse_ok(PARSE("01", "dram-burst", "--no-timing", "3"));
    assert_int_equal(p.o.action, CLI_GRADE);
    assert_int_equal(p.o.nlabs, 3);
    assert_string_equal(p.o.labs[0], "01");
    assert_string_equal(p.o.labs[1], "dram-burst");
    assert_string_equal(p.o.labs[2], "3");
    assert_int_equal(p.o.timing, 0);
}

static void test_parse_lone_dash_is_a_lab(void **state)
{
    (void)state;
    parsed p = parse_ok(PARSE("-"));
    assert_int_equal(p.o.nlabs, 1);
    assert_string_equal(p.o.labs[0], "-");
}

static void test_parse_labs_up_to_max(void **state)
{
    (void)state;
    char *args[CLI_MAX_LABS + 2];
    for (int i = 0; i < CLI_MAX_LABS; i++)
        args[i] = "01";
    args[CLI_MAX_LABS] = NULL;
    parsed p = parse_ok(parse_argv(args));
    assert_int_equal(p.o.nlabs, CLI_MAX_LABS);

    args[CLI_MAX_LABS] = "01";
    args[CLI_MAX_LABS + 1] = NULL;
    assert_usage_error(parse_argv(args), "too many labs named (at most 16)");
}

/* ---- flags ---- */

static void test_parse_flags(void **state)
{
    (void)state;
    parsed p = parse_ok(PARSE("--solution", "--no-counters", "--no-timing", "--keep", "--quiet"));
    assert_int_equal(p.o.solution, 1);
    assert_int_equal(p.o.counters, 0);
    assert_int_equal(p.o.timing, 0);
    assert_int_equal(p.o.keep, 1);
    assert_int_equal(p.o.quiet, 1);
    assert_int_equal(p.o.action, CLI_GRADE);
}

static void test_parse_flags_one_at_a_time(void **state)
{
    (void)state;
    /* Each flag sets its own field and no other. */
    parsed p = parse_ok(PARSE("--no-counters"));
    assert_int_equal(p.o.counters, 0);
    assert_int_equal(p.o.timing, 1);

    p = parse_ok(PARSE("--no-timing"));
    assert_int_equal(p.o.counters, 1);
    assert_int_equal(p.o.timing, 0);

    p = parse_ok(PARSE("--keep"));
    assert_int_equal(p.o.keep, 1);
    assert_int_equal(p.o.quiet, 0);

    p = parse_ok(PARSE("-q"));
    assert_int_equal(p.o.quiet, 1);
    assert_int_equal(p.o.keep, 0);

    p = parse_ok(PARSE("--solution"));
    assert_int_equal(p.o.solution, 1);
    assert_null(p.o.kernel);
}

/* ---- options with a value ---- */

static void test_parse_string_options(void **state)
{
    (void)state;
    parsed p = parse_ok(PARSE("--output", "report.txt", "--root", "/srv/workbook", "--arch",
                              "sm_90", "--nvcc", "/opt/cuda/bin/nvcc", "--csv", "table.csv"));
    assert_string_equal(p.o.output, "report.txt");
    assert_string_equal(p.o.root, "/srv/workbook");
    assert_string_equal(p.o.arch, "sm_90");
    assert_string_equal(p.o.nvcc, "/opt/cuda/bin/nvcc");
    assert_string_equal(p.o.csv, "table.csv");
    /* A value is consumed, not taken for a lab. */
    assert_int_equal(p.o.nlabs, 0);
}

static void test_parse_value_may_look_like_a_lab(void **state)
{
    (void)state;
    parsed p = parse_ok(PARSE("--output", "01", "dram-burst"));
    assert_string_equal(p.o.output, "01");
    assert_int_equal(p.o.nlabs, 1);
    assert_string_equal(p.o.labs[0], "dram-burst");
}

static void test_parse_kernel_with_one_lab(void **state)
{
    (void)state;
    parsed p = parse_ok(PARSE("--kernel", "my.cu", "01"));
    assert_string_equal(p.o.kernel, "my.cu");
    assert_int_equal(p.o.nlabs, 1);
    assert_string_equal(p.o.labs[0], "01");

    p = parse_ok(PARSE("dram-burst", "--kernel", "other.cu"));
    assert_string_equal(p.o.kernel, "other.cu");
    assert_string_equal(p.o.labs[0], "dram-burst");
}

static void test_parse_format(void **state)
{
    (void)state;
    assert_int_equal(parse_ok(PARSE("--format", "json")).o.format, CLI_JSON);
    assert_int_equal(parse_ok(PARSE("--format", "text")).o.format, CLI_TEXT);
    assert_int_equal(parse_ok(PARSE("--format", "classroom")).o.format, CLI_CLASSROOM);
    /* The last one wins. */
    assert_int_equal(parse_ok(PARSE("--format", "json", "--format", "text")).o.format, CLI_TEXT);
}

static void test_parse_seed(void **state)
{
    (void)state;
    parsed p = parse_ok(PARSE("--seed", "42"));
    assert_int_equal(p.o.seed, 42);
    assert_int_equal(p.o.seed_given, 1);

    p = parse_ok(PARSE("--seed", "0"));
    assert_int_equal(p.o.seed, 0);
    assert_int_equal(p.o.seed_given, 1);

    p = parse_ok(PARSE("--seed", "0x10"));
    assert_int_equal(p.o.seed, 16);

    p = parse_ok(PARSE("--seed", "18446744073709551615"));
    assert_true(p.o.seed == UINT64_MAX);
}

static void test_parse_timeout(void **state)
{
    (void)state;
    assert_close(parse_ok(PARSE("--timeout", "10")).o.timeout_s, 10.0, 0.0);
    assert_close(parse_ok(PARSE("--timeout", "2.5")).o.timeout_s, 2.5, 0.0);
    assert_close(parse_ok(PARSE("--timeout", "86400")).o.timeout_s, 86400.0, 0.0);
}

/* ---- actions ---- */

static void test_parse_actions(void **state)
{
    (void)state;
    assert_int_equal(parse_ok(PARSE("--help")).o.action, CLI_HELP);
    assert_int_equal(parse_ok(PARSE("-h")).o.action, CLI_HELP);
    assert_int_equal(parse_ok(PARSE("--version")).o.action, CLI_VERSION);
    assert_int_equal(parse_ok(PARSE("--list")).o.action, CLI_LIST);
    assert_int_equal(parse_ok(PARSE("--doctor")).o.action, CLI_DOCTOR);
}

static void test_parse_explore_with_one_lab(void **state)
{
    (void)state;
    parsed p = parse_ok(PARSE("--explore", "01", "--csv", "out.csv"));
    assert_int_equal(p.o.action, CLI_EXPLORE);
    assert_int_equal(p.o.nlabs, 1);
    assert_string_equal(p.o.labs[0], "01");
    assert_string_equal(p.o.csv, "out.csv");
}

static void test_parse_help_text_names_every_option(void **state)
{
    (void)state;
    static const char *const options[] = {
        "--list",        "--kernel",    "--solution", "--format", "--output", "--seed", "--timeout",
        "--no-counters", "--no-timing", "--explore",  "--csv",    "--doctor", "--root", "--arch",
        "--nvcc",        "--keep",      "--quiet",    "--help",   "--version"};
    assert_true(strncmp(cli_help(), "usage: grade ", 13) == 0);
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (!strstr(cli_help(), options[i]))
            fail_msg("the help text does not mention '%s'", options[i]);
}

/* ---- usage errors ---- */

static void test_parse_unknown_option(void **state)
{
    (void)state;
    assert_usage_error(PARSE("--frobnicate"), "unknown option '--frobnicate' (see 'grade --help')");
    assert_usage_error(PARSE("01", "-x"), "unknown option '-x' (see 'grade --help')");
    /* Options are whole words: no prefixes, no '=' forms. */
    assert_usage_error(PARSE("--form", "json"), "unknown option '--form' (see 'grade --help')");
    assert_usage_error(PARSE("--format=json"),
                       "unknown option '--format=json' (see 'grade --help')");
}

static void test_parse_missing_value(void **state)
{
    (void)state;
    static const char *const options[] = {"--kernel", "--format", "--output", "--seed",   "--root",
                                          "--arch",   "--nvcc",   "--csv",    "--timeout"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        char want[64];
        snprintf(want, sizeof want, "option '%s' needs a value", options[i]);
        assert_usage_error(PARSE("01", (char *)options[i]), want);
    }
}

static void test_parse_bad_format(void **state)
{
    (void)state;
    assert_usage_error(PARSE("--format", "xml"),
                       "unknown format 'xml' (text, json, gradescope, junit or classroom)");
    assert_usage_error(PARSE("--format", "JSON"),
                       "unknown format 'JSON' (text, json, gradescope, junit or classroom)");
    assert_usage_error(PARSE("--format", ""),
                       "unknown format '' (text, json, gradescope, junit or classroom)");
}

static void test_parse_bad_seed(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "-1", "-0", "abc", "", "12abc", "1.5", "18446744073709551616"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[96];
        snprintf(want, sizeof want, "seed '%s' is not a non-negative integer", bad[i]);
        parsed p = PARSE("--seed", (char *)bad[i]);
        assert_usage_error(p, want);
    }
}

static void test_parse_bad_timeout(void **state)
{
    (void)state;
    static const char *const bad[] = {"0", "-5", "abc", "", "10s", "86401", "nan", "inf"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[96];
        snprintf(want, sizeof want, "timeout '%s' is not a number of seconds", bad[i]);
        assert_usage_error(PARSE("--timeout", (char *)bad[i]), want);
    }
}

static void test_parse_kernel_needs_exactly_one_lab(void **state)
{
    (void)state;
    const char *msg = "--kernel grades one lab: name it, e.g. 'grade --kernel my.cu 01'";
    assert_usage_error(PARSE("--kernel", "my.cu"), msg);
    assert_usage_error(PARSE("--kernel", "my.cu", "01", "dram-burst"), msg);
}

static void test_parse_submissions(void **state)
{
    (void)state;
    parsed p = parse_ok(PARSE("--submissions", "class", "--output", "out", "--resume", "01"));
    assert_int_equal(p.o.action, CLI_BATCH);
    assert_string_equal(p.o.submissions, "class");
    assert_string_equal(p.o.output, "out");
    assert_int_equal(p.o.resume, 1);
    assert_int_equal(p.o.nlabs, 1);
    assert_usage_error(PARSE("--resume"), "--resume goes on with a --submissions batch");
    assert_usage_error(PARSE("--submissions", "class", "--kernel", "my.cu", "01"),
                       "--submissions grades the students' files: no --kernel or --solution");
    assert_usage_error(PARSE("--submissions", "class", "--solution"),
                       "--submissions grades the students' files: no --kernel or --solution");
    assert_usage_error(PARSE("--submissions", "class", "--format", "json"),
                       "--submissions writes a CSV gradebook and Markdown feedback: no --format");
    assert_usage_error(PARSE("--submissions", "class", "--doctor"),
                       "--submissions grades: it takes no other action");
    p = parse_ok(PARSE("--submissions", "class", "--shard", "2/5"));
    assert_int_equal(p.o.shard, 2);
    assert_int_equal(p.o.shards, 5);
    assert_usage_error(PARSE("--submissions", "class", "--shard", "5/5"),
                       "shard '5/5' is not K/N with 0 <= K < N");
    assert_usage_error(PARSE("--submissions", "class", "--shard", "1/2x"),
                       "shard '1/2x' is not K/N with 0 <= K < N");
    assert_usage_error(PARSE("--shard", "0/2"), "--shard takes a share of a --submissions batch");
    p = parse_ok(PARSE("--course", "course.yml", "--print"));
    assert_string_equal(p.o.course, "course.yml");
    assert_int_equal(p.o.print, 1);
    assert_usage_error(PARSE("--print"), "--print shows a --course file's settings");
}

static void test_parse_kernel_excludes_solution(void **state)
{
    (void)state;
    assert_usage_error(PARSE("--kernel", "my.cu", "--solution", "01"),
                       "--kernel and --solution exclude each other");
    assert_usage_error(PARSE("--solution", "01", "--kernel", "my.cu"),
                       "--kernel and --solution exclude each other");
}

static void test_parse_explore_needs_exactly_one_lab(void **state)
{
    (void)state;
    const char *msg = "--explore runs one lab: name it, e.g. 'grade --explore 01'";
    assert_usage_error(PARSE("--explore"), msg);
    assert_usage_error(PARSE("--explore", "01", "1"), msg);
}

static void test_parse_error_fits_small_buffer(void **state)
{
    (void)state;
    char *argv[] = {"grade", "--frobnicate", NULL};
    cli_options o;
    char err[8];
    assert_int_equal(cli_parse(2, argv, &o, err, sizeof err), 2);
    assert_string_equal(err, "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_defaults),
        cmocka_unit_test(test_parse_resets_options),
        cmocka_unit_test(test_parse_labs_collected_in_order),
        cmocka_unit_test(test_parse_lone_dash_is_a_lab),
        cmocka_unit_test(test_parse_labs_up_to_max),
        cmocka_unit_test(test_parse_flags),
        cmocka_unit_test(test_parse_flags_one_at_a_time),
        cmocka_unit_test(test_parse_string_options),
        cmocka_unit_test(test_parse_value_may_look_like_a_lab),
        cmocka_unit_test(test_parse_kernel_with_one_lab),
        cmocka_unit_test(test_parse_format),
        cmocka_unit_test(test_parse_seed),
        cmocka_unit_test(test_parse_timeout),
        cmocka_unit_test(test_parse_actions),
        cmocka_unit_test(test_parse_explore_with_one_lab),
        cmocka_unit_test(test_parse_help_text_names_every_option),
        cmocka_unit_test(test_parse_unknown_option),
        cmocka_unit_test(test_parse_missing_value),
        cmocka_unit_test(test_parse_bad_format),
        cmocka_unit_test(test_parse_bad_seed),
        cmocka_unit_test(test_parse_bad_timeout),
        cmocka_unit_test(test_parse_kernel_needs_exactly_one_lab),
        cmocka_unit_test(test_parse_kernel_excludes_solution),
        cmocka_unit_test(test_parse_submissions),
        cmocka_unit_test(test_parse_explore_needs_exactly_one_lab),
        cmocka_unit_test(test_parse_error_fits_small_buffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
