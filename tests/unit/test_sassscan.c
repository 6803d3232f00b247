/*
 * test_sassscan.c - the SASS listing (sassscan.h) on real `cuobjdump -sass` output: ten
 * functions of probe/isa.cu compiled for sm_90 by CUDA 13.0 (tests/unit/data/isa-sm90.sass,
 * their trailing NOP padding trimmed). Each instruction's class and offset, the lookups the
 * trace makes, the refusal, and text that is not cuobjdump's at all.
 *
 *   cmake --build build --target test_sassscan && build/test_sassscan
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sassscan.h"

static char *excerpt;
static size_t excerpt_size;

static int read_excerpt(void **state)
{
    (void)state;
    FILE *f = fopen(CL_SOURCE_DIR "/tests/unit/data/isa-sm90.sass", "rb");
    if (!f)
        return -1;
    excerpt = malloc(1 << 20);
    excerpt_size = excerpt ? fread(excerpt, 1, 1 << 20, f) : 0;
    fclose(f);
    return excerpt_size ? 0 : -1;
}

static int free_excerpt(void **state)
{
    (void)state;
    free(excerpt);
    return 0;
}

/* The part of the excerpt that lists the function name: from its heading to the next. */
static ss_listing *one_function(const char *name)
{
    char heading[256];
    snprintf(heading, sizeof heading, "Function : %s\n", name);
    const char *start = strstr(excerpt, heading);
    assert_non_null(start);
    const char *end = strstr(start + 1, "Function : ");
    ss_listing *l = ss_parse(start, end ? (size_t)(end - start) : strlen(start));
    assert_non_null(l);
    assert_int_equal(l->count, 1);
    assert_string_equal(l->functions[0].name, name);
    return l;
}

static const ss_instruction *at(const ss_listing *l, const char *function, unsigned long pc)
{
    for (size_t i = 0; i < l->count; ++i)
        for (size_t j = 0; !strcmp(l->functions[i].name, function) && j < l->functions[i].count;
             ++j)
            if (l->functions[i].code[j].pc == pc)
                return &l->functions[i].code[j];
    fail_msg("no instruction at 0x%04lx of %s", pc, function);
    return NULL;
}

static void expect(const ss_listing *l, const char *function, unsigned long pc, const char *opcode,
                   ss_class cls)
{
    const ss_instruction *in = at(l, function, pc);
    assert_string_equal(in->opcode, opcode);
    assert_int_equal(in->cls, cls);
    assert_int_equal(ss_class_at(l, function, pc), cls);
}

static void refused(const ss_listing *l, const char *const words[])
{
    char why[512] = "";
    assert_int_equal(ss_refusal(l, why, sizeof why), 1);
    for (int i = 0; words[i]; ++i)
        if (!strstr(why, words[i]))
            fail_msg("'%s' does not say '%s'", why, words[i]);
}

static void allowed(const ss_listing *l)
{
    char why[512] = "";
    if (ss_refusal(l, why, sizeof why) != 0)
        fail_msg("refused: %s", why);
}

static void test_sassscan_reads_every_function(void **state)
{
    (void)state;
    static const char *const names[] = {
        "_Z6k_bulkPKfPf",      "_Z5k_redPf",      "_Z5k_vecPK6float4PS_", "_Z5k_texyPf",
        "_Z10k_prefetchPKfPf", "_Z7k_labelPKfPf", "_Z9k_cpasyncPKfPfi",   "_Z9k_genericPfS_i",
        "_Z9k_atomicsPfS_i",   "_Z7k_plainPKfPfi"};
    ss_listing *l = ss_parse(excerpt, excerpt_size);
    assert_non_null(l);
    assert_int_equal(l->count, 10);
    for (size_t i = 0; i < 10; ++i)
        assert_string_equal(l->functions[i].name, names[i]);
    /* k_plain: 0x0000 to 0x0130 (its padding trimmed to two NOPs), one instruction in 16
     * bytes, the encodings' lines not counted. */
    const ss_function *plain = &l->functions[9];
    assert_int_equal(plain->count, 20);
    for (size_t j = 0; j < plain->count; ++j)
        assert_int_equal(plain->code[j].pc, 16 * j);
    assert_string_equal(plain->code[0].opcode, "LDC");
    assert_string_equal(plain->code[7].opcode, "EXIT"); /* "@P0 EXIT": its predicate dropped */
    assert_string_equal(plain->code[19].opcode, "NOP");
    ss_free(l);
}

static void test_sassscan_classes_the_real_spellings(void **state)
{
    (void)state;
    ss_listing *l = ss_parse(excerpt, excerpt_size);
    expect(l, "_Z7k_plainPKfPfi", 0xc0, "LDG.E", SS_GLOBAL_LOAD);
    expect(l, "_Z7k_plainPKfPfi", 0xf0, "STG.E", SS_GLOBAL_STORE);
    expect(l, "_Z7k_plainPKfPfi", 0xe0, "FADD", SS_OTHER);
    expect(l, "_Z5k_vecPK6float4PS_", 0x60, "LDG.E.NA.128.CONSTANT", SS_GLOBAL_LOAD);
    expect(l, "_Z5k_vecPK6float4PS_", 0x80, "STG.E.128.STRONG.SYS", SS_GLOBAL_STORE);
    expect(l, "_Z9k_genericPfS_i", 0x60, "LDG.E.STRONG.SYS", SS_GLOBAL_LOAD);
    expect(l, "_Z5k_redPf", 0x60, "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU", SS_GLOBAL_ATOMIC);
    expect(l, "_Z9k_atomicsPfS_i", 0xd0, "ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU", SS_GLOBAL_ATOMIC);
    expect(l, "_Z9k_atomicsPfS_i", 0x190, "ATOMG.E.EXCH.STRONG.GPU", SS_GLOBAL_ATOMIC);
    expect(l, "_Z9k_atomicsPfS_i", 0x1a0, "ATOMG.E.CAS.STRONG.GPU", SS_GLOBAL_ATOMIC);
    expect(l, "_Z9k_atomicsPfS_i", 0x1b0, "ATOMG.E.ADD.STRONG.GPU", SS_GLOBAL_ATOMIC); /* @P0 */
    expect(l, "_Z7k_labelPKfPf", 0xa0, "LDS", SS_OTHER);                               /* @!PT */
    expect(l, "_Z7k_labelPKfPf", 0xd0, "LDGSTS.E", SS_UNMEASURED);
    expect(l, "_Z7k_labelPKfPf", 0xf0, "LDGDEPBAR", SS_OTHER);
    expect(l, "_Z9k_cpasyncPKfPfi", 0xd0, "LDGSTS.E", SS_UNMEASURED);
    expect(l, "_Z6k_bulkPKfPf", 0x150, "UBLKCP.S.G", SS_UNMEASURED);
    expect(l, "_Z6k_bulkPKfPf", 0x1c0, "UBLKCP.G.S", SS_UNMEASURED);
    expect(l, "_Z6k_bulkPKfPf", 0x1f0, "UBLKRED.G.S.ADD.F32.RN", SS_UNMEASURED);
    expect(l, "_Z6k_bulkPKfPf", 0x120, "SYNCS.EXCH.64", SS_OTHER);
    expect(l, "_Z5k_texyPf", 0x40, "TLD.LZ", SS_UNMEASURED);
    expect(l, "_Z10k_prefetchPKfPf", 0x90, "CCTL.E.PF2", SS_OTHER); /* a prefetch moves nothing */
    expect(l, "_Z10k_prefetchPKfPf", 0xa0, "CCTL.E.RML2", SS_OTHER);
    assert_int_equal(ss_count(l, SS_GLOBAL_LOAD), 3);
    assert_int_equal(ss_count(l, SS_GLOBAL_STORE), 9);
    assert_int_equal(ss_count(l, SS_GLOBAL_ATOMIC), 6);
    assert_int_equal(ss_count(l, SS_GENERIC), 0);
    assert_int_equal(ss_count(l, SS_UNMEASURED), 6); /* 2 LDGSTS, 3 UBLK*, 1 TLD */
    assert_int_equal(ss_count(l, SS_OTHER), 222);
    assert_int_equal(ss_count(l, SS_CLASSES), 0);
    ss_free(l);
}

/* The trace engine names a function and an offset from its start: the same numbers. */
static void test_sassscan_looks_up_by_function_and_pc(void **state)
{
    (void)state;
    ss_listing *l = ss_parse(excerpt, excerpt_size);
    assert_int_equal(ss_class_at(l, "_Z9k_atomicsPfS_i", 0x180), SS_GLOBAL_ATOMIC);
    assert_int_equal(ss_class_at(l, "_Z9k_atomicsPfS_i", 0x350), SS_GLOBAL_STORE);
    assert_int_equal(ss_class_at(l, "_Z9k_atomicsPfS_i", 0x0), SS_OTHER);
    assert_int_equal(ss_class_at(l, "_Z9k_atomicsPfS_i", 0x188), -1); /* inside one */
    assert_int_equal(ss_class_at(l, "_Z9k_atomicsPfS_i", 0x100000), -1);
    assert_int_equal(ss_class_at(l, "_Z9k_atomics", 0x180), -1); /* a name's start only */
    assert_int_equal(ss_class_at(l, "k_atomics", 0x180), -1);
    assert_int_equal(ss_class_at(l, NULL, 0), -1);
    assert_int_equal(ss_class_at(NULL, "_Z9k_atomicsPfS_i", 0x180), -1);
    ss_free(l);
}

/* The student's trick: a label before cp.async in inline asm. The SASS has no labels. */
static void test_sassscan_refuses_the_label_trick(void **state)
{
    (void)state;
    ss_listing *l = one_function("_Z7k_labelPKfPf");
    refused(l, (const char *const[]){"LDGSTS.E", "cp.async", "'_Z7k_labelPKfPf'", "0x00d0",
                                     "use ordinary loads and stores", NULL});
    ss_free(l);
    l = one_function("_Z9k_cpasyncPKfPfi");
    refused(l, (const char *const[]){"LDGSTS.E", "cp.async", "_Z9k_cpasyncPKfPfi", NULL});
    ss_free(l);
}

static void test_sassscan_refuses_bulk_copies_and_textures(void **state)
{
    (void)state;
    ss_listing *l = one_function("_Z6k_bulkPKfPf");
    refused(l, (const char *const[]){"UBLKCP.S.G", "a bulk copy", "0x0150", NULL});
    ss_free(l);
    l = one_function("_Z5k_texyPf");
    refused(l, (const char *const[]){"TLD.LZ", "a texture fetch", "_Z5k_texyPf", NULL});
    ss_free(l);
    /* The whole excerpt: the first in the text is named. */
    l = ss_parse(excerpt, excerpt_size);
    refused(l, (const char *const[]){"UBLKCP.S.G", "_Z6k_bulkPKfPf", NULL});
    ss_free(l);
}

static void test_sassscan_allows_measured_code(void **state)
{
    (void)state;
    static const char *const names[] = {"_Z7k_plainPKfPfi",     "_Z10k_prefetchPKfPf",
                                        "_Z9k_atomicsPfS_i",    "_Z5k_redPf",
                                        "_Z5k_vecPK6float4PS_", "_Z9k_genericPfS_i"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        ss_listing *l = one_function(names[i]);
        allowed(l);
        ss_free(l);
    }
}

/* Spellings this excerpt lacks, in cuobjdump's line format: generic accesses, shared and local
 * ones, the tensor memory accelerator, surfaces, multimem and the other texture opcodes. */
static void test_sassscan_classes_other_spellings(void **state)
{
    (void)state;
    static const struct {
        const char *line, *opcode;
        ss_class cls;
        const char *what;
    } cases[] = {
        {"LD.E.STRONG.GPU R2, [R2.64] ;", "LD.E.STRONG.GPU", SS_GENERIC, NULL},
        {"ST.E desc[UR4][R4.64], R7 ;", "ST.E", SS_GENERIC, NULL},
        {"ATOM.E.ADD.STRONG.GPU PT, R9, [R8.64], R13 ;", "ATOM.E.ADD.STRONG.GPU", SS_GENERIC, NULL},
        {"RED.E.ADD.F32.FTZ.RN.STRONG.GPU [R6.64], R4 ;", "RED.E.ADD.F32.FTZ.RN.STRONG.GPU",
         SS_GENERIC, NULL},
        {"ATOMS.ADD R3, [R0], R5 ;", "ATOMS.ADD", SS_OTHER, NULL},
        {"STS [R0], R5 ;", "STS", SS_OTHER, NULL},
        {"LDL R5, [R1+0x10] ;", "LDL", SS_OTHER, NULL},
        {"STL.128 [R1], R8 ;", "STL.128", SS_OTHER, NULL},
        {"STAS [R4.64], R6 ;", "STAS", SS_OTHER, NULL},
        {"LDGDEPBAR ;", "LDGDEPBAR", SS_OTHER, NULL},
        {"UTMALDG.2D [UR8], [UR4] ;", "UTMALDG.2D", SS_UNMEASURED, "tensor memory accelerator"},
        {"UTMASTG.2D [UR4], [UR8] ;", "UTMASTG.2D", SS_UNMEASURED, "tensor memory accelerator"},
        {"UTMAREDG.2D.ADD [UR4], [UR8] ;", "UTMAREDG.2D.ADD", SS_UNMEASURED, "tensor memory"},
        {"UTMAPF.2D [UR4] ;", "UTMAPF.2D", SS_UNMEASURED, "tensor memory"},
        {"UTMACCTL.PF [UR4] ;", "UTMACCTL.PF", SS_UNMEASURED, "tensor memory"},
        {"UBLKPF.L2 [UR4], UR6 ;", "UBLKPF.L2", SS_UNMEASURED, "bulk copy"},
        {"TEX.SCR.LL.NODEP R0, R2, R0, R4, 0x0, 0x5a, 2D, 0x1 ;", "TEX.SCR.LL.NODEP", SS_UNMEASURED,
         "texture"},
        {"TLD4.R.LZ R4, R2, R0, 0x0, 0x58, 2D ;", "TLD4.R.LZ", SS_UNMEASURED, "texture"},
        {"TMML.LOD R0, R2, 0x0, 0x58, 2D, 0x3 ;", "TMML.LOD", SS_UNMEASURED, "texture"},
        {"TXD R0, R2, R4, 0x0, 0x58, 2D ;", "TXD", SS_UNMEASURED, "texture"},
        {"TXQ R0, R2, TEX_HEADER_DIMENSION, 0x0, 0x58 ;", "TXQ", SS_UNMEASURED, "texture"},
        {"SULD.D.BA.2D.STRONG.SM.TRAP R2, [R2], UR4 ;", "SULD.D.BA.2D.STRONG.SM.TRAP",
         SS_UNMEASURED, "surface access"},
        {"SUST.D.BA.1D.STRONG.SM.TRAP [R2], R5, UR4 ;", "SUST.D.BA.1D.STRONG.SM.TRAP",
         SS_UNMEASURED, "surface access"},
        {"SUATOM.D.1D.ADD.STRONG.GPU.TRAP R0, [R2], R5, UR4 ;", "SUATOM.D.1D.ADD.STRONG.GPU.TRAP",
         SS_UNMEASURED, "surface"},
        {"SURED.D.1D.ADD.STRONG.GPU.TRAP [R2], R5, UR4 ;", "SURED.D.1D.ADD.STRONG.GPU.TRAP",
         SS_UNMEASURED, "surface"},
        {"SUQUERY.D R0, UR4 ;", "SUQUERY.D", SS_UNMEASURED, "surface"},
        {"LDGMC.E.ADD.F32.STRONG.SYS R5, [R2.64] ;", "LDGMC.E.ADD.F32.STRONG.SYS", SS_UNMEASURED,
         "multimem"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        char text[512];
        snprintf(text, sizeof text,
                 "\t\tFunction : _Z1kPf\n        /*0000*/                   LDC R1, c[0x0][0x28] "
                 ";\n        /*0010*/              @!P0 %s   /* 0x0000000000007919 */\n"
                 "                                         /* 0x000e620000002100 */\n",
                 cases[i].line);
        ss_listing *l = ss_parse(text, strlen(text));
        assert_non_null(l);
        const ss_instruction *in = at(l, "_Z1kPf", 0x10);
        assert_string_equal(in->opcode, cases[i].opcode);
        if (in->cls != cases[i].cls)
            fail_msg("'%s': class %d, not %d", cases[i].line, in->cls, cases[i].cls);
        assert_int_equal(ss_count(l, cases[i].cls), 1 + (cases[i].cls == SS_OTHER));
        if (cases[i].what)
            refused(l, (const char *const[]){cases[i].opcode, cases[i].what, "_Z1kPf", NULL});
        else
            allowed(l);
        ss_free(l);
    }
}

/* nvdisasm -c names a function by its section; its instruction lines are cuobjdump's. */
static void test_sassscan_reads_nvdisasm(void **state)
{
    (void)state;
    static const char text[] =
        "//--------------------- .text._Z7k_labelPKfPf     --------------------------\n"
        "\t.section\t.text._Z7k_labelPKfPf,\"ax\",@progbits\n"
        "\t.align\t128\n"
        "        .global         _Z7k_labelPKfPf\n"
        "_Z7k_labelPKfPf:\n"
        ".text._Z7k_labelPKfPf:\n"
        "        /*00c0*/              @!PT LDS RZ, [RZ] ;\n"
        "        /*00d0*/                   LDGSTS.E [R7], desc[UR4][R2.64] ;\n"
        "        /*00e0*/                   IMAD.WIDE R4, R11, 0x4, R4 ;\n"
        ".L_x_0:\n"
        "        /*0150*/                   BRA `(.L_x_0);\n";
    ss_listing *l = ss_parse(text, sizeof text - 1);
    assert_int_equal(l->count, 1);
    assert_string_equal(l->functions[0].name, "_Z7k_labelPKfPf");
    assert_int_equal(l->functions[0].count, 4);
    assert_int_equal(ss_class_at(l, "_Z7k_labelPKfPf", 0xd0), SS_UNMEASURED);
    assert_int_equal(ss_class_at(l, "_Z7k_labelPKfPf", 0x150), SS_OTHER);
    refused(l, (const char *const[]){"LDGSTS.E", "cp.async", NULL});
    ss_free(l);
}

/* Every prefix of the excerpt, cut anywhere (a cuobjdump that died half-way): read without a
 * fault, and an instruction counted only once its line holds its whole opcode. */
static void test_sassscan_reads_truncated_text(void **state)
{
    (void)state;
    size_t last = 0;
    for (size_t n = 0; n <= excerpt_size; n += n < 4096 ? 1 : 97) {
        ss_listing *l = ss_parse(excerpt, n);
        assert_non_null(l);
        size_t unmeasured = ss_count(l, SS_UNMEASURED);
        assert_true(unmeasured >= last); /* "UBLKC" is no opcode, "UBLKCP" one */
        last = unmeasured;
        ss_free(l);
    }
    ss_listing *l = ss_parse(excerpt, excerpt_size);
    assert_int_equal(ss_count(l, SS_UNMEASURED), 6);
    ss_free(l);
}

static void test_sassscan_reads_garbage(void **state)
{
    (void)state;
    ss_listing *l = ss_parse(NULL, 100);
    assert_non_null(l);
    assert_int_equal(l->count, 0);
    allowed(l);
    ss_free(l);
    l = ss_parse("", 0);
    assert_int_equal(l->count, 0);
    ss_free(l);
    ss_free(NULL);
    /* Random bytes, NULs and newlines among them, and random bytes after real openings. */
    static char noise[1 << 16];
    unsigned x = 12345;
    for (int round = 0; round < 64; ++round) {
        for (size_t i = 0; i < sizeof noise; ++i) {
            x = x * 1103515245u + 12345u;
            noise[i] = (char)(x >> 16);
        }
        for (size_t i = 0; round & 1 && i + 16 < sizeof noise; i += 97)
            memcpy(noise + i, i % 2 ? "\n/*00d0*/ LDGST" : "\nFunction : _Z", 15);
        l = ss_parse(noise, sizeof noise);
        assert_non_null(l);
        char why[512];
        ss_refusal(l, why, sizeof why);
        ss_free(l);
    }
    /* Lines that look nearly like cuobjdump's. */
    static const char odd[] = "Function :\n"
                              "Function : \t \r\n"
                              "Functions : _Z1aPf\n"
                              "/*0010*/ LDGSTS.E [R7], [R2.64] ;\n" /* before any heading */
                              "\t\tFunction : _Z1kPf\r\n"
                              "/**/ LDGSTS.E\n"
                              "/*00x0*/ LDGSTS.E\n"
                              "/*123456789abcdef0123*/ LDGSTS.E\n" /* past 64 bits */
                              "/*0020 LDGSTS.E\n"
                              "/*0030*/\n"
                              "/*0040*/ @P0\n"
                              "/*0050*/ ;\n"
                              "/*0060*/ ldgsts.e\n"
                              "/*0070*/ @!PT\tLDG.E R2, [R2.64] ;\r\n"
                              "/*0000*/ STG.E [R2.64], R5 ;\n" /* out of order */
                              "/* 0x000fe20000000800 */\n"
                              ".section\n"
                              ".section .text.\n"
                              ".section .nv.shared._Z1kPf,\"aw\",@nobits\n";
    l = ss_parse(odd, sizeof odd - 1);
    assert_int_equal(l->count, 2);
    assert_string_equal(l->functions[0].name, "");
    assert_string_equal(l->functions[1].name, "_Z1kPf");
    assert_int_equal(l->functions[1].count, 2);
    assert_int_equal(ss_class_at(l, "_Z1kPf", 0x70), SS_GLOBAL_LOAD);
    assert_int_equal(ss_class_at(l, "_Z1kPf", 0x0), SS_GLOBAL_STORE);
    assert_int_equal(l->functions[1].code[0].pc, 0);
    assert_int_equal(ss_class_at(l, "", 0x10), SS_UNMEASURED);
    refused(l, (const char *const[]){"LDGSTS.E", "outside any function", NULL});
    ss_free(l);
}

/* Lines of megabytes: a name, an opcode, an offset, and one with no newline at all. */
static void test_sassscan_reads_huge_lines(void **state)
{
    (void)state;
    size_t n = (size_t)8 << 20;
    char *text = malloc(n + 64);
    assert_non_null(text);
    size_t k = (size_t)sprintf(text, "Function : _Z");
    memset(text + k, 'x', n - k);
    k = n;
    k += (size_t)sprintf(text + k, "\n/*0000*/ LDGSTS.E ;\n");
    ss_listing *l = ss_parse(text, k);
    assert_int_equal(l->count, 1);
    assert_int_equal(strlen(l->functions[0].name), n - strlen("Function : "));
    char why[512];
    assert_int_equal(ss_refusal(l, why, sizeof why), 1);
    assert_non_null(strstr(why, "...'; use ordinary loads and stores instead"));
    assert_true(strlen(why) < sizeof why - 1); /* the advice fits */
    ss_free(l);
    k = (size_t)sprintf(text, "Function : _Z1kPf\n/*0000*/ UBLKCP.");
    memset(text + k, 'S', n - k);
    l = ss_parse(text, n);
    assert_int_equal(ss_count(l, SS_UNMEASURED), 1);
    assert_int_equal(strlen(l->functions[0].code[0].opcode), strlen("UBLKCP.") + n - k);
    ss_free(l);
    memset(text, ' ', n);
    text[n - 1] = '/';
    l = ss_parse(text, n);
    assert_int_equal(l->count, 0);
    ss_free(l);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sassscan_reads_every_function),
        cmocka_unit_test(test_sassscan_classes_the_real_spellings),
        cmocka_unit_test(test_sassscan_looks_up_by_function_and_pc),
        cmocka_unit_test(test_sassscan_refuses_the_label_trick),
        cmocka_unit_test(test_sassscan_refuses_bulk_copies_and_textures),
        cmocka_unit_test(test_sassscan_allows_measured_code),
        cmocka_unit_test(test_sassscan_classes_other_spellings),
        cmocka_unit_test(test_sassscan_reads_nvdisasm),
        cmocka_unit_test(test_sassscan_reads_truncated_text),
        cmocka_unit_test(test_sassscan_reads_garbage),
        cmocka_unit_test(test_sassscan_reads_huge_lines),
    };
    return cmocka_run_group_tests(tests, read_excerpt, free_excerpt);
}
