/*
 * test_salt.c - what a grading run draws afresh: its salts and its poison (salt.h), and the
 * data seed the salts give (seeded.h).
 *
 * Build and run:
 *   gcc -std=c11 -Icommon tests/unit/test_salt.c common/salt.c common/seeded.c \
 *       common/parallel.c $(pkg-config --cflags --libs cmocka) -lm -pthread && ./a.out
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "salt.h"
#include "seeded.h"

static float as_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Every poison is a NaN, never the old all-ones word nor a NaN that hardware makes itself. */
static void test_salt_poison_is_a_rare_nan(void **state)
{
    (void)state;
    static const uint32_t bits[] = {0,          1,          0x003fffff, 0xffffffff, 0x7fffffff,
                                    0x80000000, 0xffc00000, 0x12345678, 0xdeadbeef, 0x00400000};
    for (size_t i = 0; i < sizeof bits / sizeof bits[0]; ++i) {
        uint32_t p = sl_poison(bits[i]);
        assert_true(isnan(as_float(p)));
        assert_true(sl_is_poison(p));
        assert_true(p != 0xffffffffu && p != 0x7fffffffu);
        assert_true(p != 0x7fc00000u && p != 0xffc00000u);
    }
    assert_true(sl_poison(0) == SL_DEFAULT_POISON);
    /* The sign and the payload are the random bits'. */
    assert_true(sl_poison(0x80012345u) == 0xffc12345u);
    assert_false(sl_is_poison(0xffffffffu));
    assert_false(sl_is_poison(0x3f800000u)); /* 1.0f */
    assert_false(sl_is_poison(0x7f800001u)); /* a signalling NaN: not one sl_poison makes */
}

static void test_salt_poison_bytes_are_little_endian(void **state)
{
    (void)state;
    uint32_t p = 0x7fc1a2b3u;
    assert_int_equal(sl_poison_byte(p, 0), 0xb3);
    assert_int_equal(sl_poison_byte(p, 1), 0xa2);
    assert_int_equal(sl_poison_byte(p, 2), 0xc1);
    assert_int_equal(sl_poison_byte(p, 3), 0x7f);
    assert_int_equal(sl_poison_byte(p, 4097), 0xa2);
}

/* Two runs draw other salts and (nearly always) another poison; a run's two salts differ. */
static void test_salt_draws_differ(void **state)
{
    (void)state;
    sl_run a, b;
    assert_int_equal(sl_draw_run(&a), 0); /* /dev/urandom is there */
    assert_int_equal(sl_draw_run(&b), 0);
    assert_true(a.salt != b.salt);
    assert_true(a.salt != a.record_salt && b.salt != b.record_salt);
    assert_true(a.poison != a.record_poison && b.poison != b.record_poison);
    assert_true(sl_is_poison(a.record_poison) && sl_is_poison(b.record_poison));
    assert_true(sl_is_poison(a.poison) && sl_is_poison(b.poison));
    /* 2^23 poisons: two equal draws in a row would be a 1 in 8 million event; two more
     * draws make a false alarm out of the question. */
    sl_run c;
    sl_draw_run(&c);
    assert_true(a.poison != b.poison || b.poison != c.poison);
}

/* The data seed is a function of (task, salt): the same pair gives the same seed, another
 * salt another, and it is never the task's seed itself for the salts a run uses. */
static void test_salt_data_seed_derivation(void **state)
{
    (void)state;
    assert_true(sd_data_seed(42, 7) == sd_data_seed(42, 7));
    assert_true(sd_data_seed(42, 7) != sd_data_seed(42, 8));
    assert_true(sd_data_seed(42, 7) != sd_data_seed(43, 7));
    assert_true(sd_data_seed(7, 42) != sd_data_seed(42, 7));
    for (uint64_t salt = 0; salt < 1000; ++salt) {
        assert_true(sd_data_seed(42, salt) != 42);
        assert_true(sd_data_seed(42, salt) != sd_data_seed(42, salt + 1));
    }
    /* Pinned: the grader and its children derive it alike, on any machine. */
    assert_true(sd_data_seed(0, 0) == UINT64_C(0x2574fb6eb99c9d75));
    assert_true(sd_data_seed(42, 7) == UINT64_C(0x29f6178032830c8e));
    sl_run r;
    sl_draw_run(&r);
    assert_true(sd_data_seed(42, r.salt) != sd_data_seed(42, r.record_salt));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_salt_poison_is_a_rare_nan),
        cmocka_unit_test(test_salt_poison_bytes_are_little_endian),
        cmocka_unit_test(test_salt_draws_differ),
        cmocka_unit_test(test_salt_data_seed_derivation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
