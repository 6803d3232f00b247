/*
 * test_sandbox.c - the Landlock sandbox (sandbox.h) around a real child: /bin/sh, run through
 * rn_run() with a policy, reading, writing and signalling where it may and where it may not.
 * Skipped (77) where the kernel offers no Landlock; the signal test where it is older than
 * ABI 6.
 *
 *   cmake --build build --target test_sandbox && build/test_sandbox
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "confine.h"
#include "runner.h"
#include "sandbox.h"

static char inside[64], outside[64];

static int make_dirs(void **state)
{
    (void)state;
    snprintf(inside, sizeof inside, "/tmp/cl-sandbox-in-XXXXXX");
    snprintf(outside, sizeof outside, "/tmp/cl-sandbox-out-XXXXXX");
    if (!mkdtemp(inside) || !mkdtemp(outside))
        return -1;
    char secret[128];
    snprintf(secret, sizeof secret, "%s/secret", outside);
    FILE *f = fopen(secret, "w");
    if (!f)
        return -1;
    fputs("the solution\n", f);
    return fclose(f);
}

static int remove_dirs(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", inside, outside);
    return system(cmd) == 0 ? 0 : -1;
}

/* Runs script with sh in the folder inside, confined to reading the system and writing inside. */
static rn_result run_confined(const char *script)
{
    sb_policy p;
    memset(&p, 0, sizeof p);
    const char *system_dirs[] = {"/usr", "/bin", "/lib", "/lib64", "/etc"};
    for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; ++i)
        assert_int_equal(sb_add(p.read, system_dirs[i]), 0);
    assert_int_equal(sb_add(p.write, inside), 0);
    assert_int_equal(sb_add(p.devices, "/dev"), 0);
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    rn_options o = {.timeout_s = 20, .output_cap = 4096, .workdir = inside, .sandbox = &p};
    rn_result r;
    assert_int_equal(rn_run(argv, &o, &r), 0);
    return r;
}

static void test_sandbox_reads_and_writes_inside(void **state)
{
    (void)state;
    rn_result r = run_confined("echo made > made && cat made && cat /etc/hostname >/dev/null");
    assert_int_equal(r.status, RN_EXITED);
    assert_int_equal(r.exit_code, 0);
    assert_non_null(strstr(r.output, "made"));
    rn_result_free(&r);
}

static void test_sandbox_hides_what_is_outside(void **state)
{
    (void)state;
    char script[256];
    snprintf(script, sizeof script, "cat '%s/secret'", outside);
    rn_result r = run_confined(script);
    assert_int_equal(r.status, RN_EXITED);
    assert_int_not_equal(r.exit_code, 0);
    assert_null(strstr(r.output, "the solution"));
    assert_non_null(strstr(r.output, "Permission denied"));
    rn_result_free(&r);
}

static void test_sandbox_keeps_writes_inside(void **state)
{
    (void)state;
    char script[256], planted[128];
    snprintf(planted, sizeof planted, "%s/planted", outside);
    snprintf(script, sizeof script, "echo x > '%s'; echo x >> '%s/secret'", planted, outside);
    rn_result r = run_confined(script);
    assert_int_equal(r.status, RN_EXITED);
    assert_int_not_equal(r.exit_code, 0);
    assert_int_not_equal(access(planted, F_OK), 0);
    rn_result_free(&r);
    /* Nor through a link made inside. */
    snprintf(script, sizeof script, "ln -s '%s/secret' link && echo x > link", outside);
    r = run_confined(script);
    assert_int_not_equal(r.exit_code, 0);
    rn_result_free(&r);
    char secret[128], text[64] = "";
    snprintf(secret, sizeof secret, "%s/secret", outside);
    FILE *f = fopen(secret, "r");
    assert_non_null(f);
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_string_equal(text, "the solution\n");
}

static void test_sandbox_cannot_signal_out(void **state)
{
    (void)state;
    if (sb_abi() < 6)
        skip();
    char script[128];
    snprintf(script, sizeof script, "kill -TERM %ld", (long)getpid());
    signal(SIGTERM, SIG_DFL); /* were it delivered, this test process would die */
    rn_result r = run_confined(script);
    assert_int_equal(r.status, RN_EXITED);
    assert_int_not_equal(r.exit_code, 0);
    rn_result_free(&r);
}

/* The recording's own policy (confine.h), with the folders of a grading: the lab's work folder
 * (inside) holding the compiled kernel and the recording's folder (inside/rec), the grading
 * child's program in a build folder (outside/build) beside a file it must not see, and a
 * secret elsewhere (outside). Prints one word for each thing tried. */
static rn_result run_recording(gr_confinement how)
{
    char build[128], rec[128], cmd[1024];
    snprintf(build, sizeof build, "%s/build", outside);
    snprintf(rec, sizeof rec, "%s/rec", inside);
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s' '%s' && echo worker > '%s/grade-worker' && echo solution > "
             "'%s/cached-solution' && echo kernel > '%s/kernel.so'",
             build, rec, build, build, inside);
    assert_int_equal(system(cmd), 0);
    static char worker[160];
    snprintf(worker, sizeof worker, "%s/grade-worker", build);
    gr_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.worker = worker;
    /* The grader's tree is the build folder's: a library path naming the folder that holds it
     * (and a relative one, wherever the grader was started) must widen nothing. */
    cfg.root = build;
    char libs[300];
    snprintf(libs, sizeof libs, "%s:.", outside);
    setenv("LD_LIBRARY_PATH", libs, 1);
    sb_policy p;
    gr_record_policy(&cfg, rec, inside, how, &p);
    char script[2600];
    snprintf(script, sizeof script,
             "try() { if (eval \"$2\") >/dev/null 2>&1; then echo \"$1:yes\"; else echo "
             "\"$1:no\"; fi; }; "
             "try system 'cat /etc/hostname'; try kernel 'cat %s/kernel.so'; "
             "try own 'echo x > %s/made && cat %s/made'; try worker 'cat %s'; "
             "try beside 'cat %s/cached-solution'; try secret 'cat %s/secret'; "
             "try null 'echo x > /dev/null'; try ptmx 'exec 3<>/dev/ptmx'; "
             "try unix 'python3 -c \"import socket; socket.socket(socket.AF_UNIX)\"'; "
             "try inet 'python3 -c \"import socket; socket.socket(socket.AF_INET)\"'",
             inside, rec, rec, worker, build, outside);
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    rn_options o = {.timeout_s = 20, .output_cap = 4096, .workdir = rec, .sandbox = &p};
    rn_result r;
    assert_int_equal(rn_run(argv, &o, &r), 0);
    assert_int_equal(r.status, RN_EXITED);
    return r;
}

/* Runs the recording at how and checks that its output has each of the words of want. */
static void expect_words(gr_confinement how, const char *want)
{
    rn_result r = run_recording(how);
    char words[256], *save = NULL;
    snprintf(words, sizeof words, "%s", want);
    for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save))
        if (!strstr(r.output, w))
            fail_msg("wanted %s in:\n%s", w, r.output);
    rn_result_free(&r);
}

/* Confined for reads: the system, its kernel, its folder, the grading child's program and the
 * plain devices, nothing else: not what lies beside the program in the build folder (the
 * compile cache's solutions), not the grader's tree or another folder, not a new terminal. */
static void test_recording_reads_only_its_own(void **state)
{
    (void)state;
    expect_words(GR_READS, "system:yes kernel:yes own:yes worker:yes beside:no secret:no "
                           "null:yes ptmx:no unix:no inet:yes");
}

/* The default, where reads are not confined: it reads what its user may (so the test can tell
 * the levels apart), writes only its folder, and opens no device but the plain ones and the
 * GPU's (not a new terminal, nor an old one to read). The fallback where the GPU starts no
 * other way opens any. */
static void test_recording_writes_only_its_own(void **state)
{
    (void)state;
    expect_words(GR_WRITES, "system:yes own:yes beside:yes secret:yes null:yes ptmx:no unix:no "
                            "inet:yes");
    expect_words(GR_WIDE, "own:yes beside:yes secret:yes ptmx:yes unix:yes");
}

static void test_sandbox_describes_itself(void **state)
{
    (void)state;
    char line[512];
    sb_describe(line, sizeof line);
    assert_non_null(strstr(line, "Landlock ABI"));
}

int main(void)
{
    if (sb_abi() == 0) {
        printf("this kernel offers no Landlock: skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sandbox_reads_and_writes_inside),
        cmocka_unit_test(test_sandbox_hides_what_is_outside),
        cmocka_unit_test(test_sandbox_keeps_writes_inside),
        cmocka_unit_test(test_sandbox_cannot_signal_out),
        cmocka_unit_test(test_recording_reads_only_its_own),
        cmocka_unit_test(test_recording_writes_only_its_own),
        cmocka_unit_test(test_sandbox_describes_itself),
    };
    return cmocka_run_group_tests(tests, make_dirs, remove_dirs);
}
