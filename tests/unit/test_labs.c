/*
 * test_labs.c - the table of labs (lab_find), lab_load_output, and lab 01's correctness check
 * against outputs written here as the grading child would write them.
 *
 * Build and run (the project CMake builds it as test_labs, linked with cl_grader):
 *   cmake --build build --target test_labs && build/test_labs
 *
 * Lab 01's y.bin is the real size (LAB01_N floats, 201 MB): the check refuses any other. It is
 * written once, in a mkdtemp() folder under /tmp; each test patches a few elements and its
 * teardown puts them back, and the folder is removed at the end. Peak memory is about 600 MB.
 *
 * Lab 04's check is tried on a product computed here in float, one term after another (as a
 * naive kernel adds them): it must pass within the tolerance, and one missing term must not.
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, truncate */

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "lab.h"
#include "lab01_data.h"
#include "lab03_data.h"
#include "lab04_data.h"
#include "lab05_data.h"
#include "lab06_data.h"
#include "salt.h"
#include "seeded.h"
#include "lab07_data.h"

#define SEED UINT64_C(20240917)
/* The task's seed and the data seed of one run's salt, as the grader checks a replay. */
#define SEEDS ((sd_seeds){SEED, sd_data_seed(SEED, 1), 0})
#define Y_BYTES (LAB01_N * sizeof(float))
#define MAX_PATCHED 8

static char workdir[64];   /* holds y.bin, the reference output */
static char otherdir[128]; /* workdir/other: for malformed outputs */
static float *reference;   /* y as the CPU reference computes it for SEEDS */
static size_t patched[MAX_PATCHED];
static size_t npatched;

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("'%s' is not in \"%s\"", part, text);
}

static void path_in(char *buf, size_t size, const char *dir, const char *name)
{
    int n = snprintf(buf, size, "%s/%s", dir, name);
    assert_true(n > 0 && (size_t)n < size);
}

static void write_file(const char *dir, const char *name, const void *data, size_t bytes)
{
    char path[256];
    path_in(path, sizeof path, dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, bytes, f), bytes);
    assert_int_equal(fclose(f), 0);
}

/* Overwrites y[index] in workdir/y.bin with bits; the teardown restores it. */
static void patch_y(size_t index, uint32_t bits)
{
    char path[256];
    path_in(path, sizeof path, workdir, "y.bin");
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, (long)(index * sizeof(float)), SEEK_SET), 0);
    assert_int_equal(fwrite(&bits, sizeof bits, 1, f), 1);
    assert_int_equal(fclose(f), 0);
    assert_true(npatched < MAX_PATCHED);
    patched[npatched++] = index;
}

static uint32_t bits_of(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

static int restore_patches(void **state)
{
    (void)state;
    for (size_t i = 0; i < npatched; i++) {
        char path[256];
        path_in(path, sizeof path, workdir, "y.bin");
        FILE *f = fopen(path, "r+b");
        if (!f || fseek(f, (long)(patched[i] * sizeof(float)), SEEK_SET) != 0 ||
            fwrite(&reference[patched[i]], sizeof(float), 1, f) != 1 || fclose(f) != 0)
            return -1;
    }
    npatched = 0;
    return 0;
}

/* y_reference for SEEDS, computed as the grader's spec says: x from the data seed, times a
 * from the task's. */
static int make_workdir(void **state)
{
    (void)state;
    strcpy(workdir, "/tmp/test_labs-XXXXXX");
    if (!mkdtemp(workdir))
        return -1;
    snprintf(otherdir, sizeof otherdir, "%s/other", workdir);
    if (mkdir(otherdir, 0700) != 0)
        return -1;
    reference = malloc(Y_BYTES);
    if (!reference)
        return -1;
    lab01_fill_x(SEEDS.data, reference, LAB01_N);
    const float a = lab01_factor(SEEDS.task);
    for (size_t i = 0; i < LAB01_N; ++i)
        reference[i] = a * reference[i];
    char path[256];
    snprintf(path, sizeof path, "%s/y.bin", workdir);
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t wrote = fwrite(reference, 1, Y_BYTES, f);
    return fclose(f) == 0 && wrote == Y_BYTES ? 0 : -1;
}

static void remove_in(const char *dir, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    remove(path);
}

static int remove_workdir(void **state)
{
    (void)state;
    static const char *const files[] = {"y.bin", "a.bin", "empty.bin"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        remove_in(workdir, files[i]);
        remove_in(otherdir, files[i]);
    }
    rmdir(otherdir);
    rmdir(workdir);
    free(reference);
    reference = NULL;
    return 0;
}

static lab_check check_lab01(const char *dir, sd_seeds seeds, int want_rc)
{
    const lab_spec *s = lab_find("01");
    assert_non_null(s);
    lab_check c;
    memset(&c, 0xAB, sizeof c);
    assert_int_equal(s->check(dir, seeds, &s->shapes->graded, &c), want_rc);
    return c;
}

/* ---- lab_find ---- */

/* ---- lab_reference ---- */

static int made;

static void *slow_reference(sd_seeds seeds, const cl_shape *shape)
{
    uint64_t seed = seeds.task + seeds.data;
    __atomic_add_fetch(&made, 1, __ATOMIC_SEQ_CST);
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL); /* long enough for the other thread to ask meanwhile */
    uint64_t *v = malloc(sizeof *v);
    if (v)
        *v = seed * 1000 + (uint64_t)shape->d[0];
    return v;
}

static void *ask_reference(void *arg)
{
    const cl_shape *shape = arg;
    return (void *)lab_reference(slow_reference, (sd_seeds){7, 0, 0}, shape);
}

static void test_reference_is_made_once(void **state)
{
    (void)state;
    made = 0;
    cl_shape small = {{3}}, other = {{4}};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, ask_reference, &small), 0);
    struct timespec ts = {0, 50 * 1000 * 1000};
    nanosleep(&ts, NULL); /* the thread is making it now: this call waits for it */
    const uint64_t *a = lab_reference(slow_reference, (sd_seeds){7, 0, 0}, &small);
    void *b;
    pthread_join(t, &b);
    assert_non_null(a);
    assert_ptr_equal(a, b);
    assert_true(*a == 7003);
    assert_int_equal(made, 1);
    /* Another seed or another shape is another reference. */
    const uint64_t *c = lab_reference(slow_reference, (sd_seeds){7, 1, 0}, &small);
    assert_true(*c == 8003); /* another data seed: another run's arrays */
    const uint64_t *d = lab_reference(slow_reference, (sd_seeds){7, 0, 0}, &other);
    assert_true(*d == 7004);
    assert_int_equal(made, 3);
    assert_true(*(const uint64_t *)lab_reference(slow_reference, (sd_seeds){7, 0, 0}, &small) ==
                7003);
    assert_int_equal(made, 3);
}

static void test_find_by_number_and_name(void **state)
{
    (void)state;
    const lab_spec *s = lab_find("01");
    assert_non_null(s);
    assert_string_equal(s->id, "01");
    assert_string_equal(s->slug, "dram-burst");
    assert_ptr_equal(lab_find("1"), s);
    assert_ptr_equal(lab_find("dram-burst"), s);
    assert_ptr_equal(lab_find("01-dram-burst"), s);
}

static void test_find_unknown_is_null(void **state)
{
    (void)state;
    static const char *const unknown[] = {
        "7x", "", "99", "0", "1x", "dram", "DRAM-BURST", "01-", "02-dram-burst", "dram-burst-01"};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        if (lab_find(unknown[i]))
            fail_msg("lab_find(\"%s\") found a lab", unknown[i]);
}

static void test_table_lists_lab01(void **state)
{
    (void)state;
    assert_true(lab_count >= 1);
    assert_ptr_equal(lab_table[0], lab_find("01"));
    for (size_t i = 0; i < lab_count; ++i) {
        const lab_spec *s = lab_table[i];
        assert_ptr_equal(lab_find(s->id), s);
        assert_ptr_equal(lab_find(s->slug), s);
        assert_non_null(s->check);
        assert_true(s->min_load_eff > 0 && s->min_load_eff <= 1);
        assert_true(s->min_store_eff > 0 && s->min_store_eff <= 1);
        assert_int_equal(s->points_correct + s->points_load + s->points_store + s->points_speed,
                         100);
        /* A speed gate names its baseline, asks for a real speed-up, and says what to do. */
        if (s->points_speed > 0) {
            assert_true(s->min_speedup > 1.0);
            assert_non_null(s->baseline_text);
            assert_non_null(s->speed_hint);
        } else {
            assert_true(s->min_speedup == 0.0);
        }
    }
}

/* ---- lab_load_output ---- */

static void test_load_output_reads_exact_size(void **state)
{
    (void)state;
    const unsigned char data[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    write_file(otherdir, "a.bin", data, sizeof data);
    char why[128] = "untouched";
    unsigned char *got = lab_load_output(otherdir, "a", sizeof data, why, sizeof why);
    assert_non_null(got);
    assert_memory_equal(got, data, sizeof data);
    free(got);
}

static void test_load_output_empty_file(void **state)
{
    (void)state;
    write_file(otherdir, "empty.bin", "", 0);
    char why[128] = "";
    void *got = lab_load_output(otherdir, "empty", 0, why, sizeof why);
    assert_non_null(got);
    free(got);
}

static void test_load_output_wrong_size(void **state)
{
    (void)state;
    const unsigned char data[12] = {0};
    write_file(otherdir, "a.bin", data, sizeof data);
    char why[128] = "";
    assert_null(lab_load_output(otherdir, "a", 16, why, sizeof why));
    assert_string_equal(why, "'a' holds 12 bytes, expected 16");
    assert_null(lab_load_output(otherdir, "a", 8, why, sizeof why));
    assert_string_equal(why, "'a' holds 12 bytes, expected 8");
}

static void test_load_output_missing(void **state)
{
    (void)state;
    char why[128] = "";
    assert_null(lab_load_output(otherdir, "nothing", 4, why, sizeof why));
    assert_string_equal(why, "the kernel's run saved no 'nothing'");
}

/* ---- lab 01's check ---- */

static void test_lab01_check_correct_output(void **state)
{
    (void)state;
    lab_check c = check_lab01(workdir, SEEDS, 0);
    assert_int_equal(c.passed, 1);
    assert_int_equal(c.checked, LAB01_N);
    assert_int_equal(c.mismatches, 0);
    assert_int_equal(c.unwritten, 0);
    assert_contains(c.summary, "y = a*x for 50331655 floats");
    assert_string_equal(c.details, "");
}

static void test_lab01_check_within_tolerance(void **state)
{
    (void)state;
    /* One ulp off, as a fused multiply or another rounding could give: still right. */
    patch_y(3, bits_of(nextafterf(reference[3], INFINITY)));
    lab_check c = check_lab01(workdir, SEEDS, 0);
    assert_int_equal(c.passed, 1);
    assert_int_equal(c.mismatches, 0);
}

static void test_lab01_check_one_wrong_element(void **state)
{
    (void)state;
    const size_t i = 12345678;
    patch_y(i, bits_of(reference[i] + 1.0f));
    lab_check c = check_lab01(workdir, SEEDS, 0);
    assert_int_equal(c.passed, 0);
    assert_int_equal(c.checked, LAB01_N);
    assert_int_equal(c.mismatches, 1);
    assert_int_equal(c.unwritten, 0);
    assert_contains(c.details, "1 of 50331655 elements differ");
    assert_contains(c.details, "y[12345678]: got ");
}

static void test_lab01_check_last_element_wrong(void **state)
{
    (void)state;
    /* The last element is where an off-by-one grid stops short. */
    patch_y(LAB01_N - 1, bits_of(reference[LAB01_N - 1] + 1.0f));
    lab_check c = check_lab01(workdir, SEEDS, 0);
    assert_int_equal(c.passed, 0);
    assert_int_equal(c.mismatches, 1);
    assert_contains(c.details, "y[50331654]");
}

static void test_lab01_check_counts_unwritten(void **state)
{
    (void)state;
    patch_y(0, lab_poison());
    patch_y(1000, lab_poison());
    patch_y(LAB01_N - 1, lab_poison());
    patch_y(77, bits_of(reference[77] * 2.0f + 1.0f)); /* wrong, but written */
    lab_check c = check_lab01(workdir, SEEDS, 0);
    assert_int_equal(c.passed, 0);
    assert_int_equal(c.mismatches, 4);
    assert_int_equal(c.unwritten, 3);
    assert_contains(c.details, "3 of them were never written");
    assert_contains(c.details, "y[0]");
    assert_contains(c.details, "y[77]");
}

/* The run's poison is what counts as never written: the all-ones word of old is a NaN a
 * kernel wrote, wrong like any other. */
static void test_lab01_check_counts_the_runs_poison(void **state)
{
    (void)state;
    lab_set_poison(sl_poison(0x5a5a5a5au));
    patch_y(5, sl_poison(0x5a5a5a5au));
    patch_y(6, 0xffffffffu);
    patch_y(7, SL_DEFAULT_POISON); /* another run's poison */
    lab_check c = check_lab01(workdir, SEEDS, 0);
    lab_set_poison(0);
    assert_int_equal(lab_poison(), SL_DEFAULT_POISON);
    assert_int_equal(c.passed, 0);
    assert_int_equal(c.mismatches, 3);
    assert_int_equal(c.unwritten, 1);
    assert_contains(c.details, "1 of them were never written");
}

static void test_lab01_check_uses_both_seeds(void **state)
{
    (void)state;
    /* The same file against another run's arrays (another salt): nearly every element
     * differs. */
    lab_check c = check_lab01(workdir, (sd_seeds){SEED, sd_data_seed(SEED, 2), 0}, 0);
    assert_int_equal(c.passed, 0);
    assert_true(c.mismatches > LAB01_N - LAB01_N / 1000);
    assert_int_equal(c.unwritten, 0);
    /* The same arrays with another task's factor: every element differs too. */
    c = check_lab01(workdir, (sd_seeds){SEED + 1, SEEDS.data, 0}, 0);
    assert_int_equal(c.passed, 0);
    assert_true(c.mismatches > LAB01_N - LAB01_N / 1000);
}

static void test_lab01_check_wrong_size(void **state)
{
    (void)state;
    /* One float short, as a kernel launched for n - 1 elements would save. A sparse file. */
    char path[256];
    path_in(path, sizeof path, otherdir, "y.bin");
    write_file(otherdir, "y.bin", "", 0);
    assert_int_equal(truncate(path, (off_t)(Y_BYTES - sizeof(float))), 0);
    lab_check c = check_lab01(otherdir, SEEDS, -1);
    assert_int_equal(c.passed, 0);
    assert_string_equal(c.details, "'y' holds 201326616 bytes, expected 201326620");
    remove(path);
}

static void test_lab01_check_missing_output(void **state)
{
    (void)state;
    remove_in(otherdir, "y.bin");
    lab_check c = check_lab01(otherdir, SEEDS, -1);
    assert_int_equal(c.passed, 0);
    assert_int_equal(c.checked, 0);
    assert_string_equal(c.details, "the kernel's run saved no 'y'");
}

/* ---- lab 03 ---- */

/* The column-major launcher has a matrix of its own (no two inputs equal): its row sums are
 * a_cm's, and a's would be wrong. At a check shape, with every output as a right run saves it. */
static void test_lab03_check_column_major_matrix_is_its_own(void **state)
{
    (void)state;
    const lab_spec *s = lab_find("03");
    assert_non_null(s);
    const cl_shape shape = {{33, 65}};
    const size_t rows = 33, cols = 65, n = rows * cols;
    float a[33 * 65], b[33 * 65], a_cm[33 * 65], c[33 * 65];
    float sums[33], sums_a[33], sums_cm[33];
    lab03_fill(SEEDS.data, a, b, a_cm, (int)rows, (int)cols);
    const float alpha = lab03_alpha(SEEDS.task);
    size_t same = 0;
    for (size_t i = 0; i < n; ++i) {
        same += a[i] == a_cm[i] || a[i] == b[i] || b[i] == a_cm[i];
        c[i] = alpha * a[i] + b[i];
    }
    assert_int_equal(same, 0);
    for (size_t r = 0; r < rows; ++r) {
        double x = 0, y = 0;
        for (size_t k = 0; k < cols; ++k) {
            x += a[r * cols + k];
            y += a_cm[r * cols + k];
        }
        sums[r] = sums_a[r] = (float)x;
        sums_cm[r] = (float)y;
    }
    write_file(otherdir, "sums.bin", sums, sizeof sums);
    write_file(otherdir, "c.bin", c, sizeof c);
    write_file(otherdir, "sums_cm.bin", sums_cm, sizeof sums_cm);
    lab_check got;
    assert_int_equal(s->check(otherdir, SEEDS, &shape, &got), 0);
    if (!got.passed)
        fail_msg("right outputs fail the check: %s", got.details);
    write_file(otherdir, "sums_cm.bin", sums_a, sizeof sums_a); /* a's sums, as before */
    assert_int_equal(s->check(otherdir, SEEDS, &shape, &got), 0);
    assert_int_equal(got.passed, 0);
    assert_contains(got.details, "sums_cm");
    remove_in(otherdir, "sums.bin");
    remove_in(otherdir, "c.bin");
    remove_in(otherdir, "sums_cm.bin");
}

/* ---- lab 04 ---- */

static void test_lab04_reference_by_hand(void **state)
{
    (void)state;
    /* [1 2 3; 4 5 6] times [7 8; 9 10; 11 12] = [58 64; 139 154] */
    const float a[] = {1, 2, 3, 4, 5, 6}, b[] = {7, 8, 9, 10, 11, 12};
    float c[4];
    assert_int_equal(lab04_reference(a, b, c, 2, 2, 3), 0);
    assert_true(c[0] == 58 && c[1] == 64 && c[2] == 139 && c[3] == 154);
}

static lab_spec const *lab04(void)
{
    const lab_spec *s = lab_find("04");
    assert_non_null(s);
    return s;
}

static void test_lab04_check_float_sums_and_a_missing_term(void **state)
{
    (void)state;
    const int m = LAB04_M, n = LAB04_N, k = LAB04_K;
    float *a = malloc((size_t)m * k * sizeof(float)), *b = malloc((size_t)k * n * sizeof(float));
    float *c = malloc((size_t)m * n * sizeof(float));
    assert_true(a && b && c);
    lab04_fill(SEEDS.data, a, b, m, n, k);
    /* Distinct values of magnitude in [1, 2), as the lab promises, none of a's one of b's:
     * each is 1 + j / 2^23, j below m k in a, from m k on in b. */
    for (size_t i = 0; i < (size_t)m * k; i += 9973)
        assert_true(fabsf(a[i]) >= 1.0f && fabsf(a[i]) < 1.0f + (float)m * k * 0x1p-23f);
    for (size_t i = 0; i < (size_t)k * n; i += 9973)
        assert_true(fabsf(b[i]) >= 1.0f + (float)m * k * 0x1p-23f && fabsf(b[i]) < 2.0f);
    for (size_t r = 0; r < (size_t)m; ++r)
        for (size_t col = 0; col < (size_t)n; ++col) {
            float sum = 0.0f;
            for (size_t i = 0; i < (size_t)k; ++i)
                sum += a[r * k + i] * b[i * n + col];
            c[r * n + col] = sum;
        }
    write_file(otherdir, "c.bin", c, (size_t)m * n * sizeof(float));
    lab_check got;
    assert_int_equal(lab04()->check(otherdir, SEEDS, &lab04()->shapes->graded, &got), 0);
    if (!got.passed)
        fail_msg("float sums fail the check: %s", got.details);
    assert_int_equal(got.checked, (size_t)m * n);

    /* The last element without its last term: what an edge test that stops one short gives. */
    size_t last = (size_t)m * n - 1;
    c[last] -= a[(size_t)m * k - 1] * b[(size_t)k * n - 1];
    write_file(otherdir, "c.bin", c, (size_t)m * n * sizeof(float));
    assert_int_equal(lab04()->check(otherdir, SEEDS, &lab04()->shapes->graded, &got), 0);
    assert_int_equal(got.passed, 0);
    assert_int_equal(got.mismatches, 1);
    assert_contains(got.details, "c[1319][1191]");
    remove_in(otherdir, "c.bin");
    free(a);
    free(b);
    free(c);
}

/* ---- lab 05 ---- */

static void test_lab05_check_product_and_transpose(void **state)
{
    (void)state;
    const int m = LAB05_M, n = LAB05_N, k = LAB05_K, rows = LAB05_ROWS, cols = LAB05_COLS;
    float *a = malloc((size_t)k * m * sizeof(float)), *at = malloc((size_t)m * k * sizeof(float));
    float *b = malloc((size_t)k * n * sizeof(float)),
          *t = malloc((size_t)rows * cols * sizeof(float));
    float *c = malloc((size_t)m * n * sizeof(float)),
          *tt = malloc((size_t)rows * cols * sizeof(float));
    assert_true(a && at && b && t && c && tt);
    lab05_fill(SEEDS.data, a, b, t, m, n, k, rows, cols);
    /* No value in two inputs: a below k m (1 + j / 2^23), b above, t twice as large. */
    const float split = 1.0f + (float)k * m * 0x1p-23f;
    for (size_t i = 0; i < (size_t)k * m; i += 997)
        assert_true(fabsf(a[i]) >= 1.0f && fabsf(a[i]) < split);
    for (size_t i = 0; i < (size_t)k * n; i += 997)
        assert_true(fabsf(b[i]) >= split && fabsf(b[i]) < 2.0f);
    for (size_t i = 0; i < (size_t)rows * cols; i += 997)
        assert_true(fabsf(t[i]) >= 2.0f && fabsf(t[i]) < 4.0f);
    for (size_t i = 0; i < (size_t)k; ++i)
        for (size_t r = 0; r < (size_t)m; ++r)
            at[r * k + i] = a[i * m + r];
    assert_int_equal(lab04_reference(at, b, c, m, n, k), 0);
    for (size_t r = 0; r < (size_t)rows; ++r)
        for (size_t col = 0; col < (size_t)cols; ++col)
            tt[col * rows + r] = t[r * cols + col];
    write_file(otherdir, "c.bin", c, (size_t)m * n * sizeof(float));
    write_file(otherdir, "t_out.bin", tt, (size_t)rows * cols * 4);
    const lab_spec *s = lab_find("05");
    assert_non_null(s);
    lab_check got;
    assert_int_equal(s->check(otherdir, SEEDS, &s->shapes->graded, &got), 0);
    if (!got.passed)
        fail_msg("the references fail their own check: %s", got.details);
    assert_int_equal(got.checked, (size_t)m * n + (size_t)rows * cols);

    /* Two elements of the transpose exchanged: the transpose is compared exactly. */
    float keep = tt[1];
    tt[1] = tt[0];
    tt[0] = keep;
    write_file(otherdir, "t_out.bin", tt, (size_t)rows * cols * 4);
    assert_int_equal(s->check(otherdir, SEEDS, &s->shapes->graded, &got), 0);
    assert_int_equal(got.passed, 0);
    assert_int_equal(got.mismatches, 2);
    assert_contains(got.details, "out[0][0]");
    remove_in(otherdir, "c.bin");
    remove_in(otherdir, "t_out.bin");
    free(a);
    free(at);
    free(b);
    free(t);
    free(c);
    free(tt);
}

/* ---- lab 06 ---- */

/* The input, filled in parts by several threads, is the definition's: field f of particle i is
 * value i of the generator of stream 1 + f (an odd count, so that the parts are uneven). */
static void test_lab06_fill_is_the_generators(void **state)
{
    (void)state;
    static const float lo[LAB06_FIELDS] = {-100, -100, -100, -10, -10, -10, 1, -1};
    static const float hi[LAB06_FIELDS] = {100, 100, 100, 10, 10, 10, 10, 1};
    const size_t n = 300007;
    float *aos = malloc(n * LAB06_FIELDS * sizeof(float));
    assert_non_null(aos);
    lab06_fill(SEED, aos, n);
    size_t wrong = 0;
    for (int f = 0; f < LAB06_FIELDS; ++f) {
        sd_rng rng;
        sd_init(&rng, SEED, 1 + (uint64_t)f);
        for (size_t i = 0; i < n; ++i) {
            float want = sd_next_float(&rng, lo[f], hi[f]);
            wrong += memcmp(&aos[i * LAB06_FIELDS + f], &want, sizeof want) != 0;
        }
    }
    free(aos);
    assert_int_equal(wrong, 0);
}

/* At the traced size (a shape the check is also run at): the graded one is 384 MB. */
static void test_lab06_check_swapped_and_unwritten_fields(void **state)
{
    (void)state;
    const size_t n = LAB06_N_TRACED, count = n * LAB06_FIELDS;
    float *aos = malloc(count * sizeof(float));
    assert_non_null(aos);
    lab06_fill(SEEDS.data, aos, n);
    lab06_reference(aos, n, LAB06_DATA_STEPS, LAB06_DT, LAB06_G);
    write_file(otherdir, "aos.bin", aos, count * sizeof(float));
    const lab_spec *s = lab_find("06");
    assert_non_null(s);
    lab_check got;
    assert_int_equal(s->check(otherdir, SEEDS, &s->shapes->traced, &got), 0);
    assert_int_equal(got.passed, 1);
    assert_string_equal(got.details, "");

    /* vx and vy of particle 7 exchanged, vz of the last particle never written. */
    float keep = aos[7 * 8 + 3];
    aos[7 * 8 + 3] = aos[7 * 8 + 4];
    aos[7 * 8 + 4] = keep;
    const uint32_t poison = lab_poison();
    memcpy(&aos[count - 3], &poison, sizeof poison);
    write_file(otherdir, "aos.bin", aos, count * sizeof(float));
    assert_int_equal(s->check(otherdir, SEEDS, &s->shapes->traced, &got), 0);
    assert_int_equal(got.passed, 0);
    assert_int_equal(got.mismatches, 3);
    assert_int_equal(got.unwritten, 1);
    assert_contains(got.details, "aos[7][3]");
    assert_contains(got.details, "1 of them were never written");
    remove_in(otherdir, "aos.bin");
    free(aos);
}

/* ---- lab 07 ---- */

/* Writes out_raw.bin and pitch.bin as the child would: the right image at the given pitch, the
 * padding poisoned, then poke (when >= 0) one byte of row 5's padding. */
static void write_lab07(size_t pitch, long poke)
{
    const size_t w = LAB07_WIDTH, h = LAB07_HEIGHT_TRACED; /* the graded image is 160 MB */
    float *in = malloc(w * h * sizeof(float));
    unsigned char *raw = malloc(pitch * h);
    assert_true(in && raw);
    float gain, bias;
    lab07_fill(SEEDS.data, in, LAB07_WIDTH, LAB07_HEIGHT_TRACED);
    lab07_scalars(SEEDS.task, &gain, &bias);
    const uint32_t poison = lab_poison();
    for (size_t i = 0; i < pitch * h; i += sizeof poison) /* pitches are whole floats */
        memcpy(raw + i, &poison, sizeof poison);
    for (size_t r = 0; r < h; ++r)
        for (size_t c = 0; c < w; ++c) {
            float v = lab07_adjust_pixel(in[r * w + c], gain, bias);
            memcpy(raw + r * pitch + c * sizeof(float), &v, sizeof v);
        }
    if (poke >= 0)
        raw[5 * pitch + (size_t)poke] ^= 0xff; /* no longer the poison */
    write_file(otherdir, "out_raw.bin", raw, pitch * h);
    write_file(otherdir, "pitch.bin", &pitch, sizeof pitch);
    free(in);
    free(raw);
}

static void test_lab07_check_pitched_and_packed(void **state)
{
    (void)state;
    const lab_spec *s = lab_find("07");
    assert_non_null(s);
    lab_check c;
    write_lab07(4096, -1); /* cudaMallocPitch's pitch on the H200 */
    assert_int_equal(s->check(otherdir, SEEDS, &s->shapes->traced, &c), 0);
    if (!c.passed)
        fail_msg("a right pitched image fails: %s", c.details);
    assert_contains(c.summary, "pitch of 4096 bytes");
    write_lab07(LAB07_WIDTH * sizeof(float), -1); /* packed rows: no padding at all */
    assert_int_equal(s->check(otherdir, SEEDS, &s->shapes->traced, &c), 0);
    assert_int_equal(c.passed, 1);
    remove_in(otherdir, "out_raw.bin");
    remove_in(otherdir, "pitch.bin");
}

static void test_lab07_check_names_a_padding_write(void **state)
{
    (void)state;
    const lab_spec *s = lab_find("07");
    lab_check c;
    write_lab07(4096, 4004 + 17); /* one byte of row 5's padding */
    assert_int_equal(s->check(otherdir, SEEDS, &s->shapes->traced, &c), 0);
    assert_int_equal(c.passed, 0);
    assert_int_equal(c.mismatches, 1);
    assert_contains(c.details, "wrote into the padding: 1 bytes in 1 rows, the first at row 5, "
                               "byte 4021");
    assert_contains(c.hint, "c < width");
    remove_in(otherdir, "out_raw.bin");
    remove_in(otherdir, "pitch.bin");
}

static void test_lab07_check_refuses_an_impossible_pitch(void **state)
{
    (void)state;
    const lab_spec *s = lab_find("07");
    size_t pitch = 4000; /* less than a row */
    write_file(otherdir, "pitch.bin", &pitch, sizeof pitch);
    lab_check c;
    assert_int_equal(s->check(otherdir, SEEDS, &s->shapes->traced, &c), -1);
    assert_contains(c.details, "the pitch 4000 is impossible");
    pitch = lab07_max_pitch(LAB07_WIDTH) +
            4; /* larger than any real alignment: refused before any read */
    write_file(otherdir, "pitch.bin", &pitch, sizeof pitch);
    assert_int_equal(s->check(otherdir, SEEDS, &s->shapes->traced, &c), -1);
    assert_contains(c.details, "is impossible");
    remove_in(otherdir, "pitch.bin");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find_by_number_and_name),
        cmocka_unit_test(test_find_unknown_is_null),
        cmocka_unit_test(test_table_lists_lab01),
        cmocka_unit_test(test_load_output_reads_exact_size),
        cmocka_unit_test(test_load_output_empty_file),
        cmocka_unit_test(test_load_output_wrong_size),
        cmocka_unit_test(test_load_output_missing),
        cmocka_unit_test_teardown(test_lab01_check_correct_output, restore_patches),
        cmocka_unit_test_teardown(test_lab01_check_within_tolerance, restore_patches),
        cmocka_unit_test_teardown(test_lab01_check_one_wrong_element, restore_patches),
        cmocka_unit_test_teardown(test_lab01_check_last_element_wrong, restore_patches),
        cmocka_unit_test_teardown(test_lab01_check_counts_unwritten, restore_patches),
        cmocka_unit_test_teardown(test_lab01_check_counts_the_runs_poison, restore_patches),
        cmocka_unit_test_teardown(test_lab01_check_uses_both_seeds, restore_patches),
        cmocka_unit_test(test_lab01_check_wrong_size),
        cmocka_unit_test(test_lab01_check_missing_output),
        cmocka_unit_test(test_lab03_check_column_major_matrix_is_its_own),
        cmocka_unit_test(test_lab04_reference_by_hand),
        cmocka_unit_test(test_lab04_check_float_sums_and_a_missing_term),
        cmocka_unit_test(test_lab05_check_product_and_transpose),
        cmocka_unit_test(test_lab06_fill_is_the_generators),
        cmocka_unit_test(test_lab06_check_swapped_and_unwritten_fields),
        cmocka_unit_test(test_lab07_check_pitched_and_packed),
        cmocka_unit_test(test_reference_is_made_once),
        cmocka_unit_test(test_lab07_check_names_a_padding_write),
        cmocka_unit_test(test_lab07_check_refuses_an_impossible_pitch),
    };
    return cmocka_run_group_tests(tests, make_workdir, remove_workdir);
}
