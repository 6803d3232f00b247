/*
 * test_record.c - what the recorder decides, without a GPU: which CUDA calls of a launcher are
 * launches, copies or forbidden (common/apicalls.c), and how pointers in recorded parameters
 * become places in the lab's buffers and back (common/relocate.c).
 *
 * Build and run (the project CMake builds it as test_record):
 *   cmake --build build --target test_record && build/test_record
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "apicalls.h"
#include "relocate.h"

/* ---- calls ---- */

static void test_apicalls_launches(void **state)
{
    (void)state;
    assert_int_equal(ac_classify("cuLaunchKernel"), AC_LAUNCH);
    assert_int_equal(ac_classify("cuLaunchKernel_ptsz"), AC_LAUNCH);
    assert_int_equal(ac_classify("cuLaunchKernelEx"), AC_LAUNCH);
    assert_int_equal(ac_classify("cuLaunchKernelEx_ptsz"), AC_LAUNCH);
    assert_int_equal(ac_classify("cudaLaunchKernel_v7000"), AC_RT_LAUNCH);
    assert_int_equal(ac_classify("cudaLaunchKernel_ptsz_v7000"), AC_RT_LAUNCH);
    /* Cooperative launches are not plain launches, however the name begins. */
    assert_int_equal(ac_classify("cuLaunchCooperativeKernel"), AC_FORBIDDEN);
    assert_int_equal(ac_classify("cudaLaunchCooperativeKernel_v9000"), AC_FORBIDDEN);
    assert_int_equal(ac_classify("cuLaunchHostFunc"), AC_FORBIDDEN);
}

static void test_apicalls_copies(void **state)
{
    (void)state;
    /* Plain linear copies are copies (device to device may be work, where a lab allows it)... */
    assert_int_equal(ac_classify("cudaMemcpy_v3020"), AC_COPY);
    assert_int_equal(ac_classify("cudaMemcpyAsync_v3020"), AC_COPY);
    assert_int_equal(ac_classify("cudaMemcpyAsync_ptsz_v7000"), AC_COPY);
    assert_int_equal(ac_classify("cuMemcpy"), AC_COPY);
    assert_int_equal(ac_classify("cuMemcpyAsync"), AC_COPY);
    assert_int_equal(ac_classify("cuMemcpyDtoD_v2"), AC_COPY);
    assert_int_equal(ac_classify("cuMemcpyDtoDAsync_v2"), AC_COPY);
    assert_int_equal(ac_classify("cudaMemcpy2D_v3020"), AC_COPY);
    assert_int_equal(ac_classify("cudaMemcpy2DAsync_v3020"), AC_COPY);
    assert_int_equal(ac_classify("cudaMemcpy2DAsync_ptsz_v7000"), AC_COPY);
    /* ...every other copy is forbidden. */
    assert_int_equal(ac_classify("cuMemcpyHtoD_v2"), AC_FORBIDDEN);
    assert_int_equal(ac_classify("cuMemcpyDtoH_v2"), AC_FORBIDDEN);
    assert_int_equal(ac_classify("cudaMemcpy2DToArray_v3020"), AC_FORBIDDEN);
    assert_int_equal(ac_classify("cudaMemcpy3DAsync_v3020"), AC_FORBIDDEN);
    assert_int_equal(ac_classify("cuMemcpy2D_v2"), AC_FORBIDDEN);
    assert_int_equal(ac_classify("cudaMemcpyToSymbol_v3020"), AC_FORBIDDEN);
    assert_int_equal(ac_classify("cudaMemcpyPeerAsync_v4000"), AC_FORBIDDEN);
}

static void test_apicalls_memsets(void **state)
{
    (void)state;
    /* The runtime's memsets, linear and 2D, are recorded where they write the lab's buffers... */
    assert_int_equal(ac_classify("cudaMemset_v3020"), AC_MEMSET);
    assert_int_equal(ac_classify("cudaMemsetAsync_v3020"), AC_MEMSET);
    assert_int_equal(ac_classify("cudaMemsetAsync_ptsz_v7000"), AC_MEMSET);
    assert_int_equal(ac_classify("cudaMemset2D_v3020"), AC_MEMSET);
    assert_int_equal(ac_classify("cudaMemset2DAsync_v3020"), AC_MEMSET);
    /* ...3D ones and the driver's stay forbidden. */
    assert_int_equal(ac_classify("cudaMemset3DAsync_v3020"), AC_FORBIDDEN);
    assert_int_equal(ac_classify("cuMemsetD8_v2"), AC_FORBIDDEN);
    assert_int_equal(ac_classify("cuMemsetD32Async"), AC_FORBIDDEN);
}

static void test_apicalls_forbidden(void **state)
{
    (void)state;
    static const char *const forbidden[] = {
        "cudaMalloc_v3020",
        "cudaMallocManaged_v6000",
        "cudaFree_v3020",
        "cudaMemset3D_v3020",
        "cudaDeviceSynchronize_v3020",
        "cudaStreamSynchronize_v3020",
        "cudaStreamCreate_v3020",
        "cudaGraphLaunch_v10000",
        "cudaStreamBeginCapture_v10000",
        "cudaCreateTextureObject_v5000",
        "cuMemAlloc_v2",
        "cuMemsetD8_v2",
        "cuCtxSynchronize",
        "cuStreamCreate",
        "cuGraphLaunch",
        "cuMemAllocManaged",
        "cuTexObjectCreate",
        "cuCtxCreate_v4",
    };
    for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; ++i) {
        if (ac_classify(forbidden[i]) != AC_FORBIDDEN)
            fail_msg("'%s' should be forbidden", forbidden[i]);
        assert_true(strlen(ac_why(forbidden[i])) > 0);
    }
    assert_string_equal(ac_why("cudaDeviceSynchronize_v3020"), "it synchronises");
    assert_string_equal(ac_why("cuMemAlloc_v2"), "it allocates");
}

/* Memsets and copies inside the lab's buffers: which the recording takes. */
static void test_apicalls_transfers(void **state)
{
    (void)state;
    /* A memset of an output: every lab, before or after a kernel. */
    assert_null(ac_transfer_refused(0, 0, 0, 0, 0));
    assert_null(ac_transfer_refused(0, 0, 0, 0, 1));
    assert_null(ac_transfer_refused(0, 0, 0, 1, 1));
    /* Nothing writes an input, in any lab. */
    assert_non_null(strstr(ac_transfer_refused(0, 1, 0, 0, 0), "input"));
    assert_non_null(strstr(ac_transfer_refused(1, 1, 0, 1, 0), "input"));
    /* Where copies are work (lab 06), any copy into an output, at any time. */
    assert_null(ac_transfer_refused(1, 0, 1, 1, 0));
    assert_null(ac_transfer_refused(1, 0, 1, 1, 1));
    /* Elsewhere, an output from an output before the kernels only: a copy from an input would
     * do the task (y = x, then y *= a in place), one after a kernel would move its results. */
    assert_null(ac_transfer_refused(1, 0, 0, 0, 0));
    assert_non_null(strstr(ac_transfer_refused(1, 0, 1, 0, 0), "from an input"));
    assert_non_null(strstr(ac_transfer_refused(1, 0, 0, 0, 1), "after a kernel"));
}

static void test_apicalls_harmless(void **state)
{
    (void)state;
    static const char *const harmless[] = {
        "cudaGetLastError_v3020",
        "cudaPeekAtLastError_v3020",
        "cudaGetDevice_v3020",
        "cudaDeviceGetAttribute_v5000",
        "cudaFuncSetAttribute_v9000",
        "cuKernelGetName",
        "cuCtxGetCurrent",
        "cuModuleGetFunction",
        "cuLibraryGetKernel",
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor_v6050",
    };
    for (size_t i = 0; i < sizeof harmless / sizeof harmless[0]; ++i)
        if (ac_classify(harmless[i]) != AC_OTHER)
            fail_msg("'%s' should be nothing to note", harmless[i]);
}

/* ---- pointers ---- */

static const rl_buffer buffers[] = {
    {0x7f0000000000ull, 1 << 20}, /* 1 MiB */
    {0x7f0000100000ull, 4096},    /* right after it */
    {0x7f1000000000ull, 256},
};

static void test_relocate_locates(void **state)
{
    (void)state;
    uint32_t b;
    uint64_t d;
    assert_int_equal(rl_locate(buffers, 3, 0x7f0000000010ull, &b, &d), 0);
    assert_int_equal(b, 0);
    assert_true(d == 0x10);
    /* The end of buffer 0 is the start of buffer 1: inside comes first. */
    assert_int_equal(rl_locate(buffers, 3, 0x7f0000100000ull, &b, &d), 0);
    assert_int_equal(b, 1);
    assert_true(d == 0);
    /* A one-past-the-end pointer of a buffer with nothing after it is that buffer's. */
    assert_int_equal(rl_locate(buffers, 3, 0x7f1000000100ull, &b, &d), 0);
    assert_int_equal(b, 2);
    assert_true(d == 256);
    assert_int_equal(rl_locate(buffers, 3, 0x7f1000000101ull, &b, &d), -1);
    assert_int_equal(rl_locate(buffers, 3, 42, &b, &d), -1);
}

/* The parameters of kernel(float a, const float *x, struct {float *p; int n;} s, size_t n) as
 * the driver lays them out: 4, 8 (at 8), 16 (at 16), 8 (at 32). */
static void test_relocate_finds_and_applies(void **state)
{
    (void)state;
    unsigned char params[64];
    memset(params, 0, sizeof params);
    uint32_t off[] = {0, 8, 16, 32}, size[] = {4, 8, 16, 8};
    float a = 2.5f;
    uint64_t x = buffers[0].base + 4096, p = buffers[2].base + 64, n = 0x7f0000000000ull - 1;
    int32_t count = 17;
    memcpy(params + 0, &a, 4);
    memcpy(params + 8, &x, 8);
    memcpy(params + 16, &p, 8);
    memcpy(params + 24, &count, 4);
    memcpy(params + 32, &n, 8); /* a number just below a buffer: not a pointer */
    wi_reloc rel[8];
    uint32_t nrel = 99;
    assert_int_equal(rl_find(buffers, 3, params, off, size, 4, rel, 8, &nrel), 0);
    assert_int_equal(nrel, 2);
    assert_int_equal(rel[0].offset, 8);
    assert_int_equal(rel[0].buffer, 0);
    assert_true(rel[0].delta == 4096);
    assert_int_equal(rel[1].offset, 16); /* the structure's pointer field */
    assert_int_equal(rel[1].buffer, 2);
    assert_true(rel[1].delta == 64);
    /* More pointers than room: refused, not cut short. */
    wi_reloc one[1];
    assert_int_equal(rl_find(buffers, 3, params, off, size, 4, one, 1, &nrel), -1);
    nrel = 2;

    /* In another process the buffers lie elsewhere: the same places there. */
    uint64_t elsewhere[] = {0x7e0000000000ull, 0x7e0000200000ull, 0x7e5000000000ull};
    rl_apply(params, rel, nrel, elsewhere);
    uint64_t got;
    memcpy(&got, params + 8, 8);
    assert_true(got == elsewhere[0] + 4096);
    memcpy(&got, params + 16, 8);
    assert_true(got == elsewhere[2] + 64);
    memcpy(&got, params + 32, 8);
    assert_true(got == n); /* untouched */
    float a2;
    memcpy(&a2, params, 4);
    assert_true(a2 == 2.5f);
}

/* kernel(char tag, struct __attribute__((packed)) {char c; const float *x; float *y;} s, int n):
 * the structure has no alignment, so it starts at 1, x at 2 and y at 10, none a multiple of 8. */
static void test_relocate_finds_unaligned_pointers(void **state)
{
    (void)state;
    unsigned char params[32];
    memset(params, 0x5a, sizeof params);
    uint32_t off[] = {0, 1, 20}, size[] = {1, 17, 4};
    uint64_t x = buffers[0].base + 12, y = buffers[1].base + 4;
    int32_t n = 1000;
    memcpy(params + 2, &x, 8);
    memcpy(params + 10, &y, 8);
    memcpy(params + 20, &n, 4);
    wi_reloc rel[8];
    uint32_t nrel = 99;
    assert_int_equal(rl_find(buffers, 3, params, off, size, 3, rel, 8, &nrel), 0);
    /* Exactly the two: the bytes of a pointer read from a neighbouring offset spell none. */
    assert_int_equal(nrel, 2);
    assert_int_equal(rel[0].offset, 2);
    assert_int_equal(rel[0].buffer, 0);
    assert_true(rel[0].delta == 12);
    assert_int_equal(rel[1].offset, 10);
    assert_int_equal(rel[1].buffer, 1);
    assert_true(rel[1].delta == 4);

    uint64_t elsewhere[] = {0x7e0000000000ull, 0x7e0000200000ull, 0x7e5000000000ull};
    rl_apply(params, rel, nrel, elsewhere);
    uint64_t got;
    memcpy(&got, params + 2, 8);
    assert_true(got == elsewhere[0] + 12);
    memcpy(&got, params + 10, 8);
    assert_true(got == elsewhere[1] + 4);
    assert_int_equal(params[0], 0x5a); /* the bytes around them untouched */
    assert_int_equal(params[1], 0x5a);
    assert_int_equal(params[18], 0x5a);
    int32_t n2;
    memcpy(&n2, params + 20, 4);
    assert_int_equal(n2, 1000);
}

/* Where an unaligned word and an aligned one overlap and both look like pointers, the aligned
 * one is the pointer: struct {int a, b; float *p;} with a = 0 and b = 0, p at 8, next to a
 * buffer low in memory that the bytes 5..12 (three zeros and p's first five bytes) spell. */
static void test_relocate_prefers_aligned_pointers(void **state)
{
    (void)state;
    const rl_buffer low[] = {{0x7f0000000000ull, 1 << 20}, {0x10000000ull, 1 << 20}};
    unsigned char params[16];
    memset(params, 0, sizeof params);
    uint64_t p = low[0].base + 0x10;
    memcpy(params + 8, &p, 8);
    uint64_t spelled;
    memcpy(&spelled, params + 5, 8);
    assert_true(spelled == low[1].base); /* the trap is real */
    uint32_t off[] = {0}, size[] = {16};
    wi_reloc rel[4];
    uint32_t nrel = 99;
    assert_int_equal(rl_find(low, 2, params, off, size, 1, rel, 4, &nrel), 0);
    assert_int_equal(nrel, 1);
    assert_int_equal(rel[0].offset, 8);
    assert_int_equal(rel[0].buffer, 0);
    assert_true(rel[0].delta == 0x10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_apicalls_launches),
        cmocka_unit_test(test_apicalls_copies),
        cmocka_unit_test(test_apicalls_memsets),
        cmocka_unit_test(test_apicalls_transfers),
        cmocka_unit_test(test_apicalls_forbidden),
        cmocka_unit_test(test_apicalls_harmless),
        cmocka_unit_test(test_relocate_locates),
        cmocka_unit_test(test_relocate_finds_and_applies),
        cmocka_unit_test(test_relocate_finds_unaligned_pointers),
        cmocka_unit_test(test_relocate_prefers_aligned_pointers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
