/*
 * test_coalesce.c - the coalescing model against the patterns measured on an H200.
 *
 * Build and run:
 *   gcc -std=c11 -Icommon tests/unit/test_coalesce.c common/coalesce.c \
 *       $(pkg-config --cflags --libs cmocka) -lm -o test_coalesce && ./test_coalesce
 *
 * Each row of DESIGN.md's "Measured on H200" table that one request pattern can express is a
 * test here, with the table's sectors per request, Nsight Compute's bytes-per-sector figure and
 * the broadcast-aware efficiency, so the model and the hardware cannot drift apart.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "coalesce.h"

/* A cudaMalloc-like base: aligned well past a 128-byte line. */
#define BASE UINT64_C(0x7f3a00000000)
#define ALL_LANES UINT32_C(0xFFFFFFFF)
/* Percentages in the table are given to one decimal place. */
#define PCT_TOLERANCE 0.05

static void assert_close(double got, double want, double tol)
{
    if (fabs(got - want) > tol)
        fail_msg("got %.6f, want %.6f (tolerance %g)", got, want, tol);
}

static cl_cost cost_of(const cl_request *req)
{
    cl_cost c;
    assert_int_equal(cl_request_cost(req, &c), 0);
    return c;
}

static cl_tally tally_of(const cl_request *req)
{
    cl_tally t = {0};
    cl_cost c = cost_of(req);
    cl_tally_add(&t, &c);
    return t;
}

/* Checks one request against a row of the measured table. */
static void assert_row(const cl_request *req, double sectors, double nsight_pct, double aware_pct)
{
    cl_tally t = tally_of(req);
    assert_close(cl_tally_sectors_per_request(&t), sectors, 0.0);
    assert_close(100.0 * cl_tally_bytes_per_sector(&t), nsight_pct, PCT_TOLERANCE);
    assert_close(100.0 * cl_tally_efficiency(&t), aware_pct, PCT_TOLERANCE);
}

static cl_request strided(int64_t offset, int64_t stride, uint32_t size, uint32_t active)
{
    cl_request req;
    cl_request_strided(&req, BASE, offset, stride, size, active);
    return req;
}

/* ---- rows of the measured table ---- */

static void test_cost_coalesced_4byte(void **state)
{
    (void)state;
    cl_request req = strided(0, 4, 4, ALL_LANES);
    cl_cost c = cost_of(&req);
    assert_int_equal(c.sectors, 4);
    assert_int_equal(c.unique_bytes, 128);
    assert_int_equal(c.ideal_sectors, 4);
    assert_int_equal(c.active_lanes, 32);
    assert_row(&req, 4, 100.0, 100.0);
}

static void test_cost_stride2(void **state)
{
    (void)state;
    cl_request req = strided(0, 2 * 4, 4, ALL_LANES);
    assert_row(&req, 8, 50.0, 50.0);
}

static void test_cost_stride4(void **state)
{
    (void)state;
    cl_request req = strided(0, 4 * 4, 4, ALL_LANES);
    assert_row(&req, 16, 25.0, 25.0);
}

static void test_cost_stride8(void **state)
{
    (void)state;
    cl_request req = strided(0, 8 * 4, 4, ALL_LANES);
    assert_row(&req, 32, 12.5, 12.5);
}

static void test_cost_stride32(void **state)
{
    (void)state;
    cl_request req = strided(0, 32 * 4, 4, ALL_LANES);
    assert_row(&req, 32, 12.5, 12.5);
}

static void test_cost_float4_coalesced(void **state)
{
    (void)state;
    cl_request req = strided(0, 16, 16, ALL_LANES);
    cl_cost c = cost_of(&req);
    assert_int_equal(c.unique_bytes, 512);
    assert_int_equal(c.lines, 4);
    assert_row(&req, 16, 100.0, 100.0);
}

static void test_cost_misaligned_by_4_bytes(void **state)
{
    (void)state;
    cl_request req = strided(4, 4, 4, ALL_LANES);
    cl_cost c = cost_of(&req);
    assert_int_equal(c.unique_bytes, 128);
    assert_int_equal(c.ideal_sectors, 4);
    assert_row(&req, 5, 80.0, 80.0);
}

static void test_cost_struct12_field_x(void **state)
{
    (void)state;
    cl_request req = strided(0, 12, 4, ALL_LANES);
    assert_row(&req, 12, 100.0 / 3.0, 100.0 / 3.0);
    assert_row(&req, 12, 33.3, 33.3);
}

static void test_cost_struct16_field_x(void **state)
{
    (void)state;
    cl_request req = strided(0, 16, 4, ALL_LANES);
    assert_row(&req, 16, 25.0, 25.0);
}

static void test_cost_broadcast(void **state)
{
    (void)state;
    cl_request req = strided(64, 0, 4, ALL_LANES);
    cl_cost c = cost_of(&req);
    assert_int_equal(c.unique_bytes, 4);
    assert_int_equal(c.ideal_sectors, 1);
    assert_int_equal(c.lines, 1);
    assert_int_equal(c.active_lanes, 32);
    assert_row(&req, 1, 12.5, 100.0);
}

static void test_cost_half_warp_active(void **state)
{
    (void)state;
    cl_request req = strided(0, 4, 4, UINT32_C(0x0000FFFF));
    cl_cost c = cost_of(&req);
    assert_int_equal(c.active_lanes, 16);
    assert_int_equal(c.unique_bytes, 64);
    assert_row(&req, 2, 100.0, 100.0);
}

/* y = a * x with each thread owning a contiguous chunk of 16 floats: lanes are 64 B apart. */
static void test_cost_thread_owns_16_float_chunk(void **state)
{
    (void)state;
    cl_request req = strided(0, 16 * 4, 4, ALL_LANES);
    assert_row(&req, 32, 12.5, 12.5);
}

/* Float indices into a 2^20-float array, drawn once at random and kept fixed. */
static const uint32_t gather_index[CL_WARP_SIZE] = {
    923619, 555757, 495947,  198682, 913078, 530728, 158706, 960533,  225235, 549553, 576364,
    292327, 323747, 124209,  434377, 371401, 109214, 245930, 1011880, 107438, 463496, 643724,
    984502, 857672, 1001114, 176559, 45895,  46655,  556503, 145676,  18653,  767209};

static void test_cost_random_gather(void **state)
{
    (void)state;
    cl_request req;
    memset(&req, 0, sizeof(req));
    for (int l = 0; l < CL_WARP_SIZE; l++)
        req.addr[l] = BASE + 4 * (uint64_t)gather_index[l];
    req.active = ALL_LANES;
    req.size = 4;
    assert_row(&req, 32, 12.5, 12.5);
}

/* Row sums over a 4096 x 4096 matrix, one thread per row: lanes walk a column, 16 KiB apart. */
static void test_cost_row_sums_thread_per_row(void **state)
{
    (void)state;
    cl_request req = strided(0, 4096 * 4, 4, ALL_LANES);
    cl_cost c = cost_of(&req);
    assert_int_equal(c.lines, 32);
    assert_row(&req, 32, 12.5, 12.5);
}

/* Column sums, one thread per column: the warp reads 32 neighbours of row 17. */
static void test_cost_column_sums_thread_per_column(void **state)
{
    (void)state;
    cl_request req = strided((17 * 4096 + 64) * 4, 4, 4, ALL_LANES);
    assert_row(&req, 4, 100.0, 100.0);
}

/* Naive matmul with x on columns: M[row][k] is one word for the whole warp (a broadcast) and
 * N[k][col] is 32 neighbours. Per instruction both are 100%; the kernel's Nsight figure is
 * (4 + 128) / (32 x (1 + 4)) = 82.5% while the broadcast-aware figure stays 100%. */
static void test_tally_naive_matmul_x_column(void **state)
{
    (void)state;
    const int64_t n = 1024;
    const int64_t n_matrix = n * n * 4; /* N lies right after M */
    cl_request m_load = strided((5 * n + 3) * 4, 0, 4, ALL_LANES);
    cl_request n_load = strided(n_matrix + (3 * n + 32) * 4, 4, 4, ALL_LANES);
    cl_tally m_tally = tally_of(&m_load);
    cl_tally n_tally = tally_of(&n_load);

    assert_close(cl_tally_sectors_per_request(&m_tally), 1.0, 0.0);
    assert_close(cl_tally_sectors_per_request(&n_tally), 4.0, 0.0);
    assert_close(cl_tally_efficiency(&m_tally), 1.0, 0.0);
    assert_close(cl_tally_efficiency(&n_tally), 1.0, 0.0);

    cl_tally kernel = {0};
    cl_tally_merge(&kernel, &m_tally);
    cl_tally_merge(&kernel, &n_tally);
    assert_int_equal(kernel.requests, 2);
    assert_int_equal(kernel.sectors, 5);
    assert_int_equal(kernel.unique_bytes, 132);
    assert_int_equal(kernel.ideal_sectors, 5);
    assert_close(100.0 * cl_tally_bytes_per_sector(&kernel), 82.5, 1e-9);
    assert_close(100.0 * cl_tally_efficiency(&kernel), 100.0, 1e-9);
}

/* ---- lines, straddling and awkward shapes ---- */

static void test_cost_lines_coalesced_one_line(void **state)
{
    (void)state;
    cl_request req = strided(0, 4, 4, ALL_LANES);
    assert_int_equal(cost_of(&req).lines, 1);
}

static void test_cost_lines_misaligned_two_lines(void **state)
{
    (void)state;
    cl_request req = strided(4, 4, 4, ALL_LANES);
    assert_int_equal(cost_of(&req).lines, 2);
}

static void test_cost_lines_stride8_shares_lines(void **state)
{
    (void)state;
    /* Lanes 32 B apart: four lanes to a line, one to a sector. */
    cl_request req = strided(0, 32, 4, ALL_LANES);
    cl_cost c = cost_of(&req);
    assert_int_equal(c.sectors, 32);
    assert_int_equal(c.lines, 8);
}

static void test_cost_straddle_sector(void **state)
{
    (void)state;
    /* One 8-byte access at byte 28 of a sector covers 4 bytes of it and 4 of the next. */
    cl_request req = strided(28, 0, 8, UINT32_C(1));
    cl_cost c = cost_of(&req);
    assert_int_equal(c.sectors, 2);
    assert_int_equal(c.lines, 1);
    assert_int_equal(c.unique_bytes, 8);
    assert_int_equal(c.ideal_sectors, 1);
    assert_int_equal(c.active_lanes, 1);
}

static void test_cost_straddle_line(void **state)
{
    (void)state;
    /* A 16-byte access at byte 120 of a line: legal input, two sectors and two lines. */
    cl_request req = strided(120, 0, 16, UINT32_C(1) << 9);
    cl_cost c = cost_of(&req);
    assert_int_equal(c.sectors, 2);
    assert_int_equal(c.lines, 2);
    assert_int_equal(c.unique_bytes, 16);
}

static void test_cost_float4_unaligned_warp(void **state)
{
    (void)state;
    /* 512 contiguous bytes starting 8 bytes into a line: [8, 520) spans sectors 0..16. */
    cl_request req = strided(8, 16, 16, ALL_LANES);
    cl_cost c = cost_of(&req);
    assert_int_equal(c.sectors, 17);
    assert_int_equal(c.lines, 5);
    assert_int_equal(c.unique_bytes, 512);
    assert_int_equal(c.ideal_sectors, 16);
}

static void test_cost_overlapping_lanes(void **state)
{
    (void)state;
    /* 4-byte accesses 2 bytes apart overlap: the union is [0, 66). */
    cl_request req = strided(0, 2, 4, ALL_LANES);
    cl_cost c = cost_of(&req);
    assert_int_equal(c.unique_bytes, 66);
    assert_int_equal(c.sectors, 3);
    assert_int_equal(c.ideal_sectors, 3);
}

static void test_cost_duplicate_addresses(void **state)
{
    (void)state;
    cl_request req;
    cl_request_strided(&req, BASE, 0, 0, 4, ALL_LANES);
    for (uint32_t l = 0; l < CL_WARP_SIZE; l++)
        req.addr[l] = BASE + 4 * (uint64_t)(l / 2);
    cl_cost c = cost_of(&req);
    assert_int_equal(c.unique_bytes, 64);
    assert_int_equal(c.sectors, 2);
    assert_int_equal(c.ideal_sectors, 2);
}

static void test_cost_lane_order_irrelevant(void **state)
{
    (void)state;
    /* Lane 0 reads the last word and lane 31 the first: still one coalesced line. */
    cl_request req = strided(31 * 4, -4, 4, ALL_LANES);
    cl_cost c = cost_of(&req);
    assert_int_equal(c.sectors, 4);
    assert_int_equal(c.lines, 1);
    assert_int_equal(c.unique_bytes, 128);
}

static void test_cost_inactive_lanes_ignored(void **state)
{
    (void)state;
    cl_request req = strided(0, 4, 4, UINT32_C(0x80000001));
    /* Inactive lanes point far away; they must not count. */
    for (uint32_t l = 1; l < CL_WARP_SIZE - 1; l++)
        req.addr[l] = BASE + (UINT64_C(1) << 30) + 4096 * (uint64_t)l;
    cl_cost c = cost_of(&req);
    assert_int_equal(c.active_lanes, 2);
    assert_int_equal(c.sectors, 2);
    assert_int_equal(c.lines, 1);
    assert_int_equal(c.unique_bytes, 8);
    assert_int_equal(c.ideal_sectors, 1);
}

static void test_cost_small_sizes(void **state)
{
    (void)state;
    cl_request bytes = strided(0, 1, 1, ALL_LANES);
    cl_request halves = strided(0, 2, 2, ALL_LANES);
    cl_request doubles = strided(0, 8, 8, ALL_LANES);
    assert_int_equal(cost_of(&bytes).sectors, 1);
    assert_int_equal(cost_of(&bytes).unique_bytes, 32);
    assert_int_equal(cost_of(&halves).sectors, 2);
    assert_int_equal(cost_of(&doubles).sectors, 8);
    assert_int_equal(cost_of(&doubles).lines, 2);
}

static void test_cost_top_of_address_space(void **state)
{
    (void)state;
    /* An access running past 2^64 - 1 is clipped there, not wrapped to address 0, and an
     * access that ends exactly there still merges with its neighbours. */
    cl_request req;
    cl_request_strided(&req, UINT64_MAX - 1, 0, 0, 4, UINT32_C(0x7));
    req.addr[1] = 0;
    cl_cost c = cost_of(&req);
    assert_int_equal(c.unique_bytes, 2 + 4);
    assert_int_equal(c.sectors, 2);
    assert_int_equal(c.lines, 2);

    req.addr[2] = UINT64_MAX - 3;
    c = cost_of(&req);
    assert_int_equal(c.unique_bytes, 4 + 4);
    assert_int_equal(c.sectors, 2);
    assert_int_equal(c.lines, 2);
}

/* The model against the obvious definition: mark every byte of a small window, then count
 * marked bytes and the sectors and lines holding at least one, over many random requests. */
#define WINDOW 2048

static uint64_t lcg_next(uint64_t *x)
{
    *x = *x * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return *x >> 33;
}

static uint32_t count_marked_units(const unsigned char *byte_marked, uint32_t unit)
{
    uint32_t count = 0;
    for (uint32_t u = 0; u < WINDOW; u += unit) {
        uint32_t hit = 0;
        for (uint32_t b = u; b < u + unit; b++)
            hit |= byte_marked[b];
        count += hit;
    }
    return count;
}

static void test_cost_matches_brute_force(void **state)
{
    (void)state;
    static const uint32_t sizes[] = {1, 2, 4, 8, 16};
    uint64_t x = 12345;

    for (int trial = 0; trial < 20000; trial++) {
        unsigned char marked[WINDOW] = {0};
        cl_request req;
        req.size = sizes[lcg_next(&x) % 5];
        req.active = (uint32_t)lcg_next(&x) | UINT32_C(1) << (lcg_next(&x) % 32);
        /* A narrow span on some trials, so that lanes overlap and share sectors. */
        uint32_t span = (trial % 2) ? 256 : WINDOW - 16;
        for (uint32_t l = 0; l < CL_WARP_SIZE; l++) {
            uint32_t off = (uint32_t)(lcg_next(&x) % span);
            req.addr[l] = BASE + off;
            if (req.active & (UINT32_C(1) << l))
                memset(marked + off, 1, req.size);
        }
        uint32_t bytes = 0, lanes = 0;
        for (uint32_t b = 0; b < WINDOW; b++)
            bytes += marked[b];
        for (uint32_t l = 0; l < CL_WARP_SIZE; l++)
            lanes += (req.active >> l) & 1;

        cl_cost c = cost_of(&req);
        assert_int_equal(c.unique_bytes, bytes);
        assert_int_equal(c.sectors, count_marked_units(marked, CL_SECTOR_BYTES));
        assert_int_equal(c.lines, count_marked_units(marked, CL_LINE_BYTES));
        assert_int_equal(c.ideal_sectors, (bytes + 31) / 32);
        assert_int_equal(c.active_lanes, lanes);
    }
}

/* ---- validation ---- */

static void assert_rejected(const cl_request *req)
{
    cl_cost c;
    memset(&c, 0xAB, sizeof(c));
    assert_int_equal(cl_request_cost(req, &c), -1);
    assert_int_equal(c.sectors, 0);
    assert_int_equal(c.lines, 0);
    assert_int_equal(c.unique_bytes, 0);
    assert_int_equal(c.ideal_sectors, 0);
    assert_int_equal(c.active_lanes, 0);
}

static void test_cost_rejects_bad_size(void **state)
{
    (void)state;
    static const uint32_t bad[] = {0, 3, 5, 6, 12, 32};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        cl_request req = strided(0, 4, bad[i], ALL_LANES);
        assert_rejected(&req);
    }
}

static void test_cost_rejects_no_active_lane(void **state)
{
    (void)state;
    cl_request req = strided(0, 4, 4, 0);
    assert_rejected(&req);
}

/* ---- cl_request_strided ---- */

static void test_strided_fills_lanes(void **state)
{
    (void)state;
    cl_request req;
    cl_request_strided(&req, 1000, -8, 12, 8, UINT32_C(0x00FF00FF));
    assert_int_equal(req.active, 0x00FF00FF);
    assert_int_equal(req.size, 8);
    for (uint32_t l = 0; l < CL_WARP_SIZE; l++)
        assert_int_equal(req.addr[l], 992 + 12 * (uint64_t)l);

    cl_request_strided(&req, 1000, 4, -4, 4, ALL_LANES);
    assert_int_equal(req.addr[0], 1004);
    assert_int_equal(req.addr[31], 1004 - 124);
}

/* ---- tallies ---- */

static void test_tally_accumulates(void **state)
{
    (void)state;
    cl_request coalesced = strided(0, 4, 4, ALL_LANES);
    cl_request column = strided(0, 4096 * 4, 4, ALL_LANES);
    cl_cost a = cost_of(&coalesced);
    cl_cost b = cost_of(&column);
    cl_tally t = {0};
    cl_tally_add(&t, &a);
    cl_tally_add(&t, &b);
    assert_int_equal(t.requests, 2);
    assert_int_equal(t.sectors, 36);
    assert_int_equal(t.lines, 33);
    assert_int_equal(t.unique_bytes, 256);
    assert_int_equal(t.ideal_sectors, 8);
    assert_close(cl_tally_sectors_per_request(&t), 18.0, 0.0);
    assert_close(cl_tally_efficiency(&t), 8.0 / 36.0, 1e-12);
    assert_close(cl_tally_bytes_per_sector(&t), 256.0 / (32.0 * 36.0), 1e-12);
}

static void test_tally_merge_sums_fields(void **state)
{
    (void)state;
    cl_tally a = {3, 10, 4, 200, 7};
    cl_tally b = {2, 5, 1, 100, 3};
    cl_tally_merge(&a, &b);
    assert_int_equal(a.requests, 5);
    assert_int_equal(a.sectors, 15);
    assert_int_equal(a.lines, 5);
    assert_int_equal(a.unique_bytes, 300);
    assert_int_equal(a.ideal_sectors, 10);
    /* from is left alone. */
    assert_int_equal(b.requests, 2);
    assert_int_equal(b.sectors, 5);
}

static void test_tally_empty_is_zero(void **state)
{
    (void)state;
    cl_tally t = {0};
    double eff = cl_tally_efficiency(&t);
    double bps = cl_tally_bytes_per_sector(&t);
    double spr = cl_tally_sectors_per_request(&t);
    assert_false(isnan(eff));
    assert_false(isnan(bps));
    assert_false(isnan(spr));
    assert_close(eff, 0.0, 0.0);
    assert_close(bps, 0.0, 0.0);
    assert_close(spr, 0.0, 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cost_coalesced_4byte),
        cmocka_unit_test(test_cost_stride2),
        cmocka_unit_test(test_cost_stride4),
        cmocka_unit_test(test_cost_stride8),
        cmocka_unit_test(test_cost_stride32),
        cmocka_unit_test(test_cost_float4_coalesced),
        cmocka_unit_test(test_cost_misaligned_by_4_bytes),
        cmocka_unit_test(test_cost_struct12_field_x),
        cmocka_unit_test(test_cost_struct16_field_x),
        cmocka_unit_test(test_cost_broadcast),
        cmocka_unit_test(test_cost_half_warp_active),
        cmocka_unit_test(test_cost_thread_owns_16_float_chunk),
        cmocka_unit_test(test_cost_random_gather),
        cmocka_unit_test(test_cost_row_sums_thread_per_row),
        cmocka_unit_test(test_cost_column_sums_thread_per_column),
        cmocka_unit_test(test_tally_naive_matmul_x_column),
        cmocka_unit_test(test_cost_lines_coalesced_one_line),
        cmocka_unit_test(test_cost_lines_misaligned_two_lines),
        cmocka_unit_test(test_cost_lines_stride8_shares_lines),
        cmocka_unit_test(test_cost_straddle_sector),
        cmocka_unit_test(test_cost_straddle_line),
        cmocka_unit_test(test_cost_float4_unaligned_warp),
        cmocka_unit_test(test_cost_overlapping_lanes),
        cmocka_unit_test(test_cost_duplicate_addresses),
        cmocka_unit_test(test_cost_lane_order_irrelevant),
        cmocka_unit_test(test_cost_inactive_lanes_ignored),
        cmocka_unit_test(test_cost_small_sizes),
        cmocka_unit_test(test_cost_top_of_address_space),
        cmocka_unit_test(test_cost_matches_brute_force),
        cmocka_unit_test(test_cost_rejects_bad_size),
        cmocka_unit_test(test_cost_rejects_no_active_lane),
        cmocka_unit_test(test_strided_fills_lanes),
        cmocka_unit_test(test_tally_accumulates),
        cmocka_unit_test(test_tally_merge_sums_fields),
        cmocka_unit_test(test_tally_empty_is_zero),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
