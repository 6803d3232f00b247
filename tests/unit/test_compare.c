/*
 * test_compare.c - tolerant comparison and its description.
 *
 * Build and run:
 *   gcc -std=c11 -Icommon tests/unit/test_compare.c common/compare.c \
 *       $(pkg-config --cflags --libs cmocka) -lm -o test_compare && ./test_compare
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"

static void assert_close(double got, double want, double tol)
{
    if (fabs(got - want) > tol)
        fail_msg("got %.9g, want %.9g (tolerance %g)", got, want, tol);
}

/* Compares one pair; returns whether it passed. */
static int pair_passes(float got, float want, cmp_tolerance tol)
{
    cmp_result res;
    size_t bad = cmp_floats(&got, &want, 1, 1, tol, &res);
    assert_int_equal(res.checked, 1);
    assert_int_equal(res.mismatches, bad);
    return bad == 0;
}

/* Runs cmp_describe into a temporary file and returns what it wrote (static storage). */
static const char *describe_text(const char *name, const cmp_result *res, size_t cols,
                                 cmp_tolerance tol)
{
    static char text[1024];
    FILE *f = tmpfile();
    assert_non_null(f);
    cmp_describe(f, name, res, cols, tol);
    rewind(f);
    size_t len = fread(text, 1, sizeof(text) - 1, f);
    text[len] = '\0';
    fclose(f);
    return text;
}

static void test_floats_equal_arrays(void **state)
{
    (void)state;
    const float want[6] = {1.0f, -2.5f, 0.0f, 1e-30f, 3e30f, -0.0f};
    float got[6];
    memcpy(got, want, sizeof(got));
    got[5] = 0.0f; /* -0 and +0 are equal */
    cmp_result res;
    memset(&res, 0xAB, sizeof(res));

    assert_int_equal(cmp_floats(got, want, 2, 3, (cmp_tolerance){0.0, 0.0}, &res), 0);
    assert_int_equal(res.checked, 6);
    assert_int_equal(res.mismatches, 0);
    assert_int_equal(res.shown, 0);
    assert_close(res.max_abs_err, 0.0, 0.0);
}

static void test_floats_within_tolerance_records_max_error(void **state)
{
    (void)state;
    const float want[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    const float got[4] = {1.0f, 2.125f, 2.75f, 4.0f};
    cmp_result res;

    assert_int_equal(cmp_floats(got, want, 4, 1, (cmp_tolerance){0.25, 0.0}, &res), 0);
    assert_close(res.max_abs_err, 0.25, 0.0);
}

static void test_floats_one_mismatch_has_coordinates(void **state)
{
    (void)state;
    float want[12], got[12];
    for (int i = 0; i < 12; i++)
        want[i] = got[i] = (float)i;
    got[7] = 1.5f;

    cmp_result res;
    assert_int_equal(cmp_floats(got, want, 3, 4, (cmp_tolerance){1e-6, 1e-5}, &res), 1);
    assert_int_equal(res.checked, 12);
    assert_int_equal(res.shown, 1);
    assert_int_equal(res.first[0].index, 7);
    assert_int_equal(res.first[0].row, 1);
    assert_int_equal(res.first[0].col, 3);
    assert_close(res.first[0].got, 1.5, 0.0);
    assert_close(res.first[0].want, 7.0, 0.0);
    assert_close(res.max_abs_err, 5.5, 0.0);
}

static void test_floats_1d_coordinates(void **state)
{
    (void)state;
    const float want[10] = {0};
    float got[10] = {0};
    got[9] = 1.0f;
    cmp_result res;

    assert_int_equal(cmp_floats(got, want, 10, 1, (cmp_tolerance){0.5, 0.0}, &res), 1);
    assert_int_equal(res.first[0].index, 9);
    assert_int_equal(res.first[0].row, 9);
    assert_int_equal(res.first[0].col, 0);
}

static void test_floats_nan_never_passes(void **state)
{
    (void)state;
    const cmp_tolerance huge = {1e30, 1e30};
    assert_false(pair_passes(NAN, 1.0f, huge));
    assert_false(pair_passes(NAN, NAN, huge));
    assert_false(pair_passes(-NAN, NAN, huge));
    assert_false(pair_passes(NAN, INFINITY, huge));
    /* A NaN want is no match for a finite got either. */
    assert_false(pair_passes(1.0f, NAN, huge));
}

static void test_floats_nan_not_in_max_error(void **state)
{
    (void)state;
    const float want[3] = {1.0f, 1.0f, INFINITY};
    const float got[3] = {NAN, 4.0f, INFINITY};
    cmp_result res;

    assert_int_equal(cmp_floats(got, want, 3, 1, (cmp_tolerance){0.0, 0.0}, &res), 2);
    assert_false(isnan(res.max_abs_err));
    assert_close(res.max_abs_err, 3.0, 0.0);
    assert_int_equal(res.first[0].index, 0);
    assert_int_equal(res.first[1].index, 1);
}

static void test_floats_infinity_rules(void **state)
{
    (void)state;
    const cmp_tolerance loose = {1.0, 1.0};
    assert_true(pair_passes(INFINITY, INFINITY, loose));
    assert_true(pair_passes(-INFINITY, -INFINITY, loose));
    assert_false(pair_passes(INFINITY, -INFINITY, loose));
    assert_false(pair_passes(INFINITY, 3e38f, loose));
    assert_false(pair_passes(-INFINITY, 1.0f, (cmp_tolerance){1e300, 1e300}));
    /* rel x |inf| is infinite; a finite got must still not match an infinite want. */
    assert_false(pair_passes(1.0f, INFINITY, loose));
    assert_false(pair_passes(3e38f, INFINITY, loose));
}

static void test_floats_abs_tolerance_edge(void **state)
{
    (void)state;
    const cmp_tolerance tol = {0.25, 0.0};
    assert_true(pair_passes(1.25f, 1.0f, tol));
    assert_true(pair_passes(0.75f, 1.0f, tol));
    assert_false(pair_passes(nextafterf(1.25f, 2.0f), 1.0f, tol));
    assert_false(pair_passes(nextafterf(0.75f, 0.0f), 1.0f, tol));
}

static void test_floats_rel_tolerance_edge(void **state)
{
    (void)state;
    const cmp_tolerance tol = {0.0, 0.5};
    assert_true(pair_passes(6.0f, 4.0f, tol));
    assert_false(pair_passes(nextafterf(6.0f, 7.0f), 4.0f, tol));
    /* The relative part scales with |want|, so a negative want works the same way. */
    assert_true(pair_passes(-2.0f, -4.0f, tol));
    assert_false(pair_passes(nextafterf(-2.0f, 0.0f), -4.0f, tol));
    /* Against zero, a relative tolerance alone demands an exact zero. */
    assert_true(pair_passes(0.0f, 0.0f, tol));
    assert_false(pair_passes(1e-30f, 0.0f, tol));
}

static void test_floats_mixed_tolerance_edge(void **state)
{
    (void)state;
    const cmp_tolerance tol = {0.25, 0.25}; /* 0.25 + 0.25 x 4 = 1.25 at want 4 */
    assert_true(pair_passes(5.25f, 4.0f, tol));
    assert_false(pair_passes(nextafterf(5.25f, 6.0f), 4.0f, tol));
    assert_true(pair_passes(0.25f, 0.0f, tol));
    assert_false(pair_passes(nextafterf(0.25f, 1.0f), 0.0f, tol));
}

static void test_floats_many_mismatches_capped(void **state)
{
    (void)state;
    enum { N = 100 };
    float want[N], got[N];
    size_t expected = 0;
    for (int i = 0; i < N; i++) {
        want[i] = (float)i;
        got[i] = (i % 3 == 1) ? (float)i + 1.0f : (float)i;
        expected += (i % 3 == 1);
    }
    cmp_result res;

    assert_int_equal(cmp_floats(got, want, 10, 10, (cmp_tolerance){0.5, 0.0}, &res), expected);
    assert_int_equal(res.mismatches, 33);
    assert_int_equal(res.checked, N);
    assert_int_equal(res.shown, CMP_MAX_SHOWN);
    for (size_t k = 0; k < CMP_MAX_SHOWN; k++) {
        assert_int_equal(res.first[k].index, 1 + 3 * k);
        assert_int_equal(res.first[k].row, (1 + 3 * k) / 10);
        assert_int_equal(res.first[k].col, (1 + 3 * k) % 10);
    }
}

static void test_floats_empty_array(void **state)
{
    (void)state;
    float x = 1.0f;
    cmp_result res;
    assert_int_equal(cmp_floats(&x, &x, 0, 1, (cmp_tolerance){0.0, 0.0}, &res), 0);
    assert_int_equal(res.checked, 0);
    assert_close(res.max_abs_err, 0.0, 0.0);
}

static void test_floats_result_optional(void **state)
{
    (void)state;
    const float want[3] = {1.0f, 2.0f, 3.0f};
    const float got[3] = {1.0f, 0.0f, 0.0f};
    assert_int_equal(cmp_floats(got, want, 3, 1, (cmp_tolerance){0.0, 0.0}, NULL), 2);
}

static void test_describe_nothing_when_equal(void **state)
{
    (void)state;
    const float v[3] = {1.0f, 2.0f, 3.0f};
    const cmp_tolerance tol = {1e-6, 1e-5};
    cmp_result res;
    cmp_floats(v, v, 3, 1, tol, &res);
    assert_string_equal(describe_text("y", &res, 1, tol), "");
}

static void test_describe_matrix_lines(void **state)
{
    (void)state;
    float want[1000], got[1000];
    for (int i = 0; i < 1000; i++)
        want[i] = got[i] = 0.5f;
    want[7] = 2.5f;
    got[7] = 1.5f;
    got[3 * 100 + 7] = -4.0f;
    got[999] = INFINITY;
    const cmp_tolerance tol = {1e-6, 1e-5};
    cmp_result res;

    assert_int_equal(cmp_floats(got, want, 10, 100, tol, &res), 3);
    assert_string_equal(describe_text("C", &res, 100, tol),
                        "'C': 3 of 1000 elements differ (tolerance 1e-06 + 1e-05 x |want|)\n"
                        "  C[0][7]: got 1.5, want 2.5\n"
                        "  C[3][7]: got -4, want 0.5\n"
                        "  C[9][99]: got inf, want 0.5\n");
}

static void test_describe_vector_and_more(void **state)
{
    (void)state;
    enum { N = 20 };
    float want[N] = {0}, got[N] = {0};
    for (int i = 7; i < N; i += 2)
        got[i] = 0.125f * (float)i;
    const cmp_tolerance tol = {0.5, 0.0};
    cmp_result res;

    /* i = 7, 9, ..., 19: seven elements, each off by more than 0.5. */
    assert_int_equal(cmp_floats(got, want, N, 1, tol, &res), 7);
    assert_string_equal(describe_text("y", &res, 1, tol),
                        "'y': 7 of 20 elements differ (tolerance 0.5 + 0 x |want|)\n"
                        "  y[7]: got 0.875, want 0\n"
                        "  y[9]: got 1.125, want 0\n"
                        "  y[11]: got 1.375, want 0\n"
                        "  y[13]: got 1.625, want 0\n"
                        "  y[15]: got 1.875, want 0\n"
                        "  ... and 2 more\n");
}

static void test_describe_exactly_one_more(void **state)
{
    (void)state;
    enum { N = CMP_MAX_SHOWN + 1 };
    float want[N] = {0}, got[N];
    for (int i = 0; i < N; i++)
        got[i] = (float)(i + 1);
    const cmp_tolerance tol = {0.0, 0.0};
    cmp_result res;

    assert_int_equal(cmp_floats(got, want, N, 1, tol, &res), N);
    assert_string_equal(describe_text("out", &res, 1, tol),
                        "'out': 6 of 6 elements differ (tolerance 0 + 0 x |want|)\n"
                        "  out[0]: got 1, want 0\n"
                        "  out[1]: got 2, want 0\n"
                        "  out[2]: got 3, want 0\n"
                        "  out[3]: got 4, want 0\n"
                        "  out[4]: got 5, want 0\n"
                        "  ... and 1 more\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_floats_equal_arrays),
        cmocka_unit_test(test_floats_within_tolerance_records_max_error),
        cmocka_unit_test(test_floats_one_mismatch_has_coordinates),
        cmocka_unit_test(test_floats_1d_coordinates),
        cmocka_unit_test(test_floats_nan_never_passes),
        cmocka_unit_test(test_floats_nan_not_in_max_error),
        cmocka_unit_test(test_floats_infinity_rules),
        cmocka_unit_test(test_floats_abs_tolerance_edge),
        cmocka_unit_test(test_floats_rel_tolerance_edge),
        cmocka_unit_test(test_floats_mixed_tolerance_edge),
        cmocka_unit_test(test_floats_many_mismatches_capped),
        cmocka_unit_test(test_floats_empty_array),
        cmocka_unit_test(test_floats_result_optional),
        cmocka_unit_test(test_describe_nothing_when_equal),
        cmocka_unit_test(test_describe_matrix_lines),
        cmocka_unit_test(test_describe_vector_and_more),
        cmocka_unit_test(test_describe_exactly_one_more),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
