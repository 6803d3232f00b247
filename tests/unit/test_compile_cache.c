/*
 * test_compile_cache.c - gr_config.compile_cache with the real nvcc (no GPU needed: grading
 * stops after the compile, at the recording, which here is /bin/false): a second compile of
 * the same file is taken from the cache, one byte more in the file or another -arch is
 * compiled again, and a planted entry whose key differs is never used; compiles ahead of the
 * grading (gr_compile_ahead) are found, with their time and warnings; a limit prunes the
 * entries used longest ago.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "grade.h"
#include "outcome.h"
#include "runner.h"

static char dir[64], cache[128], kernel[128];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/test-cache-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(cache, sizeof cache, "%s/cache", dir);
    snprintf(kernel, sizeof kernel, "%s/kernel.cu", dir);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "cp '%s/labs/01-dram-burst/kernel.cu' '%s'", CL_SOURCE_DIR, kernel);
    return system(cmd);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static gr_config config(const char *arch)
{
    gr_config cfg = {.root = CL_SOURCE_DIR,
                     .worker = "/bin/false", /* the recording fails: only the compile matters */
                     .nvcc = CL_NVCC_PATH,
                     .arch = arch,
                     .kernel = kernel,
                     .seed = 1,
                     .compile_timeout_s = 300,
                     .run_timeout_s = 10,
                     .compile_cache = cache};
    return cfg;
}

/* Grades lab 01 with cfg once into o (free with oc_free). */
static void grade_once(const gr_config *cfg, int n, oc_outcome *o)
{
    char work[128];
    snprintf(work, sizeof work, "%s/work%d", dir, n);
    gr_grade_lab(cfg, lab_find("01"), work, o);
    if (!o->compiled)
        fail_msg("did not compile: %s", o->compile_log ? o->compile_log : "");
}

/* grade_once, returning its progress lines (free them). */
static char *graded_saying(gr_config *cfg, int n, oc_outcome *o)
{
    char *said = NULL;
    size_t size = 0;
    cfg->progress = open_memstream(&said, &size);
    assert_non_null(cfg->progress);
    grade_once(cfg, n, o);
    fclose(cfg->progress);
    cfg->progress = NULL;
    return said;
}

/* Grades lab 01 with kernel once; returns whether its compile came from the cache. */
static int graded_from_cache(const char *arch, int n)
{
    gr_config cfg = config(arch);
    char work[128];
    snprintf(work, sizeof work, "%s/work%d", dir, n);
    static oc_outcome o;
    gr_grade_lab(&cfg, lab_find("01"), work, &o);
    if (!o.compiled)
        fail_msg("did not compile: %s", o.compile_log ? o.compile_log : "");
    int cached = o.compile_cached;
    /* What a hit leaves is what a compile leaves: the library, the device code and its PTX. */
    char path[256];
    snprintf(path, sizeof path, "%s/kernel.so", work);
    assert_int_equal(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s/keep/kernel.fatbin", work);
    assert_int_equal(access(path, R_OK), 0);
    oc_free(&o);
    return cached;
}

static int entries(void)
{
    DIR *d = opendir(cache);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static void test_hits_misses_and_a_planted_entry(void **state)
{
    (void)state;
    assert_false(graded_from_cache("sm_90", 1)); /* first: compiled, stored */
    assert_int_equal(entries(), 1);
    assert_true(graded_from_cache("sm_90", 2));  /* same file, same flags */
    assert_false(graded_from_cache("sm_80", 3)); /* another architecture */
    assert_int_equal(entries(), 2);
    FILE *f = fopen(kernel, "a");
    fputs("// one more line\n", f);
    fclose(f);
    assert_false(graded_from_cache("sm_90", 4)); /* another file */
    assert_int_equal(entries(), 3);
    /* Every entry's key spoiled by a byte (as a collision or a forged entry would be): none
     * is used, each is compiled again. */
    DIR *d = opendir(cache);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s/key", cache, e->d_name);
        FILE *k = fopen(path, "r+");
        assert_non_null(k);
        fseek(k, -1, SEEK_END);
        fputc('#', k);
        fclose(k);
    }
    closedir(d);
    assert_false(graded_from_cache("sm_90", 5));
}

/* Appends text to the kernel file. */
static void append(const char *text)
{
    FILE *f = fopen(kernel, "a");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Starts a compile ahead of the kernel (gr_compile_ahead) with cfg, in the folder DIR/name. */
static pid_t compiling_ahead(const gr_config *cfg, const char *name)
{
    char ahead[128];
    snprintf(ahead, sizeof ahead, "%s/%s", dir, name);
    pid_t pid = gr_compile_ahead(cfg, lab_find("01"), ahead, kernel, NULL, 0);
    assert_true(pid > 0);
    return pid;
}

/* A lab compiled ahead of its grading, in the same run: reported as compiled, with its time and
 * nvcc's warnings; the next run finds it compiled before, warnings and all. The ahead folder is
 * gone. */
static void test_compiled_ahead_keeps_its_time_and_warnings(void **state)
{
    (void)state;
    /* A device function with a variable never used: nvcc warns (#177-D). */
    append("__device__ int unused_here() { int never_used; return 1; }\n");
    gr_config cfg = config("sm_90");
    cfg.run_id = "/tmp/grade-run-A";
    char ahead[128];
    snprintf(ahead, sizeof ahead, "%s/ahead", dir);
    gr_wait_ahead(compiling_ahead(&cfg, "ahead"));
    assert_int_not_equal(access(ahead, F_OK), 0);
    static oc_outcome o;
    char *said = graded_saying(&cfg, 10, &o);
    assert_non_null(strstr(said, "(ahead of its grading)")); /* found, not compiled again */
    assert_null(strstr(said, "compiling"));
    free(said);
    assert_false(o.compile_cached);
    assert_true(o.compile_s > 0.1);
    assert_non_null(strstr(o.compile_log, "never_used"));
    oc_free(&o);
    cfg.run_id = "/tmp/grade-run-B";
    grade_once(&cfg, 11, &o);
    assert_true(o.compile_cached);
    assert_true(o.compile_s == 0);
    assert_non_null(strstr(o.compile_log, "never_used"));
    oc_free(&o);
}

/* A submission's text compiled ahead (the batch's way): the grading of the same text hits. */
static void test_text_compiled_ahead_is_found(void **state)
{
    (void)state;
    append("// handed in\n");
    FILE *f = fopen(kernel, "rb");
    assert_non_null(f);
    static char text[1 << 16];
    size_t size = fread(text, 1, sizeof text, f);
    fclose(f);
    gr_config cfg = config("sm_90");
    cfg.run_id = "/tmp/grade-run-C";
    char ahead[128];
    snprintf(ahead, sizeof ahead, "%s/ahead-text", dir);
    gr_wait_ahead(gr_compile_ahead(&cfg, lab_find("01"), ahead, NULL, text, size));
    static oc_outcome o;
    char *said = graded_saying(&cfg, 12, &o);
    assert_non_null(strstr(said, "(ahead of its grading)"));
    free(said);
    assert_true(o.compile_s > 0.1); /* the ahead compile's time */
    assert_false(o.compile_cached);
    oc_free(&o);
}

/* With a limit, the cache keeps the entries used last: after three files with room for two,
 * the first is compiled again and the last is not. */
static void test_pruned_to_the_newest(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
    assert_int_equal(system(cmd), 0);
    gr_config cfg = config("sm_90");
    cfg.compile_cache_keep = 2;
    static oc_outcome o;
    for (int i = 0; i < 3; ++i) {
        char line[64];
        snprintf(line, sizeof line, "// version %d\n", i);
        append(line);
        grade_once(&cfg, 20 + i, &o);
        assert_false(o.compile_cached);
        oc_free(&o);
    }
    assert_int_equal(entries(), 2);
    grade_once(&cfg, 23, &o); /* the last version, still there */
    assert_true(o.compile_cached);
    oc_free(&o);
}

/* What nvcc reads from its environment is part of the key (a -DDEBUG added through
 * NVCC_APPEND_FLAGS builds another kernel), and an entry whose device code is gone is compiled
 * again, never taken (from an adversarial review). */
static void test_environment_and_spoiled_entries(void **state)
{
    (void)state;
    append("// environment\n");
    assert_false(graded_from_cache("sm_90", 30));
    assert_true(graded_from_cache("sm_90", 31));
    setenv("NVCC_APPEND_FLAGS", "-DGRADE_TEST_FLAG", 1);
    assert_false(graded_from_cache("sm_90", 32));
    unsetenv("NVCC_APPEND_FLAGS");
    assert_true(graded_from_cache("sm_90", 33));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -f '%s'/*/keep/kernel.fatbin", cache);
    assert_int_equal(system(cmd), 0);
    assert_false(graded_from_cache("sm_90", 34));
    assert_true(graded_from_cache("sm_90", 35));
}

/* The device code's line table names the folder it was compiled in: a kernel compiled ahead
 * or by an earlier run is still the student's, so its worst line is shown as theirs. */
static void test_line_table_paths_of_copies(void **state)
{
    (void)state;
    char dir[] = "/tmp/names-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char source[256];
    snprintf(source, sizeof source, "%s/kernel.cu", dir);
    FILE *f = fopen(source, "w");
    assert_non_null(f);
    fclose(f);
    assert_true(gr_names_student_source(source, source));
    assert_true(gr_names_student_source("/tmp/grade-p24Lke/ahead-5/lab/src/kernel.cu", source));
    assert_true(gr_names_student_source("/tmp/grade-gone/lab06/src/kernel.cu", source));
    assert_false(gr_names_student_source("/usr/include/cuda_runtime.h", source));
    assert_false(gr_names_student_source("/tmp/other/kernel.cu", source));
    assert_false(gr_names_student_source("src/kernel.cu.h", source));
    remove(source);
    rmdir(dir);
}

/* A kernel nvcc rejects, compiled ahead: the grading in the same run reports its errors
 * without compiling it again; another run compiles it again (a rejection could have been the
 * machine's), and rejects it too. Both reports name the file as the student gave it. */
static void test_rejected_ahead_is_taken_in_its_run_only(void **state)
{
    (void)state;
    char broken[160];
    snprintf(broken, sizeof broken, "%s/broken.cu", dir);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s' && echo 'this is not C++;' >> '%s'", kernel, broken,
             broken);
    assert_int_equal(system(cmd), 0);
    gr_config cfg = config("sm_90");
    cfg.kernel = broken;
    cfg.run_id = "/tmp/grade-run-D";
    char ahead[128];
    snprintf(ahead, sizeof ahead, "%s/ahead-broken", dir);
    gr_wait_ahead(gr_compile_ahead(&cfg, lab_find("01"), ahead, broken, NULL, 0));
    static oc_outcome o;
    char *said = NULL, work[128];
    size_t size = 0;
    const char *runs[] = {"/tmp/grade-run-D", "/tmp/grade-run-E"};
    for (int i = 0; i < 2; ++i) {
        cfg.run_id = runs[i];
        cfg.progress = open_memstream(&said, &size);
        snprintf(work, sizeof work, "%s/work%d", dir, 40 + i);
        gr_grade_lab(&cfg, lab_find("01"), work, &o);
        fclose(cfg.progress);
        assert_false(o.compiled);
        assert_non_null(strstr(o.compile_log, "this is not C++"));
        /* nvcc's messages name the file as the student knows it, not the grader's copy. */
        assert_non_null(strstr(o.compile_log, broken));
        assert_null(strstr(o.compile_log, "/src/kernel.cu"));
        if (i == 0) /* its run: the compile ahead's messages, nvcc not run again */
            assert_null(strstr(said, "compiling"));
        else
            assert_non_null(strstr(said, "compiling"));
        free(said);
        oc_free(&o);
    }
}

/* The early compile of a lab graded alone (main.c's compile before the probe): the grading
 * waits for it, takes what it compiled, and says so once; a compile stopped through its stop
 * descriptor stores nothing. */
static void test_grading_waits_for_the_compile_started_before(void **state)
{
    (void)state;
    append("// compiled before the probe\n");
    gr_config cfg = config("sm_90");
    cfg.run_id = "/tmp/grade-run-F";
    pid_t pid = compiling_ahead(&cfg, "early");
    cfg.compiling = &pid;
    static oc_outcome o;
    char *said = graded_saying(&cfg, 50, &o);
    assert_int_equal(pid, 0); /* waited for */
    assert_false(o.compile_cached);
    assert_true(o.compile_s > 0.1); /* the early compile's time: it was not compiled again */
    int compiling = strstr(said, "compiling") != NULL, found = strstr(said, "ahead of") != NULL;
    assert_true(compiling != found); /* one line, whichever it was still doing */
    assert_null(strstr(said, "compiled before"));
    free(said);
    oc_free(&o);

    append("// stopped\n");
    int before = entries(), stop[2];
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, stop), 0);
    gr_config c = config("sm_90");
    c.compile_stop_fd = &stop[0];
    pid = compiling_ahead(&c, "stopped");
    assert_int_equal(send(stop[1], "s", 1, MSG_NOSIGNAL), 1); /* stop */
    close(stop[0]);
    close(stop[1]);
    double t = rn_now_s();
    gr_wait_ahead(pid);
    assert_true(rn_now_s() - t < 5.0); /* stopped, not compiled to the end (about 1-4 s here) */
    assert_int_equal(entries(), before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hits_misses_and_a_planted_entry),
        cmocka_unit_test(test_compiled_ahead_keeps_its_time_and_warnings),
        cmocka_unit_test(test_text_compiled_ahead_is_found),
        cmocka_unit_test(test_pruned_to_the_newest),
        cmocka_unit_test(test_environment_and_spoiled_entries),
        cmocka_unit_test(test_line_table_paths_of_copies),
        cmocka_unit_test(test_rejected_ahead_is_taken_in_its_run_only),
        cmocka_unit_test(test_grading_waits_for_the_compile_started_before),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
