/*
 * test_ptxscan.c - the PTX scan (ptxscan.h) on real fragments of nvcc's output: what it must
 * refuse, with its line, and what it must let through (ordinary loads, names that merely look
 * alike, comments).
 *
 *   cmake --build build --target test_ptxscan && build/test_ptxscan
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ptxscan.h"

static void refused(const char *ptx, const char *words)
{
    char why[512] = "";
    assert_int_equal(ps_scan(ptx, why, sizeof why), 1);
    if (!strstr(why, words))
        fail_msg("'%s' does not say '%s'", why, words);
}

static void allowed(const char *ptx)
{
    char why[512] = "";
    if (ps_scan(ptx, why, sizeof why) != 0)
        fail_msg("refused: %s", why);
}

static void test_ptxscan_refuses_asynchronous_copies(void **state)
{
    (void)state;
    refused(".visible .entry k(\n)\n{\n\tcp.async.ca.shared.global [%r1], [%rd1], 4, 4;\n"
            "\tcp.async.commit_group;\n}\n",
            "line 4");
    refused("\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], "
            "1024, [%r3];\n",
            "'cp.async'");
    refused("\t@%p1 cp.async.bulk.tensor.2d.shared::cluster.global.tile [%r1], [%rd2, {%r3, "
            "%r4}], [%r5];\n",
            "asynchronous copy");
    refused("\tcp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd1], [%r1], 64;\n",
            "reduction");
    refused("\tmov.u32 %r1, 0; cp.async.cg.shared.global [%r2], [%rd3], 16;\n", "cp.async");
}

static void test_ptxscan_refuses_textures_and_surfaces(void **state)
{
    (void)state;
    refused("\ttex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];\n", "texture fetch");
    refused("\t@!%p2 suld.b.1d.b32.trap {%r1}, [%rd1, {%r2}];\n", "surface load");
    refused("\tsust.b.2d.b32.trap [%rd1, {%r1, %r2}], {%r3};\n", "surface store");
}

/* A label before the instruction, on its line or inside an inline asm's braces, as nvcc keeps
 * `asm("{\n hidden: cp.async.ca.shared.global [%0], [%1], 4;\n}")` in the PTX. */
static void test_ptxscan_sees_through_labels(void **state)
{
    (void)state;
    refused("\t// begin inline asm\n\t{\n hidden: cp.async.ca.shared.global [%r1], [%rd1], 4;\n}\n",
            "line 3");
    refused("\t{\n hidden_label_1:\n cp.async.ca.shared.global [%r1], [%rd1], 4;\n}\n", "line 3");
    refused("\t{ hidden: cp.async.ca.shared.global [%r1], [%rd1], 4; }\n", "cp.async");
    refused("\tone: two:\ttex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];\n",
            "texture fetch");
    refused("$L__BB0_2: /* a comment */ @%p1 sust.b.1d.b32.trap [%rd1, {%r1}], {%r2};\n",
            "surface store");
    /* Labels alone, and the "::" inside opcodes, are no reason to refuse. */
    allowed("\tst.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%r1], 1, [%r2];\n"
            "$L__BB0_3:\n\tret;\n");
}

static void test_ptxscan_allows_ordinary_code(void **state)
{
    (void)state;
    allowed(".visible .entry _Z9tex_scalefPKfPfm(\n)\n{\n"
            "\tld.global.nc.f32 %f1, [%rd4];\n\tst.global.f32 [%rd5], %f2;\n"
            "\tld.shared.f32 %f3, [%r1];\n\tbar.sync 0;\n\tprefetch.global.L2 [%rd6];\n}\n");
    allowed("\t// cp.async.ca.shared.global would be refused here\n"
            "\t/* tex.1d.v4.f32.s32\n   sust.b.1d */\n\tret;\n");
    allowed("");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ptxscan_refuses_asynchronous_copies),
        cmocka_unit_test(test_ptxscan_refuses_textures_and_surfaces),
        cmocka_unit_test(test_ptxscan_sees_through_labels),
        cmocka_unit_test(test_ptxscan_allows_ordinary_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
