/*
 * test_build.c - the nvcc command line of a lab's kernel, and bd_compile() run with stand-in
 * compilers (echo, true, false, a program that does not exist), so no CUDA is needed.
 *
 * Build and run (the project CMake builds it as test_build, linked with cl_grader):
 *   cmake --build build --target test_build && build/test_build
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "build.h"
#include "runner.h"

#define SOURCE "labs/01-dram-burst/kernel.cu"
#define OUTPUT "/tmp/work/kernel.so"
#define INCLUDE "/srv/workbook/labs/01-dram-burst"

/* Holds the -arch and -I strings of the last command built by command_of(). */
static bd_argstore store;

/* The command for opt, checked for its shape: argc entries, then NULL. */
static int command_of(const bd_options *opt, const char *argv[BD_MAX_ARGS])
{
    for (int i = 0; i < BD_MAX_ARGS; i++)
        argv[i] = "(unset)";
    int n = bd_command(SOURCE, OUTPUT, opt, &store, argv);
    assert_in_range(n, 2, BD_MAX_ARGS - 1);
    assert_null(argv[n]);
    for (int i = 0; i < n; i++)
        assert_non_null(argv[i]);
    return n;
}

/* Index of arg in argv[0..n), or -1. */
static int find_arg(const char *const argv[], int n, const char *arg)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(argv[i], arg))
            return i;
    return -1;
}

static void assert_has_arg(const char *const argv[], int n, const char *arg)
{
    if (find_arg(argv, n, arg) < 0)
        fail_msg("'%s' is not in the nvcc command", arg);
}

static void assert_lacks_arg(const char *const argv[], int n, const char *arg)
{
    if (find_arg(argv, n, arg) >= 0)
        fail_msg("'%s' should not be in the nvcc command", arg);
}

/* ---- bd_command ---- */

static void test_command_defaults(void **state)
{
    (void)state;
    bd_options opt = {.nvcc = "/usr/local/cuda/bin/nvcc", .include_dir = INCLUDE};
    const char *argv[BD_MAX_ARGS];
    int n = command_of(&opt, argv);
    assert_string_equal(argv[0], "/usr/local/cuda/bin/nvcc");
    assert_has_arg(argv, n, "-shared");
    assert_has_arg(argv, n, "-lineinfo");
    int cudart = find_arg(argv, n, "--cudart");
    assert_true(cudart > 0 && cudart + 1 < n);
    assert_string_equal(argv[cudart + 1], "shared");
    assert_has_arg(argv, n, "-arch=native");
    assert_has_arg(argv, n, "-I" INCLUDE);
    int o = find_arg(argv, n, "-o");
    assert_true(o > 0 && o + 1 < n);
    assert_string_equal(argv[o + 1], OUTPUT);
    /* The source comes last, once. */
    assert_string_equal(argv[n - 1], SOURCE);
    assert_int_equal(find_arg(argv, n, SOURCE), n - 1);
}

static void test_command_position_independent_code(void **state)
{
    (void)state;
    /* A shared object needs -fPIC, passed through to the host compiler. */
    bd_options opt = {.nvcc = "nvcc", .include_dir = INCLUDE};
    const char *argv[BD_MAX_ARGS];
    int n = command_of(&opt, argv);
    int x = find_arg(argv, n, "-Xcompiler");
    assert_true(x > 0 && x + 1 < n);
    assert_string_equal(argv[x + 1], "-fPIC");
}

static void test_command_arch_given(void **state)
{
    (void)state;
    bd_options opt = {.nvcc = "nvcc", .arch = "sm_90", .include_dir = INCLUDE};
    const char *argv[BD_MAX_ARGS];
    int n = command_of(&opt, argv);
    assert_has_arg(argv, n, "-arch=sm_90");
    assert_lacks_arg(argv, n, "-arch=native");
}

static void test_command_empty_arch_is_native(void **state)
{
    (void)state;
    bd_options opt = {.nvcc = "nvcc", .arch = "", .include_dir = INCLUDE};
    const char *argv[BD_MAX_ARGS];
    int n = command_of(&opt, argv);
    assert_has_arg(argv, n, "-arch=native");
    assert_lacks_arg(argv, n, "-arch=");
}

static void test_command_missing_nvcc_and_include(void **state)
{
    (void)state;
    bd_options opt = {0};
    const char *argv[BD_MAX_ARGS];
    int n = command_of(&opt, argv);
    assert_string_equal(argv[0], "nvcc");
    assert_has_arg(argv, n, "-I.");
    assert_string_equal(argv[n - 1], SOURCE);

    opt.nvcc = "";
    command_of(&opt, argv);
    assert_string_equal(argv[0], "nvcc");
}

/* ---- bd_compile ---- */

static void test_compile_compiler_missing(void **state)
{
    (void)state;
    bd_options opt = {.nvcc = "/nonexistent/bin/nvcc", .include_dir = INCLUDE, .timeout_s = 10};
    rn_result res;
    assert_int_equal(bd_compile(SOURCE, OUTPUT, &opt, &res), 1);
    assert_int_equal(res.status, RN_START_FAILED);
    assert_non_null(res.output);
    if (!strstr(res.output, "/nonexistent/bin/nvcc"))
        fail_msg("the message does not name the compiler: %s", res.output);
    rn_result_free(&res);
}

static void test_compile_runs_the_command(void **state)
{
    (void)state;
    /* echo as the compiler prints the very arguments bd_command lists. */
    bd_options opt = {.nvcc = "echo", .arch = "sm_90", .include_dir = INCLUDE, .timeout_s = 10};
    rn_result res;
    assert_int_equal(bd_compile(SOURCE, OUTPUT, &opt, &res), 0);
    assert_int_equal(res.status, RN_EXITED);
    assert_int_equal(res.exit_code, 0);

    const char *argv[BD_MAX_ARGS];
    int n = bd_command(SOURCE, OUTPUT, &opt, &store, argv);
    char want[1024] = "";
    for (int i = 1; i < n; i++) {
        strcat(want, argv[i]);
        strcat(want, i + 1 < n ? " " : "\n");
    }
    assert_string_equal(res.output, want);
    rn_result_free(&res);
}

static void test_compile_success_and_rejection(void **state)
{
    (void)state;
    bd_options opt = {.nvcc = "true", .include_dir = INCLUDE, .timeout_s = 10};
    rn_result res;
    assert_int_equal(bd_compile(SOURCE, OUTPUT, &opt, &res), 0);
    rn_result_free(&res);

    opt.nvcc = "false";
    assert_int_equal(bd_compile(SOURCE, OUTPUT, &opt, &res), 1);
    assert_int_equal(res.status, RN_EXITED);
    assert_int_equal(res.exit_code, 1);
    rn_result_free(&res);
}

static void test_compile_bad_arguments(void **state)
{
    (void)state;
    bd_options opt = {.nvcc = "true", .include_dir = INCLUDE, .timeout_s = 10};
    rn_result res;
    assert_int_equal(bd_compile(NULL, OUTPUT, &opt, &res), -1);
    assert_int_equal(bd_compile(SOURCE, NULL, &opt, &res), -1);
    assert_int_equal(bd_compile(SOURCE, OUTPUT, NULL, &res), -1);
    assert_int_equal(bd_compile(SOURCE, OUTPUT, &opt, NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_command_defaults),
        cmocka_unit_test(test_command_position_independent_code),
        cmocka_unit_test(test_command_arch_given),
        cmocka_unit_test(test_command_empty_arch_is_native),
        cmocka_unit_test(test_command_missing_nvcc_and_include),
        cmocka_unit_test(test_compile_compiler_missing),
        cmocka_unit_test(test_compile_runs_the_command),
        cmocka_unit_test(test_compile_success_and_rejection),
        cmocka_unit_test(test_compile_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
