/*
 * test_device_scan.c - the check of the device code before any student code runs (grade.c,
 * scan_device_code), with the real nvcc and a stand-in cuobjdump beside it (no GPU needed:
 * grading stops at the recording, which here is /bin/false). cuobjdump is found beside nvcc
 * (named by its path, found on PATH, or through a link), is run on every cubin nvcc kept (on
 * kernel.fatbin for a compile from the cache), its listing is saved in keep/device.sass and
 * refused from; where it fails or is missing, the PTX is scanned instead, said once.
 *
 *   cmake --build build --target test_device_scan && build/test_device_scan
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grade.h"
#include "outcome.h"
#include "wire.h"

static char dir[64];

/* dir/NAME with text, made executable when mode says so. */
static void write_file(const char *name, const char *text, size_t size, mode_t mode)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, mode), 0);
}

/* The part of the real listing (tests/unit/data/isa-sm90.sass) from function's heading to the
 * next, as dir/bin/NAME.sass. */
static void listing_of(const char *function, const char *name)
{
    char why[128], heading[128], file[128];
    size_t size = 0;
    char *text = wi_read_bytes(CL_SOURCE_DIR "/tests/unit/data/isa-sm90.sass", 1 << 20, &size, why,
                               sizeof why);
    assert_non_null(text);
    snprintf(heading, sizeof heading, "Function : %s\n", function);
    const char *start = strstr(text, heading);
    assert_non_null(start);
    const char *end = strstr(start + 1, "Function : ");
    snprintf(file, sizeof file, "bin/%s.sass", name);
    write_file(file, start, end ? (size_t)(end - start) : strlen(start), 0644);
    free(text);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/test-scan-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    char path[256];
    static const char *const folders[] = {"bin", "bare", "links"};
    for (int i = 0; i < 3; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, folders[i]);
        if (mkdir(path, 0755) != 0)
            return -1;
    }
    /* nvcc finds its toolkit from where it lies: a link to it would not compile. */
    char nvcc[512];
    int n = snprintf(nvcc, sizeof nvcc, "#!/bin/sh\nexec '%s' \"$@\"\n", CL_NVCC_PATH);
    write_file("bin/nvcc", nvcc, (size_t)n, 0755);
    write_file("bare/nvcc", nvcc, (size_t)n, 0755);
    static const char cuobjdump[] =
        "#!/bin/sh\n"
        "# A stand-in for cuobjdump -sass FILE: notes FILE, and lists $FAKE_SASS.sass (found\n"
        "# beside it) for the kernel's cubin or fatbin, nothing for the device link's.\n"
        "echo \"$*\" >> \"$TMPDIR/cuobjdump.args\"\n"
        "[ \"$FAKE_SASS\" = fail ] && { echo 'cuobjdump fatal : stand-in told to fail'; exit 3; }\n"
        "case $2 in *_dlink.*) exit 0 ;; esac\n"
        "cat \"$(dirname \"$0\")/$FAKE_SASS.sass\"\n";
    write_file("bin/cuobjdump", cuobjdump, sizeof cuobjdump - 1, 0755);
    snprintf(path, sizeof path, "%s/links/nvcc", dir);
    if (symlink("../bin/nvcc", path) != 0)
        return -1;
    listing_of("_Z7k_labelPKfPf", "label");
    listing_of("_Z7k_plainPKfPfi", "plain");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static gr_config config(const char *nvcc, const char *kernel)
{
    static char path[256], source[256];
    snprintf(path, sizeof path, "%s/%s", dir, nvcc);
    snprintf(source, sizeof source, "%s/%s", CL_SOURCE_DIR, kernel);
    gr_config cfg = {.root = CL_SOURCE_DIR,
                     .worker = "/bin/false", /* the recording fails: only what comes before */
                     .nvcc = path,
                     .arch = "sm_90",
                     .kernel = source,
                     .seed = 1,
                     .compile_timeout_s = 300,
                     .run_timeout_s = 10};
    return cfg;
}

/* Grades lab 01 with cfg in dir/work-N into o, and returns its progress lines (free them). */
static char *graded(gr_config *cfg, int n, oc_outcome *o)
{
    char *said = NULL, work[128];
    size_t size = 0;
    snprintf(work, sizeof work, "%s/work-%d", dir, n);
    cfg->progress = open_memstream(&said, &size);
    assert_non_null(cfg->progress);
    gr_grade_lab(cfg, lab_find("01"), work, o);
    fclose(cfg->progress);
    cfg->progress = NULL;
    if (!o->compiled)
        fail_msg("did not compile: %s", o->compile_log ? o->compile_log : "");
    return said;
}

/* dir/work-N/keep/NAME's text, or NULL where there is no such file (free it). */
static char *kept(int n, const char *name)
{
    char path[256], why[128];
    size_t size = 0;
    snprintf(path, sizeof path, "%s/work-%d/keep/%s", dir, n, name);
    return wi_read_bytes(path, 64 << 20, &size, why, sizeof why);
}

static void says(const char *text, const char *words)
{
    if (!text || !strstr(text, words))
        fail_msg("'%s' does not say '%s'", text ? text : "(nothing)", words);
}

static void test_device_scan_finds_cuobjdump(void **state)
{
    (void)state;
    char found[PATH_MAX], want[256], *path = getenv("PATH"), saved[8192];
    snprintf(saved, sizeof saved, "%s", path ? path : "");
    snprintf(want, sizeof want, "%s/bin/cuobjdump", dir);
    gr_config cfg = config("bin/nvcc", "labs/01-dram-burst/kernel.cu");
    assert_int_equal(gr_cuobjdump(&cfg, found), 0);
    assert_string_equal(found, want);
    cfg = config("links/nvcc", "labs/01-dram-burst/kernel.cu"); /* beside what the link names */
    assert_int_equal(gr_cuobjdump(&cfg, found), 0);
    char real[PATH_MAX];
    assert_non_null(realpath(want, real));
    assert_string_equal(found, real);
    cfg = config("bare/nvcc", "labs/01-dram-burst/kernel.cu");
    assert_int_equal(gr_cuobjdump(&cfg, found), -1);
    assert_string_equal(found, "");
    /* A bare name, through PATH: the first folder that has nvcc. */
    char on_path[8400];
    snprintf(on_path, sizeof on_path, "%s/nowhere::%s/bin:%s/bare", dir, dir, dir);
    setenv("PATH", on_path, 1);
    cfg.nvcc = "nvcc";
    assert_int_equal(gr_cuobjdump(&cfg, found), 0);
    assert_string_equal(found, want);
    snprintf(on_path, sizeof on_path, "%s/bare:%s/bin", dir, dir);
    setenv("PATH", on_path, 1);
    assert_int_equal(gr_cuobjdump(&cfg, found), -1);
    setenv("PATH", "/nowhere", 1);
    assert_int_equal(gr_cuobjdump(&cfg, found), -1);
    setenv("PATH", saved, 1);
}

/* The label trick, and the SASS that nvcc makes of it: refused by LDGSTS (the stand-in's
 * listing is probe/isa.cu's k_label, the same trick). Every cubin nvcc kept is listed, and the
 * listing saved. */
static void test_device_scan_refuses_from_the_sass(void **state)
{
    (void)state;
    setenv("FAKE_SASS", "label", 1);
    gr_config cfg = config("bin/nvcc", "tests/submissions/01-dram-burst/label_cp_async.cu");
    static oc_outcome o;
    char *said = graded(&cfg, 1, &o);
    assert_null(strstr(said, "PTX"));
    free(said);
    says(o.refused, "cp.async");
    says(o.refused, "LDGSTS.E at 0x00d0 in '_Z7k_labelPKfPf'");
    oc_free(&o);
    char *args = kept(1, "cuobjdump.args");
    says(args, "-sass ");
    says(args, "/keep/kernel.sm_90.cubin\n");
    says(args, "/keep/kernel_dlink.sm_90.cubin\n");
    free(args);
    char *sass = kept(1, "device.sass");
    says(sass, "// cuobjdump -sass kernel.sm_90.cubin\n");
    says(sass, "LDGSTS.E [R7], desc[UR4][R2.64] ;");
    free(sass);
}

/* Ordinary SASS: no refusal, and grading goes on to the recording (which fails here). A
 * compile from the cache keeps no cubin: its fatbin is listed. */
static void test_device_scan_lets_measured_code_run(void **state)
{
    (void)state;
    setenv("FAKE_SASS", "plain", 1);
    gr_config cfg = config("bin/nvcc", "labs/01-dram-burst/kernel.cu");
    char cache[128];
    snprintf(cache, sizeof cache, "%s/cache", dir);
    cfg.compile_cache = cache;
    static oc_outcome o;
    for (int n = 2; n <= 3; ++n) {
        free(graded(&cfg, n, &o));
        assert_string_equal(o.refused, "");
        assert_null(strstr(o.run_problem, "SASS"));
        assert_null(strstr(o.run_problem, "PTX"));
        assert_int_equal(o.compile_cached, n == 3);
        oc_free(&o);
    }
    char *args = kept(3, "cuobjdump.args");
    says(args, "/keep/kernel.fatbin\n");
    assert_null(strstr(args, "cubin"));
    free(args);
    char *sass = kept(3, "device.sass");
    says(sass, "Function : _Z7k_plainPKfPfi");
    free(sass);
}

/* cuobjdump fails, or there is none beside nvcc: the PTX is scanned instead (and sees through
 * the label), which is said once. */
static void test_device_scan_falls_back_to_the_ptx(void **state)
{
    (void)state;
    setenv("FAKE_SASS", "fail", 1);
    gr_config cfg = config("bin/nvcc", "tests/submissions/01-dram-burst/label_cp_async.cu");
    static oc_outcome o;
    char *said = graded(&cfg, 4, &o);
    says(said, "cannot read the compiled kernel's SASS ('cuobjdump -sass kernel");
    says(said, "exited with status 3: cuobjdump fatal : stand-in told to fail): checking its PTX "
               "instead\n");
    free(said);
    says(o.refused, "'cp.async' on line");
    says(o.refused, "of its PTX");
    oc_free(&o);
    char *sass = kept(4, "device.sass");
    assert_null(sass);
    cfg = config("bare/nvcc", "tests/submissions/01-dram-burst/label_cp_async.cu");
    said = graded(&cfg, 5, &o);
    assert_null(strstr(said, "SASS")); /* said once a process */
    free(said);
    says(o.refused, "of its PTX");
    oc_free(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_scan_finds_cuobjdump),
        cmocka_unit_test(test_device_scan_refuses_from_the_sass),
        cmocka_unit_test(test_device_scan_lets_measured_code_run),
        cmocka_unit_test(test_device_scan_falls_back_to_the_ptx),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
