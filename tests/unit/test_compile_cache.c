/*
 * test_compile_cache.c - gr_config.compile_cache with the real nvcc (no GPU needed: grading
 * stops after the compile, at the recording, which here is /bin/false): a second compile of
 * the same file is taken from the cache, one byte more in the file or another -arch is
 * compiled again, and a planted entry whose key differs is never used.
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
#include <unistd.h>

#include "grade.h"
#include "outcome.h"

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

/* Grades lab 01 with kernel once; returns whether its compile came from the cache. */
static int graded_from_cache(const char *arch, int n)
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hits_misses_and_a_planted_entry),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
