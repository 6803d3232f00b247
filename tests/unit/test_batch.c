/*
 * test_batch.c - bt_run() end to end without a GPU: the real intake and nvcc, with the grading
 * child replaced by /bin/false, so that every lab that compiles stops at its recording. What is
 * checked is the batch itself: one row per student and lab (graded, missing, refused), the
 * feedback and results files, the exit status, the compile cache shared by identical files,
 * --shard, and --resume grading only what the gradebook lacks. On the GPU, tests/gpu/batch.sh
 * grades for real.
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
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "gradebook.h"

static char dir[64];

static void put(const char *rel, const char *from)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s/subs/%s')\" && cp '%s' '%s/subs/%s'", dir,
             rel, from, dir, rel);
    assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/test-batch-XXXXXX");
    assert_non_null(mkdtemp(dir));
    const char *stub = CL_SOURCE_DIR "/labs/01-dram-burst/kernel.cu";
    put("ann/01.cu", stub);
    put("bob/labs/01-dram-burst/kernel.cu", stub); /* the same file: one compile */
    /* Cyd's does not compile, and nvcc quotes its first line, a Markdown fence; Dee's name
     * holds HTML: neither may reach a page as anything but text. */
    char fenced[128], cmd[512];
    snprintf(fenced, sizeof fenced, "%s/fenced.cu", dir);
    snprintf(cmd, sizeof cmd, "{ echo '````html <b>x</b>'; cat '%s'; } > '%s'",
             CL_SOURCE_DIR "/tests/submissions/01-dram-burst/no_compile.cu", fenced);
    assert_int_equal(system(cmd), 0);
    put("cyd/01.cu", fenced);
    put("dee <i>&amp;/notes.txt", stub); /* nothing for lab 01 */
    char link[128];
    snprintf(link, sizeof link, "%s/subs/eve", dir);
    assert_int_equal(mkdir(link, 0700), 0);
    snprintf(link, sizeof link, "%s/subs/eve/01.cu", dir);
    assert_int_equal(symlink(stub, link), 0);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static int run_on(const char *out, int resume, unsigned shard, unsigned shards, unsigned gpus,
                  unsigned slots)
{
    gr_config cfg = {.root = CL_SOURCE_DIR,
                     .worker = "/bin/false",
                     .nvcc = CL_NVCC_PATH,
                     .arch = "sm_90",
                     .seed = 7,
                     .compile_timeout_s = 300,
                     .run_timeout_s = 10,
                     .confine_recording = 1};
    const lab_spec *labs[1] = {lab_find("01")};
    char subs[128], work[128], outdir[128];
    snprintf(subs, sizeof subs, "%s/subs", dir);
    snprintf(work, sizeof work, "%s/work", dir);
    snprintf(outdir, sizeof outdir, "%s/%s", dir, out);
    mkdir(work, 0700);
    bt_options o = {.submissions = subs,
                    .out = outdir,
                    .resume = resume,
                    .labs = labs,
                    .nlabs = 1,
                    .workdir = work,
                    .shard = shard,
                    .shards = shards,
                    .gpus = gpus,
                    .slots = slots};
    return bt_run(&cfg, &o, NULL);
}

static int run_gpus(const char *out, int resume, unsigned shard, unsigned shards, unsigned gpus)
{
    return run_on(out, resume, shard, shards, gpus, 1);
}

static int run(const char *out, int resume, unsigned shard, unsigned shards)
{
    return run_gpus(out, resume, shard, shards, 1);
}

static void assert_row(const char *out, const char *student, const char *verdict,
                       const char *reason_part)
{
    char path[128], why[256];
    snprintf(path, sizeof path, "%s/%s/gradebook.csv", dir, out);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[65536];
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    char want[256];
    snprintf(want, sizeof want, "\"%s\",\"01\",\"%s\"", student, verdict);
    char *row = strstr(text, want);
    if (!row)
        fail_msg("no row '%s' in:\n%s", want, text);
    char *end = strstr(row, "\"\n");
    if (reason_part && (!strstr(row, reason_part) || strstr(row, reason_part) > end))
        fail_msg("row '%s' does not say '%s'", want, reason_part);
    (void)why;
}

static int rows(const char *out)
{
    char path[128], why[256];
    snprintf(path, sizeof path, "%s/%s/gradebook.csv", dir, out);
    gb_done done;
    FILE *f = gb_open(path, 1, &done, why, sizeof why);
    if (!f)
        fail_msg("%s", why);
    fclose(f);
    int n = (int)done.n;
    gb_done_free(&done);
    return n;
}

static int files_in(const char *out, const char *sub)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s/%s", dir, out, sub);
    DIR *d = opendir(path);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* The text of the feedback file in OUT/feedback/ whose name begins with prefix. */
static const char *feedback_of(const char *out, const char *prefix)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s/feedback", dir, out);
    DIR *d = opendir(path);
    static char text[65536];
    text[0] = '\0';
    for (struct dirent *e; d && (e = readdir(d));)
        if (!strncmp(e->d_name, prefix, strlen(prefix))) {
            char file[600];
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            FILE *f = fopen(file, "r");
            assert_non_null(f);
            text[fread(text, 1, sizeof text - 1, f)] = '\0';
            fclose(f);
        }
    if (d)
        closedir(d);
    if (!text[0])
        fail_msg("no feedback file '%s*' in %s", prefix, path);
    return text;
}

static void test_a_batch_without_a_gpu(void **state)
{
    (void)state;
    assert_int_equal(run("out", 0, 0, 0), 1); /* nothing passes here */
    assert_int_equal(rows("out"), 5);
    assert_row("out", "ann", "FAIL", "did not run");
    assert_row("out", "bob", "FAIL", "did not run");
    assert_row("out", "cyd", "FAIL", "does not compile");
    assert_row("out", "dee <i>&amp;", "MISSING", "no kernel file for lab 01");
    assert_row("out", "eve", "REFUSED", "a link, never followed");
    assert_int_equal(files_in("out", "feedback"), 5);
    assert_int_equal(files_in("out", "results"), 5);
    /* Dee's name as text, Cyd's quoted fence inside a longer one. */
    const char *dee = feedback_of("out", "dee");
    assert_non_null(strstr(dee, "dee &lt;i&gt;&amp;amp;"));
    assert_null(strstr(dee, "<i>"));
    const char *cyd = feedback_of("out", "cyd");
    assert_non_null(strstr(cyd, "````html <b>x</b>"));
    assert_non_null(strstr(cyd, "\n`````text\n"));
    /* Ann's and Bob's file, compiled once; and Cyd's, which nvcc rejected (kept for this run's
     * use alone: grade.c from_cache). */
    assert_int_equal(files_in("out", ".compiled"), 2);
    /* Without --resume, the gradebook is never written over. */
    assert_int_equal(run("out", 0, 0, 0), 2);
}

static void test_shards_and_resume(void **state)
{
    (void)state;
    assert_int_equal(run("sharded", 0, 1, 2), 1); /* bob and dee */
    assert_int_equal(rows("sharded"), 2);
    assert_row("sharded", "bob", "FAIL", NULL);
    assert_row("sharded", "dee <i>&amp;", "MISSING", NULL);
    /* The rest, resumed into the same gradebook: only the three missing rows are graded. */
    assert_int_equal(run("sharded", 1, 0, 0), 1);
    assert_int_equal(rows("sharded"), 5);
    assert_row("sharded", "ann", "FAIL", NULL);
    /* Resumed once more, with everything graded: nothing to do, nothing added. */
    assert_int_equal(run("sharded", 1, 0, 0), 0);
    assert_int_equal(rows("sharded"), 5);
}

/* Two GPUs: a worker each, with a share of the batch, joined into one gradebook. */
static void test_a_worker_per_gpu(void **state)
{
    (void)state;
    assert_int_equal(run_gpus("two", 0, 0, 0, 2), 1);
    assert_int_equal(rows("two"), 5);
    assert_row("two", "ann", "FAIL", "did not run");
    assert_row("two", "dee <i>&amp;", "MISSING", NULL);
    assert_row("two", "eve", "REFUSED", NULL);
    assert_int_equal(files_in("two", "feedback"), 5);
    assert_int_equal(files_in("two", "results"), 5);
    assert_int_equal(run_gpus("two", 0, 0, 0, 2), 2); /* exists: needs --resume */
    assert_int_equal(run_gpus("two", 1, 0, 0, 2), 0); /* resumed: nothing left to grade */
    assert_int_equal(rows("two"), 5);
}

/* Rows side by side (pool.h), three at once: the same rows, files and resume as one after
 * another. */
static void test_rows_side_by_side(void **state)
{
    (void)state;
    assert_int_equal(run_on("side", 0, 0, 0, 1, 3), 1);
    assert_int_equal(rows("side"), 5);
    assert_row("side", "ann", "FAIL", "did not run");
    assert_row("side", "bob", "FAIL", "did not run");
    assert_row("side", "cyd", "FAIL", "does not compile");
    assert_row("side", "dee <i>&amp;", "MISSING", "no kernel file for lab 01");
    assert_row("side", "eve", "REFUSED", "a link, never followed");
    assert_int_equal(files_in("side", "feedback"), 5);
    assert_int_equal(files_in("side", "results"), 5);
    assert_int_equal(run_on("side", 0, 0, 0, 1, 3), 2); /* exists: needs --resume */
    assert_int_equal(run_on("side", 1, 0, 0, 1, 3), 0); /* resumed: nothing left to grade */
    assert_int_equal(rows("side"), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_batch_without_a_gpu),
        cmocka_unit_test(test_shards_and_resume),
        cmocka_unit_test(test_a_worker_per_gpu),
        cmocka_unit_test(test_rows_side_by_side),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
