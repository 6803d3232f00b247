/*
 * test_grade.c - gr_decide(): the verdict, score, reason and hint of outcomes built by hand,
 * from a kernel that does not compile to one that passes, with no GPU and no child process;
 * and gr_same_outputs(), which spares a measured replay's check the CPU reference.
 *
 * Build and run (the project CMake builds it as test_grade, linked with cl_grader):
 *   cmake --build build --target test_grade && build/test_grade
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <stdio.h>

#include "exit_codes.h"
#include "grade.h"
#include "runner.h"
#include "lab.h"
#include "outcome.h"

static void assert_close(double got, double want, double tol)
{
    if (fabs(got - want) > tol)
        fail_msg("got %.9g, want %.9g (tolerance %g)", got, want, tol);
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("'%s' is not in \"%s\"", part, text);
}

static void assert_lacks(const char *text, const char *part)
{
    if (strstr(text, part))
        fail_msg("'%s' should not be in \"%s\"", part, text);
}

/* A lab of its own, with uneven points and thresholds, so that sums cannot come out right by
 * accident. */
static const lab_spec uneven_spec = {
    .id = "42",
    .slug = "uneven",
    .title = "Uneven",
    .summary = "for tests",
    .min_load_eff = 0.80,
    .min_store_eff = 0.60,
    .points_correct = 50,
    .points_load = 20,
    .points_store = 7,
    .size_text = "n = 1",
    .check = NULL,
    .efficiency_hint = "Uneven's own advice.",
};

static const lab_spec *lab01(void)
{
    const lab_spec *s = lab_find("01");
    assert_non_null(s);
    return s;
}

/* Traffic of `requests` warp requests of bytes_per_request bytes, each over sectors_per_request
 * sectors: its efficiency is bytes_per_request / (32 x sectors_per_request). */
static oc_traffic traffic(double requests, double sectors_per_request, double bytes_per_request)
{
    oc_traffic t = {requests, requests * sectors_per_request, requests * bytes_per_request};
    return t;
}

/* A kernel that compiled, ran, left the guards alone, wrote the right values and was measured
 * with 100% loads and stores: each test spoils one thing. The verdict fields hold junk, which
 * gr_decide must overwrite. */
static oc_outcome good_outcome(const lab_spec *spec)
{
    oc_outcome o;
    memset(&o, 0, sizeof o);
    o.spec = spec;
    o.compiled = 1;
    o.ran = 1;
    o.guards_intact = 1;
    o.check_ok = 1;
    o.check.passed = 1;
    o.check.checked = 50331655;
    o.counters = OC_ENGINE_OK;
    o.load = traffic(1000, 4, 128);
    o.store = traffic(1000, 4, 128);
    o.verdict = (oc_verdict)-1;
    o.score = 999;
    o.max_score = 999;
    strcpy(o.reason, "stale reason");
    strcpy(o.hint, "stale hint");
    return o;
}

static void assert_verdict(const oc_outcome *o, oc_verdict verdict, int score, int max_score)
{
    assert_int_equal(o->verdict, verdict);
    assert_int_equal(o->score, score);
    assert_int_equal(o->max_score, max_score);
}

/* ---- failures before correctness ---- */

static void test_decide_not_compiled(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.compiled = 0;
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_string_equal(o.reason, "the kernel does not compile");
    assert_contains(o.hint, "compiler's first error");
}

static void test_decide_run_problem(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    /* A timeout is reported even when the child got as far as saving its outputs. */
    strcpy(o.run_problem, "timed out after 10 s: the kernel never finished");
    o.run_status = RN_TIMED_OUT;
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_string_equal(o.reason, "the kernel did not run to the end: timed out after 10 s: the "
                                  "kernel never finished");
    assert_contains(o.hint, "never reaches its bound");
}

static void test_decide_illegal_address_hint(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    strcpy(o.run_problem, "a CUDA call failed (the message below names it)");
    o.run_status = RN_EXITED;
    o.run_exit = CL_EXIT_CUDA;
    o.run_log = "kernel.cu:9: 'cudaDeviceSynchronize()' failed: cudaErrorIllegalAddress (...)";
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_contains(o.hint, "compute-sanitizer");
    o.run_log = NULL;
}

static void test_decide_contract_hint(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    strcpy(o.run_problem, "the compiled kernel does not fit the lab's launcher contract");
    o.run_status = RN_EXITED;
    o.run_exit = CL_EXIT_CONTRACT;
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_contains(o.hint, "extern \"C\"");
}

/* ---- the trace engine ---- */

static cl_tally tally(uint64_t requests, uint64_t sectors_per_request, uint64_t bytes_per_request)
{
    cl_tally t = {.requests = requests,
                  .sectors = requests * sectors_per_request,
                  .lines = requests,
                  .unique_bytes = requests * bytes_per_request,
                  .ideal_sectors = requests * ((bytes_per_request + 31) / 32)};
    return t;
}

static oc_outcome traced_outcome(uint64_t load_spr, uint64_t store_spr)
{
    oc_outcome o = good_outcome(lab01());
    o.trace = OC_ENGINE_OK;
    o.trace_loads = tally(1000, load_spr, 128);
    o.trace_stores = tally(1000, store_spr, 128);
    o.load = traffic(1000, load_spr, 128);
    o.store = traffic(1000, store_spr, 128);
    o.worst[0].found = o.worst[1].found = 1;
    o.worst[0].line = 22;
    o.worst[1].line = 23;
    o.worst[1].is_store = 1;
    o.worst[0].tally = tally(10, load_spr, 128);
    o.worst[1].tally = tally(10, store_spr, 128);
    o.worst[0].waste = 10.0 * (load_spr - 4);
    o.worst[1].waste = 10.0 * (store_spr - 4);
    return o;
}

static void test_decide_trace_grades_and_blames_the_load(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(32, 32);
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 40, 100);
    assert_string_equal(oc_engine_name(o.engine), "trace");
    assert_non_null(o.blamed);
    assert_int_equal(o.blamed->line, 22);
    assert_contains(o.hint, "The load on line 22");
    assert_string_equal(o.disagreement, "");
}

static void test_decide_trace_blames_the_failing_kind(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(4, 32); /* loads coalesced, stores not */
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 70, 100);
    assert_int_equal(o.blamed->line, 23);
    assert_contains(o.hint, "The store on line 23");
}

static void test_decide_engines_disagree_is_reported(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(4, 4);
    o.load = traffic(1000, 32, 128); /* the counters saw something else */
    gr_decide(&o);
    /* Issue 10: engines that disagree fail the coalescing part, saying so (they used to be
     * reported only, the trace graded). */
    assert_verdict(&o, OC_FAIL, 40, 100);
    assert_contains(o.disagreement, "loads: trace 4.00, counters 32.00");
    assert_contains(o.reason, "disagree");
}

/* A sparser trace sample is a noisier estimate: 4% apart is a disagreement at one warp in 16,
 * none at one in 128 (the bar grows as the square root of the interval: 5.7% there). */
static void test_decide_engines_agreement_follows_the_sampling(void **state)
{
    (void)state;
    for (int sparse = 0; sparse < 2; ++sparse) {
        oc_outcome o = traced_outcome(4, 4);
        o.trace_sample = sparse ? 128 : 16;
        o.load = traffic(1000, 4.16, 128);
        gr_decide(&o);
        if (sparse) {
            assert_string_equal(o.disagreement, "");
            assert_verdict(&o, OC_PASS, 100, 100);
        } else {
            assert_contains(o.disagreement, "loads: trace 4.00, counters 4.16");
            assert_verdict(&o, OC_FAIL, 40, 100);
        }
    }
}

/* Issues 10 and 34: cheap coalesced re-reads cannot dilute a strided load's waste. 1000 strided
 * loads (32 sectors for 128 bytes) padded with 100 ideal re-reads each: 93.5% a request, but the
 * least traffic y = a*x needs (each x read once, 4000 sectors) against the 432000 sectors they
 * moved is under 1%. */
static void test_decide_dilution_is_counted_against_the_task(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(32, 4);
    o.useful_bytes = 2.0 * 1000 * 128;
    o.least_bytes[0] = o.least_bytes[1] = 1000 * 128;
    cl_tally pad = tally(100000, 4, 128);
    o.trace_loads.requests += pad.requests;
    o.trace_loads.sectors += pad.sectors;
    o.trace_loads.unique_bytes += pad.unique_bytes;
    o.trace_loads.ideal_sectors += pad.ideal_sectors;
    o.load = traffic(101000, 4.28, 128); /* the counters, alike */
    o.counters = OC_ENGINE_NOT_RUN;
    gr_decide(&o);
    assert_true(cl_tally_efficiency(&o.trace_loads) > 0.9);
    assert_verdict(&o, OC_FAIL, 70, 100);
    assert_true(o.load_by_task && !o.store_by_task);
    assert_close(o.load_eff, 4000.0 / 432000.0, 1e-9);
}

/* Issue 34: a strided load split into one-lane requests is ideal request by request (one sector
 * for one lane's word) and still moves 32 sectors for every 4 the task needs: 12.5%. */
static void test_decide_split_requests_are_counted_against_the_task(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(4, 4);
    o.least_bytes[0] = o.least_bytes[1] = 1000 * 128;
    o.trace_loads = tally(32000, 1, 4); /* 32 one-lane requests where one would do */
    o.load = traffic(32000, 1, 4);
    gr_decide(&o);
    assert_close(cl_tally_efficiency(&o.trace_loads), 1.0, 1e-12);
    assert_verdict(&o, OC_FAIL, 70, 100);
    assert_true(o.load_by_task && !o.store_by_task);
    assert_close(o.load_eff, 0.125, 1e-9);
    assert_close(o.load_task_eff, 0.125, 1e-9);
    /* The hint speaks of the task's sectors, not of one request (which is ideal). */
    assert_contains(o.hint, "Loads moved 8.0 times the sectors the task needs at the least, 4.0 "
                            "bytes a request");
}

static void test_decide_honest_kernel_is_not_lowered_by_the_task(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(4, 4);
    o.useful_bytes = 2.0 * 1000 * 128;
    o.least_bytes[0] = o.least_bytes[1] = 1000 * 128;
    gr_decide(&o);
    assert_verdict(&o, OC_PASS, 100, 100);
    assert_false(o.load_by_task || o.store_by_task);
    assert_close(o.load_task_eff, 1.0, 1e-12);
}

/* Moving less than the yardstick (a product with larger tiles than it assumes) is 100%, never
 * more. */
static void test_decide_task_efficiency_is_at_most_one(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(4, 4);
    o.least_bytes[0] = 4.0 * 1000 * 128;
    o.least_bytes[1] = 1000 * 128;
    gr_decide(&o);
    assert_verdict(&o, OC_PASS, 100, 100);
    assert_close(o.load_task_eff, 1.0, 1e-12);
    assert_close(o.load_eff, 1.0, 1e-12);
}

/* Where the trace ran a smaller problem, the counters' sectors at the graded size are weighed
 * against the graded problem's least traffic too: a kernel that splits its requests only where
 * the trace does not look fails there. */
static void test_decide_graded_size_is_counted_against_the_task(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(4, 4);
    o.trace_smaller = 1;
    o.trace_least_bytes[0] = o.trace_least_bytes[1] = 1000 * 128;
    o.least_bytes[0] = o.least_bytes[1] = 8000 * 128;
    o.load = traffic(256000, 1, 4); /* 32 one-lane requests for each of 8000 */
    o.store = traffic(8000, 4, 128);
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 70, 100);
    assert_true(o.load_by_task && !o.store_by_task);
    assert_close(o.load_eff, 0.125, 1e-9);
}

/* No verdict from half the evidence: a kernel that overflows the trace is not graded on the
 * counters; a trace that failed as a tool, or counters that did, leave the lab NOT GRADED. */
static void test_decide_trace_overflow_is_never_passed_by_the_counters(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01()); /* the counters: 100% */
    o.trace = OC_ENGINE_RUN_FAILED;
    strcpy(o.trace_why, "its kernels made more memory accesses than the trace can hold");
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 40, 100);
    assert_contains(o.reason, "more memory accesses than the trace can hold");
}

static void test_decide_failed_trace_is_never_passed_by_the_counters(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.trace = OC_ENGINE_FAILED;
    strcpy(o.trace_why, "more than 64 different kernels were launched");
    gr_decide(&o);
    assert_verdict(&o, OC_NOT_GRADED, 40, 100);
    assert_contains(o.reason, "trace engine failed (more than 64 different kernels");
}

/* Atomics and generic-address accesses: the trace measures them, the counters do not count
 * them. Compared, they are left out of the trace's side; graded by the counters alone, a kernel
 * that has them is not graded. */
static void test_decide_atomics_are_compared_on_what_both_count(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(4, 4);
    cl_tally atomics = tally(500, 1, 4); /* one lane's tile counter in 500 blocks */
    o.trace_stores.requests += atomics.requests;
    o.trace_stores.sectors += atomics.sectors;
    o.trace_stores.unique_bytes += atomics.unique_bytes;
    o.trace_stores.ideal_sectors += atomics.ideal_sectors;
    o.trace_blind[1] = atomics;
    o.counters_blind = 1;
    gr_decide(&o);
    assert_string_equal(o.disagreement, "");
    assert_verdict(&o, OC_PASS, 100, 100);

    o = good_outcome(lab01()); /* the counters alone */
    o.counters_blind = 3;
    gr_decide(&o);
    assert_verdict(&o, OC_NOT_GRADED, 40, 100);
    assert_contains(o.reason, "3 global atomic or generic-address memory instructions");
}

static void test_decide_failed_counters_leave_the_trace_ungraded(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(4, 4);
    o.counters = OC_ENGINE_FAILED;
    strcpy(o.counters_why, "CUPTI_ERROR_HARDWARE_BUSY");
    gr_decide(&o);
    assert_verdict(&o, OC_NOT_GRADED, 40, 100);
    assert_contains(o.reason, "the counters failed (CUPTI_ERROR_HARDWARE_BUSY)");
    /* Where the trace alone fails the lab anyway, it is failed. */
    o = traced_outcome(32, 32);
    o.counters = OC_ENGINE_FAILED;
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 40, 100);
}

static void test_decide_wrong_while_measured_fails_with_nothing(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(4, 4);
    strcpy(o.measured_wrong, "while it was traced");
    strcpy(o.measured_check.details, "y[0]: got 1, want 2");
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_contains(o.reason, "wrong while it was traced: y[0]");
}

static void test_decide_out_of_bounds_reads_fail(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(4, 4);
    o.oob_reads = 31;
    o.oob_line = 12;
    strcpy(o.oob_file, "kernel.cu");
    strcpy(o.oob_text, "float v = x[i + 1];");
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 40, 100);
    assert_contains(o.reason, "reads outside its arrays: 31 loads");
    assert_contains(o.reason, "kernel.cu:12: float v = x[i + 1];");
}

static void test_decide_kernel_failing_under_the_trace_fails(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.trace = OC_ENGINE_RUN_FAILED;
    strcpy(o.trace_why, "a CUDA call failed (the message below names it)");
    o.counters = OC_ENGINE_NO_PERMISSION;
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 40, 100);
    assert_contains(o.reason, "failed when run again to measure it");
}

static void test_decide_trace_tool_failure_is_not_graded(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.trace = OC_ENGINE_FAILED;
    strcpy(o.trace_why, "sanitizerPatchModule failed");
    o.counters = OC_ENGINE_NO_PERMISSION;
    gr_decide(&o);
    assert_verdict(&o, OC_NOT_GRADED, 40, 100);
}

static void test_decide_too_few_bytes_moved_fails(void **state)
{
    (void)state;
    oc_outcome o = traced_outcome(4, 4);
    o.useful_bytes = 402653240.0; /* lab 01: far more than 2 x 1000 x 128 bytes */
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 40, 100);
    assert_contains(o.reason, "moved only");
}

static void test_decide_did_not_run_without_problem(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.ran = 0;
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_string_equal(o.reason, "the kernel did not run to the end: no result");
}

static void test_decide_guards_broken(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.guards_intact = 0;
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_contains(o.reason, "outside");
    assert_contains(o.reason, "guard bytes");
    assert_contains(o.hint, "bound test");
}

/* ---- wrong output ---- */

static void test_decide_wrong_output(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.check.passed = 0;
    o.check.mismatches = 3;
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_string_equal(o.reason, "the output is wrong: 3 of 50331655 elements differ");
    assert_contains(o.hint, "first wrong coordinates");
    assert_lacks(o.hint, "grid");
}

static void test_decide_wrong_output_uses_the_labs_hint(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.check.passed = 0;
    o.check.mismatches = 23;
    strcpy(o.check.hint, "The lab's own words.");
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_string_equal(o.hint, "The lab's own words.");
}

static void test_decide_unwritten_elements(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.check.passed = 0;
    o.check.mismatches = 7;
    o.check.unwritten = 7;
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_string_equal(o.reason, "the output is wrong: 7 of 50331655 elements differ");
    assert_contains(o.hint, "grid does not cover the whole array");
}

static void test_decide_check_could_not_compare(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.check_ok = 0; /* check.passed left at 1: check_ok alone must fail it */
    strcpy(o.check.details, "'y' holds 12 bytes, expected 201326620");
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_contains(o.reason, "could not be checked: 'y' holds 12 bytes");
}

/* ---- correct, efficiency not measured ---- */

static void test_decide_counters_no_permission(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.counters = OC_ENGINE_NO_PERMISSION;
    strcpy(o.counters_why, "ERR_NVGPUCTRPERM: the driver keeps the counters to root");
    /* Whatever traffic is lying around is not used. */
    o.load = traffic(1000, 32, 128);
    gr_decide(&o);
    assert_verdict(&o, OC_NOT_GRADED, 40, 100);
    assert_int_equal(o.efficiency_measured, 0);
    assert_string_equal(o.reason, "correct; coalescing was not measured on this machine "
                                  "(ERR_NVGPUCTRPERM: the driver keeps the counters to root)");
    assert_contains(o.hint, "doctor");
    assert_contains(o.hint, "correctness points are kept");
}

static void test_decide_counters_not_run(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(&uneven_spec);
    o.counters = OC_ENGINE_NOT_RUN;
    gr_decide(&o);
    assert_verdict(&o, OC_NOT_GRADED, 50, 77);
    assert_contains(o.reason, "(no engine ran)");
}

/* ---- correct, efficiency measured ---- */

static void test_decide_all_coalesced_passes(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    gr_decide(&o);
    assert_verdict(&o, OC_PASS, 100, 100);
    assert_int_equal(o.efficiency_measured, 1);
    assert_close(o.load_eff, 1.0, 1e-12);
    assert_close(o.store_eff, 1.0, 1e-12);
    assert_string_equal(o.reason, "correct, and loads and stores are coalesced");
    assert_string_equal(o.hint, "");
}

static void test_decide_strided_fails_both(void **state)
{
    (void)state;
    const lab_spec *s = lab01();
    oc_outcome o = good_outcome(s);
    o.load = traffic(1000, 32, 128);
    o.store = traffic(1000, 32, 128);
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 40, 100);
    assert_close(o.load_eff, 0.125, 1e-12);
    assert_close(o.store_eff, 0.125, 1e-12);
    assert_string_equal(o.reason, "correct, but loads and stores are not coalesced enough");
    assert_true(strncmp(o.hint, "Loads: ", 7) == 0);
    assert_contains(o.hint, "32 bytes or more apart");
    assert_non_null(s->efficiency_hint);
    assert_contains(o.hint, s->efficiency_hint);
}

static void test_decide_stores_low_only(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.store = traffic(1000, 8, 128); /* stride 2: 50% */
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 70, 100);
    assert_close(o.load_eff, 1.0, 1e-12);
    assert_close(o.store_eff, 0.5, 1e-12);
    assert_contains(o.reason, "correct, but stores ");
    assert_string_equal(o.reason, "correct, but stores are not coalesced enough");
    assert_lacks(o.reason, "loads");
    /* The hint is about the stores, the access that fell short. */
    assert_true(strncmp(o.hint, "Stores: ", 8) == 0);
    assert_contains(o.hint, "stride of 2");
    assert_lacks(o.hint, "Loads");
}

static void test_decide_loads_low_only(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(&uneven_spec);
    o.load = traffic(1000, 12, 128); /* a 12-byte struct: 33% */
    o.store = traffic(1000, 5, 128); /* 80%, above the 60% store bar */
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 50 + 7, 77);
    assert_contains(o.reason, "correct, but loads ");
    assert_lacks(o.reason, "stores");
    assert_true(strncmp(o.hint, "Loads: ", 7) == 0);
    assert_contains(o.hint, "12-byte struct");
    assert_contains(o.hint, "Uneven's own advice.");
}

static void test_decide_threshold_is_inclusive(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    /* 144 / (32 x 5) is exactly the 90% bar. */
    o.load = traffic(1, 5, 144);
    o.store = traffic(1, 5, 144);
    gr_decide(&o);
    assert_verdict(&o, OC_PASS, 100, 100);

    o = good_outcome(lab01());
    o.load = traffic(1, 5, 143); /* just under */
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 70, 100);
}

static void test_decide_no_global_loads(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.load = traffic(0, 0, 0);
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 40, 100);
    assert_contains(o.reason, "no global loads");
    assert_contains(o.hint, "GPU memory");
}

static void test_decide_no_global_stores(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.store = traffic(0, 0, 0);
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 40, 100);
    assert_contains(o.reason, "no global stores");
}

static void test_decide_hint_without_lab_advice(void **state)
{
    (void)state;
    lab_spec quiet = uneven_spec;
    quiet.efficiency_hint = NULL;
    oc_outcome o = good_outcome(&quiet);
    o.load = traffic(1000, 32, 128);
    gr_decide(&o);
    assert_int_equal(o.verdict, OC_FAIL);
    assert_true(strncmp(o.hint, "Loads: ", 7) == 0);
    /* The signature alone: nothing of another lab's advice, no "(null)". */
    assert_contains(o.hint, "32 bytes or more apart");
    assert_lacks(o.hint, "(null)");
    assert_lacks(o.hint, "grid-stride");
}

/* ---- the speed gate and a smaller traced problem (lab 04's kind of spec) ---- */

static const lab_spec gated_spec = {
    .id = "43",
    .slug = "gated",
    .title = "Gated",
    .summary = "for tests",
    .min_load_eff = 0.90,
    .min_store_eff = 0.90,
    .points_correct = 40,
    .points_load = 20,
    .points_store = 10,
    .points_speed = 25,
    .min_speedup = 1.5,
    .baseline_text = "the grader's slow kernel",
    .speed_hint = "Gated's speed advice.",
    .trace_size_text = "a smaller problem",
    .size_text = "n = 1",
    .efficiency_hint = "Gated's own advice.",
};

/* Coalesced or not as asked, timed at student_ms against a 3 ms baseline. */
static oc_outcome gated_outcome(uint64_t load_spr, double student_ms)
{
    oc_outcome o = traced_outcome(load_spr, 4);
    o.spec = &gated_spec;
    o.trace_smaller = 1;
    o.timed = 1;
    o.baseline_ms = 3.0;
    o.student_ms = student_ms;
    return o;
}

static void test_decide_speed_gate_passes(void **state)
{
    (void)state;
    oc_outcome o = gated_outcome(4, 1.5); /* 2x */
    gr_decide(&o);
    assert_verdict(&o, OC_PASS, 95, 95);
    assert_int_equal(o.score_speed, 25);
    assert_close(o.speedup, 2.0, 1e-12);
    assert_contains(o.reason, "2.00x as fast as the grader's slow kernel (need >= 1.50x)");
}

static void test_decide_speed_gate_is_inclusive(void **state)
{
    (void)state;
    oc_outcome o = gated_outcome(4, 2.0); /* exactly 1.5x */
    gr_decide(&o);
    assert_verdict(&o, OC_PASS, 95, 95);
}

static void test_decide_coalesced_but_slow_loses_only_speed(void **state)
{
    (void)state;
    oc_outcome o = gated_outcome(4, 2.5); /* 1.2x */
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 70, 95);
    assert_int_equal(o.score_speed, 0);
    assert_contains(o.reason, "correct and coalesced, but only 1.20x as fast");
    assert_string_equal(o.hint, "Gated's speed advice.");
}

static void test_decide_uncoalesced_and_slow_names_both(void **state)
{
    (void)state;
    oc_outcome o = gated_outcome(32, 6.0); /* 0.5x, loads at 12.5% */
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 50, 95);
    assert_contains(o.reason, "loads are not coalesced enough; and only 0.50x");
    assert_contains(o.hint, "The load on line 22"); /* coalescing first */
    assert_contains(o.hint, "Gated's own advice.");
}

static void test_decide_speed_not_timed_is_not_graded(void **state)
{
    (void)state;
    oc_outcome o = gated_outcome(4, 1.0);
    o.timed = 0; /* --no-timing */
    gr_decide(&o);
    assert_verdict(&o, OC_NOT_GRADED, 70, 95);
    assert_contains(o.hint, "without --no-timing");
}

static void test_decide_speed_counts_when_coalescing_is_not_measured(void **state)
{
    (void)state;
    oc_outcome o = gated_outcome(4, 1.0); /* 3x */
    o.trace = OC_ENGINE_UNSUPPORTED;
    o.counters = OC_ENGINE_NO_PERMISSION;
    gr_decide(&o);
    assert_verdict(&o, OC_NOT_GRADED, 65, 95);
    assert_close(o.speedup, 3.0, 1e-12);
    assert_contains(o.hint, "your correctness and speed points are kept");
}

/* The trace saw a smaller problem: where the counters, which see the graded one, failed, the
 * trace alone gives no coalescing points (a kernel that does otherwise at the graded size would
 * pass on it); where they cannot be read on this machine at all, the trace still grades. */
static void test_decide_smaller_trace_needs_the_counters_that_ran(void **state)
{
    (void)state;
    oc_outcome o = gated_outcome(4, 1.5); /* coalesced where traced, 2x */
    o.counters = OC_ENGINE_FAILED;
    strcpy(o.counters_why, "cuptiProfilerHostInitialize failed: CUPTI_ERROR_UNKNOWN");
    gr_decide(&o);
    assert_verdict(&o, OC_NOT_GRADED, 65, 95);
    assert_int_equal(o.score_load + o.score_store, 0);
    assert_int_equal(o.score_speed, 25);
    assert_contains(o.reason, "the counters, which measure the graded one, failed "
                              "(cuptiProfilerHostInitialize failed: CUPTI_ERROR_UNKNOWN)");
    assert_contains(o.hint, "Grade it again. If the counters fail again");

    /* Failing the counters gains nothing where the trace gives no coalescing points anyway;
     * where it would give some, none are given. */
    o = gated_outcome(32, 1.5); /* loads and (below) stores uncoalesced where traced */
    o.trace_stores = tally(1000, 32, 128);
    o.counters = OC_ENGINE_FAILED;
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 65, 95);
    assert_int_equal(o.score_load + o.score_store, 0);
    o = gated_outcome(32, 1.5); /* stores still coalesced: their 10 points not on the trace */
    o.counters = OC_ENGINE_FAILED;
    gr_decide(&o);
    assert_verdict(&o, OC_NOT_GRADED, 65, 95);

    o = gated_outcome(4, 1.5);
    o.counters = OC_ENGINE_NO_PERMISSION;
    gr_decide(&o);
    assert_verdict(&o, OC_PASS, 95, 95);

    /* Issue 34: even where the trace saw the graded problem itself, counters that failed leave
     * its sampled warps unchecked: no coalescing points from the trace alone. */
    o = gated_outcome(4, 1.5);
    o.trace_smaller = 0;
    o.counters = OC_ENGINE_FAILED;
    gr_decide(&o);
    assert_verdict(&o, OC_NOT_GRADED, 65, 95);
    assert_contains(o.reason, "the counters failed");
}

static void test_decide_smaller_trace_uses_its_own_bytes(void **state)
{
    (void)state;
    oc_outcome o = gated_outcome(4, 1.0);
    o.useful_bytes = 1e9;            /* the full problem: far more than the trace saw */
    o.trace_useful_bytes = 200000.0; /* the traced one: 2 x 1000 x 128 bytes is enough */
    o.load = traffic(1e7, 4.4, 128); /* full size: 10% more sectors (its edges), 1.28 GB */
    o.store = traffic(1e7, 2, 64);   /* and 640 MB more: the full problem's bytes moved */
    gr_decide(&o);
    assert_verdict(&o, OC_PASS, 95, 95);
    assert_string_equal(o.disagreement, "");
    o.trace_useful_bytes = 1e6; /* more than the trace moved */
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 40, 95);
    assert_contains(o.reason, "moved only 0.26 MB of the 1.00 MB");
}

/* Issue 10: a kernel laid out otherwise on the graded size than on the smaller traced one
 * (lab 04's size_switch): the counters saw the graded size, and their sectors per request are
 * far from the trace's. */
static void test_decide_smaller_trace_disagreeing_with_full_size_counters_fails(void **state)
{
    (void)state;
    oc_outcome o = gated_outcome(4, 1.0);
    o.useful_bytes = 1e9;
    o.trace_useful_bytes = 200000.0;
    o.load = traffic(1e7, 32, 64);
    o.store = traffic(1e7, 4, 64);
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 65, 95); /* correctness and speed kept */
    assert_contains(o.disagreement,
                    "loads: 4.00 sectors/request by the trace on the smaller problem, 32.00 by the "
                    "counters on the graded one");
    assert_contains(o.reason, "disagree");
}

/* Traced at 4 sectors/request on the smaller problem; the counters at load_spr on the graded. */
static oc_outcome counted_at(const lab_spec *spec, double load_spr)
{
    oc_outcome o = gated_outcome(4, 1.0);
    o.spec = spec;
    o.useful_bytes = 1e9;
    o.trace_useful_bytes = 2e8;
    o.load = traffic(1e7, load_spr, 128);
    o.store = traffic(1e7, 4, 128);
    gr_decide(&o);
    return o;
}

/* A lab whose smaller traced problem has the graded one's pattern (labs 06, 07) compares the
 * engines tightly: rows pitched where the trace looks and packed at the graded size (4.0 against
 * 4.8 sectors/request, 1.2x, within lab 04's 1.5) disagree. */
static void test_decide_same_pattern_trace_ratio_is_tight(void **state)
{
    (void)state;
    oc_outcome o = counted_at(&gated_spec, 4.8);
    assert_string_equal(o.disagreement, ""); /* the default 1.5 lets 1.2x through */
    lab_spec tight = gated_spec;
    tight.trace_ratio = 1.08;
    o = counted_at(&tight, 4.8);
    assert_contains(o.disagreement, "loads: 4.00 sectors/request by the trace on the smaller "
                                    "problem, 4.80 by the counters on the graded one");
    assert_int_equal(o.verdict, OC_FAIL);
    o = counted_at(&tight, 4.03); /* within 1%, as the labs' own kernels measure */
    assert_string_equal(o.disagreement, "");
}

/* A broadcast (lab 04's naive kernel reads one element of A per warp) is one lane's bytes to
 * the counters and a perfect access to the trace: low counter efficiency with the trace's
 * sectors per request (10% more at the graded size) is no disagreement. */
static void test_decide_smaller_trace_broadcast_is_no_disagreement(void **state)
{
    (void)state;
    oc_outcome o = gated_outcome(4, 1.0);
    o.useful_bytes = 1e9;
    o.trace_useful_bytes = 200000.0;
    o.load = traffic(1e7, 4.4, 64); /* 45% by the counters' bytes */
    o.store = traffic(1e7, 4, 128);
    gr_decide(&o);
    assert_verdict(&o, OC_PASS, 95, 95);
    assert_string_equal(o.disagreement, "");
}

static void test_decide_smaller_trace_and_full_size_counters_short(void **state)
{
    (void)state;
    /* The traced small problem moved its bytes, but at full size the counters saw far fewer
     * than the task needs: the full-size run did part of its work elsewhere. */
    oc_outcome o = gated_outcome(4, 1.0);
    o.useful_bytes = 1e9;
    o.trace_useful_bytes = 200000.0;
    o.load = traffic(1000, 4, 128); /* 128 kB at full size */
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 40, 95);
    assert_contains(o.reason, "moved only 0.26 MB of the 1000.00 MB");
    o.counters = OC_ENGINE_NO_PERMISSION; /* without counters, the trace's problem is all */
    gr_decide(&o);
    assert_verdict(&o, OC_PASS, 95, 95);
}

/* ---- the stage: which gate stopped the lab, for the report to read ---- */

static void test_decide_records_the_stage(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    gr_decide(&o);
    assert_int_equal(o.stage, OC_STAGE_PASSED);
    assert_string_equal(oc_stage_name(o.stage), "passed");

    o = good_outcome(lab01());
    o.compiled = 0;
    o.ran = 0; /* a later gate's failure does not hide the first */
    gr_decide(&o);
    assert_int_equal(o.stage, OC_STAGE_BUILD);

    o = good_outcome(lab01());
    o.guards_intact = 0;
    o.check.passed = 0;
    gr_decide(&o);
    assert_int_equal(o.stage, OC_STAGE_GUARDS);

    o = good_outcome(lab01());
    o.check.passed = 0;
    gr_decide(&o);
    assert_int_equal(o.stage, OC_STAGE_CORRECTNESS);

    o = good_outcome(lab01());
    o.counters = OC_ENGINE_NO_PERMISSION;
    gr_decide(&o);
    assert_int_equal(o.stage, OC_STAGE_UNMEASURED);

    o = good_outcome(lab01());
    o.store = traffic(1000, 8, 128);
    gr_decide(&o);
    assert_int_equal(o.stage, OC_STAGE_COALESCING);
    assert_string_equal(oc_stage_name(o.stage), "coalescing");

    o = gated_outcome(4, 2.5);
    gr_decide(&o);
    assert_int_equal(o.stage, OC_STAGE_SPEED);
}

/* ---- what the recording found ---- */

static void test_decide_contract_broken(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    strcpy(o.refused, "it called cudaMemcpy_v3020 to copy to or from the host; the contract "
                      "forbids it");
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_int_equal(o.stage, OC_STAGE_CONTRACT);
    assert_contains(o.reason, "broke lab 01's contract: it called cudaMemcpy_v3020");
    assert_contains(o.hint, "default stream");
}

static void test_decide_replay_differs_from_the_launchers_run(void **state)
{
    (void)state;
    oc_outcome o = good_outcome(lab01());
    o.check.passed = 0;
    o.check.mismatches = 50331655;
    o.recorded_run_correct = 1;
    gr_decide(&o);
    assert_verdict(&o, OC_FAIL, 0, 100);
    assert_int_equal(o.stage, OC_STAGE_CORRECTNESS);
    assert_contains(o.reason, "replayed");
    assert_contains(o.reason, "outside those launches");
}

/* ---- a measured replay's outputs against the checked run's ---- */

static void write_bytes(const char *dir, const char *name, const char *bytes, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

static void test_same_outputs_needs_every_byte_of_every_output(void **state)
{
    (void)state;
    char root[] = "/tmp/test-grade-XXXXXX", run[64], other[64], link_to[128];
    assert_non_null(mkdtemp(root));
    snprintf(run, sizeof run, "%s/run", root);
    snprintf(other, sizeof other, "%s/trace", root);
    assert_int_equal(mkdir(run, 0700), 0);
    assert_int_equal(mkdir(other, 0700), 0);
    static char big[200000];
    memset(big, 7, sizeof big);
    write_bytes(run, "y.bin", big, sizeof big);
    write_bytes(run, "z.bin", "abc", 3);
    write_bytes(run, "result.json", "{}", 2);
    assert_int_equal(gr_same_outputs(run, other), 0); /* none there */
    write_bytes(other, "y.bin", big, sizeof big);
    assert_int_equal(gr_same_outputs(run, other), 0); /* z.bin missing */
    write_bytes(other, "z.bin", "abc", 3);
    write_bytes(other, "result.json", "{\"other\": 1}", 12); /* not an output */
    assert_int_equal(gr_same_outputs(run, other), 1);
    big[sizeof big - 1] = 8; /* one byte, past the first read's worth */
    write_bytes(other, "y.bin", big, sizeof big);
    assert_int_equal(gr_same_outputs(run, other), 0);
    write_bytes(other, "y.bin", big, sizeof big - 1); /* shorter */
    assert_int_equal(gr_same_outputs(run, other), 0);
    /* a link to the checked file itself is never followed */
    snprintf(link_to, sizeof link_to, "%s/y.bin", other);
    unlink(link_to);
    char target[128];
    snprintf(target, sizeof target, "%s/y.bin", run);
    assert_int_equal(symlink(target, link_to), 0);
    assert_int_equal(gr_same_outputs(run, other), 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decide_not_compiled),
        cmocka_unit_test(test_decide_run_problem),
        cmocka_unit_test(test_decide_illegal_address_hint),
        cmocka_unit_test(test_decide_contract_hint),
        cmocka_unit_test(test_decide_trace_grades_and_blames_the_load),
        cmocka_unit_test(test_decide_trace_blames_the_failing_kind),
        cmocka_unit_test(test_decide_engines_disagree_is_reported),
        cmocka_unit_test(test_decide_engines_agreement_follows_the_sampling),
        cmocka_unit_test(test_decide_dilution_is_counted_against_the_task),
        cmocka_unit_test(test_decide_honest_kernel_is_not_lowered_by_the_task),
        cmocka_unit_test(test_decide_split_requests_are_counted_against_the_task),
        cmocka_unit_test(test_decide_task_efficiency_is_at_most_one),
        cmocka_unit_test(test_decide_graded_size_is_counted_against_the_task),
        cmocka_unit_test(test_decide_trace_overflow_is_never_passed_by_the_counters),
        cmocka_unit_test(test_decide_failed_trace_is_never_passed_by_the_counters),
        cmocka_unit_test(test_decide_failed_counters_leave_the_trace_ungraded),
        cmocka_unit_test(test_decide_atomics_are_compared_on_what_both_count),
        cmocka_unit_test(test_decide_wrong_while_measured_fails_with_nothing),
        cmocka_unit_test(test_decide_out_of_bounds_reads_fail),
        cmocka_unit_test(test_decide_kernel_failing_under_the_trace_fails),
        cmocka_unit_test(test_decide_trace_tool_failure_is_not_graded),
        cmocka_unit_test(test_decide_too_few_bytes_moved_fails),
        cmocka_unit_test(test_decide_did_not_run_without_problem),
        cmocka_unit_test(test_decide_guards_broken),
        cmocka_unit_test(test_decide_wrong_output),
        cmocka_unit_test(test_decide_wrong_output_uses_the_labs_hint),
        cmocka_unit_test(test_decide_unwritten_elements),
        cmocka_unit_test(test_decide_check_could_not_compare),
        cmocka_unit_test(test_decide_counters_no_permission),
        cmocka_unit_test(test_decide_counters_not_run),
        cmocka_unit_test(test_decide_all_coalesced_passes),
        cmocka_unit_test(test_decide_records_the_stage),
        cmocka_unit_test(test_decide_contract_broken),
        cmocka_unit_test(test_decide_replay_differs_from_the_launchers_run),
        cmocka_unit_test(test_decide_strided_fails_both),
        cmocka_unit_test(test_decide_stores_low_only),
        cmocka_unit_test(test_decide_loads_low_only),
        cmocka_unit_test(test_decide_threshold_is_inclusive),
        cmocka_unit_test(test_decide_no_global_loads),
        cmocka_unit_test(test_decide_no_global_stores),
        cmocka_unit_test(test_decide_hint_without_lab_advice),
        cmocka_unit_test(test_decide_speed_gate_passes),
        cmocka_unit_test(test_decide_speed_gate_is_inclusive),
        cmocka_unit_test(test_decide_coalesced_but_slow_loses_only_speed),
        cmocka_unit_test(test_decide_uncoalesced_and_slow_names_both),
        cmocka_unit_test(test_decide_speed_not_timed_is_not_graded),
        cmocka_unit_test(test_decide_speed_counts_when_coalescing_is_not_measured),
        cmocka_unit_test(test_decide_smaller_trace_needs_the_counters_that_ran),
        cmocka_unit_test(test_decide_smaller_trace_uses_its_own_bytes),
        cmocka_unit_test(test_decide_smaller_trace_disagreeing_with_full_size_counters_fails),
        cmocka_unit_test(test_decide_same_pattern_trace_ratio_is_tight),
        cmocka_unit_test(test_decide_smaller_trace_broadcast_is_no_disagreement),
        cmocka_unit_test(test_decide_smaller_trace_and_full_size_counters_short),
        cmocka_unit_test(test_same_outputs_needs_every_byte_of_every_output),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
