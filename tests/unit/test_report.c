/*
 * test_report.c - what a run prints: the JSON report (parsed back with cJSON), the closing
 * summary line, and one lab's text report, all captured from outcomes built by hand.
 *
 * Build and run (the project CMake builds it as test_report, linked with cl_grader):
 *   cmake --build build --target test_report && build/test_report
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devinfo.h"
#include "lab.h"
#include "outcome.h"
#include "report.h"

static void assert_close(double got, double want, double tol)
{
    if (fabs(got - want) > tol)
        fail_msg("got %.9g, want %.9g (tolerance %g)", got, want, tol);
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("'%s' is not in:\n%s", part, text);
}

static void assert_lacks(const char *text, const char *part)
{
    if (strstr(text, part))
        fail_msg("'%s' should not be in:\n%s", part, text);
}

static const lab_spec *lab01(void)
{
    const lab_spec *s = lab_find("01");
    assert_non_null(s);
    return s;
}

/* A kernel that was correct and was measured: 100% loads and stores, full score. */
static oc_outcome passed_outcome(void)
{
    oc_outcome o;
    memset(&o, 0, sizeof o);
    o.spec = lab01();
    strcpy(o.kernel_path, "labs/01-dram-burst/kernel.cu");
    o.compiled = 1;
    o.compile_s = 2.0;
    o.ran = 1;
    o.guards_intact = 1;
    o.check_ok = 1;
    o.check.passed = 1;
    o.check.checked = 50331655;
    strcpy(o.check.summary, "y = a*x for 50331655 floats against a CPU loop");
    o.counters = OC_ENGINE_OK;
    o.load = (oc_traffic){1000, 4000, 128000};
    o.store = (oc_traffic){1000, 4000, 128000};
    o.efficiency_measured = 1;
    o.load_eff = 1.0;
    o.store_eff = 1.0;
    o.engine = OC_BY_COUNTERS;
    o.stage = OC_STAGE_PASSED;
    o.verdict = OC_PASS;
    o.score = 100;
    o.score_correct = 40;
    o.score_load = o.score_store = 30;
    o.max_score = 100;
    strcpy(o.reason, "correct, and loads and stores are coalesced");
    return o;
}

/* The same kernel with every lane 32 bytes from the next: 12.5% both ways. */
static oc_outcome strided_outcome(void)
{
    oc_outcome o = passed_outcome();
    o.load = (oc_traffic){1000, 32000, 128000};
    o.store = (oc_traffic){1000, 32000, 128000};
    o.load_eff = 0.125;
    o.store_eff = 0.125;
    o.stage = OC_STAGE_COALESCING;
    o.verdict = OC_FAIL;
    o.score = 40;
    o.score_load = o.score_store = 0;
    strcpy(o.reason, "correct, but loads and stores are not coalesced enough");
    strcpy(o.hint, "Loads: lanes far apart. Try a grid-stride loop.");
    return o;
}

/* A correct kernel on a machine whose counters are locked. */
static oc_outcome not_graded_outcome(void)
{
    oc_outcome o = passed_outcome();
    o.counters = OC_ENGINE_NO_PERMISSION;
    strcpy(o.counters_why, "the driver keeps the counters to root");
    o.efficiency_measured = 0;
    o.load_eff = o.store_eff = 0;
    o.engine = OC_BY_NONE;
    o.stage = OC_STAGE_UNMEASURED;
    o.verdict = OC_NOT_GRADED;
    o.score = 40;
    o.score_load = o.score_store = 0;
    strcpy(o.reason, "correct; coalescing was not measured on this machine");
    strcpy(o.hint, "Run the doctor.");
    return o;
}

/* Everything written to a FILE by one call, as a string (static storage). */
static char captured[16384];

static FILE *capture_begin(void)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    return f;
}

static const char *capture_end(FILE *f)
{
    rewind(f);
    size_t n = fread(captured, 1, sizeof captured - 1, f);
    assert_false(ferror(f));
    captured[n] = '\0';
    fclose(f);
    return captured;
}

static const char *summary_of(const oc_outcome *outcomes, size_t n)
{
    FILE *f = capture_begin();
    rp_text_summary(f, outcomes, n);
    return capture_end(f);
}

static const char *text_of(const oc_outcome *o)
{
    FILE *f = capture_begin();
    rp_text_lab(f, o);
    return capture_end(f);
}

/* ---- JSON ---- */

static di_info h200(void)
{
    di_info d;
    memset(&d, 0, sizeof d);
    d.count = 1;
    strcpy(d.name, "NVIDIA H200");
    d.cc_major = 9;
    d.cc_minor = 0;
    d.sm_count = 132;
    d.l2_bytes = 62914560;
    d.driver_version = 13000;
    d.runtime_version = 12080;
    return d;
}

static cJSON *parse_json(const rp_manifest *m, const oc_outcome *outcomes, size_t n)
{
    char *text = rp_json(m, outcomes, n);
    assert_non_null(text);
    cJSON *root = cJSON_Parse(text);
    if (!root)
        fail_msg("rp_json wrote what cJSON cannot parse:\n%s", text);
    free(text);
    return root;
}

static const cJSON *item(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v)
        fail_msg("no key '%s' in the JSON", key);
    return v;
}

static const char *string_at(const cJSON *obj, const char *key)
{
    const cJSON *v = item(obj, key);
    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

static double number_at(const cJSON *obj, const char *key)
{
    const cJSON *v = item(obj, key);
    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

static void test_json_manifest_with_gpu(void **state)
{
    (void)state;
    di_info dev = h200();
    rp_manifest m = {.version = "0.1.0",
                     .nvcc_version = "13.0",
                     .device = &dev,
                     .seed = UINT64_MAX,
                     .arch = "sm_90"};
    oc_outcome o = passed_outcome();
    cJSON *root = parse_json(&m, &o, 1);
    const cJSON *man = item(root, "manifest");
    assert_string_equal(string_at(man, "tool"), "grade");
    assert_string_equal(string_at(man, "version"), "0.1.0");
    assert_string_equal(string_at(man, "nvcc"), "13.0");
    assert_string_equal(string_at(man, "arch"), "sm_90");
    /* A string, because a double cannot hold every 64-bit seed. */
    assert_string_equal(string_at(man, "seed"), "18446744073709551615");
    const cJSON *gpu = item(man, "gpu");
    assert_true(cJSON_IsObject(gpu));
    assert_string_equal(string_at(gpu, "name"), "NVIDIA H200");
    assert_string_equal(string_at(gpu, "compute_capability"), "9.0");
    assert_close(number_at(gpu, "sm_count"), 132, 0);
    assert_close(number_at(gpu, "l2_bytes"), 62914560, 0);
    assert_string_equal(string_at(gpu, "driver_cuda"), "13.0");
    assert_string_equal(string_at(gpu, "runtime_cuda"), "12.8");
    cJSON_Delete(root);
}

static void test_json_manifest_without_gpu(void **state)
{
    (void)state;
    rp_manifest m = {.version = "0.1.0", .device = NULL, .seed = 42};
    cJSON *root = parse_json(&m, NULL, 0);
    const cJSON *man = item(root, "manifest");
    assert_true(cJSON_IsNull(item(man, "gpu")));
    assert_string_equal(string_at(man, "seed"), "42");
    /* Absent strings are written empty, never as null. */
    assert_string_equal(string_at(man, "nvcc"), "");
    assert_string_equal(string_at(man, "arch"), "");
    const cJSON *labs = item(root, "labs");
    assert_true(cJSON_IsArray(labs));
    assert_int_equal(cJSON_GetArraySize(labs), 0);
    assert_close(number_at(root, "passed"), 0, 0);
    assert_close(number_at(root, "failed"), 0, 0);
    assert_close(number_at(root, "skipped"), 0, 0);
    cJSON_Delete(root);
}

static void test_json_lab_fields(void **state)
{
    (void)state;
    rp_manifest m = {.version = "0.1.0", .seed = 7};
    oc_outcome o = strided_outcome();
    cJSON *root = parse_json(&m, &o, 1);
    const cJSON *labs = item(root, "labs");
    assert_int_equal(cJSON_GetArraySize(labs), 1);
    const cJSON *lab = cJSON_GetArrayItem(labs, 0);
    assert_string_equal(string_at(lab, "id"), "01");
    assert_string_equal(string_at(lab, "slug"), "dram-burst");
    assert_string_equal(string_at(lab, "kernel"), "labs/01-dram-burst/kernel.cu");
    assert_string_equal(string_at(lab, "verdict"), "FAIL");
    assert_close(number_at(lab, "score"), 40, 0);
    assert_close(number_at(lab, "max_score"), 100, 0);
    assert_string_equal(string_at(lab, "reason"),
                        "correct, but loads and stores are not coalesced enough");
    assert_string_equal(string_at(lab, "hint"), "Loads: lanes far apart. Try a grid-stride loop.");

    const cJSON *correctness = item(lab, "correctness");
    assert_true(cJSON_IsTrue(item(correctness, "passed")));
    assert_close(number_at(correctness, "checked"), 50331655, 0);

    const cJSON *coalescing = item(lab, "coalescing");
    assert_true(cJSON_IsTrue(item(coalescing, "measured")));
    assert_string_equal(string_at(item(coalescing, "counters"), "state"), "ok");
    const cJSON *loads = item(coalescing, "loads");
    assert_close(number_at(loads, "efficiency"), 0.125, 1e-12);
    assert_close(number_at(loads, "threshold"), 0.90, 1e-12);
    assert_close(number_at(loads, "sectors_per_request"), 32, 1e-12);
    assert_close(number_at(loads, "requests"), 1000, 0);
    const cJSON *stores = item(coalescing, "stores");
    assert_close(number_at(stores, "efficiency"), 0.125, 1e-12);
    assert_close(number_at(stores, "threshold"), 0.90, 1e-12);

    assert_close(number_at(root, "passed"), 0, 0);
    assert_close(number_at(root, "failed"), 1, 0);
    assert_close(number_at(root, "skipped"), 0, 0);
    cJSON_Delete(root);
}

static void test_json_not_measured_has_no_traffic(void **state)
{
    (void)state;
    rp_manifest m = {.version = "0.1.0", .seed = 7};
    oc_outcome o = not_graded_outcome();
    cJSON *root = parse_json(&m, &o, 1);
    const cJSON *lab = cJSON_GetArrayItem(item(root, "labs"), 0);
    assert_string_equal(string_at(lab, "verdict"), "NOT GRADED");
    const cJSON *coalescing = item(lab, "coalescing");
    assert_true(cJSON_IsFalse(item(coalescing, "measured")));
    const cJSON *counters = item(coalescing, "counters");
    assert_string_equal(string_at(counters, "state"), "no_permission");
    assert_string_equal(string_at(counters, "why"), "the driver keeps the counters to root");
    assert_null(cJSON_GetObjectItemCaseSensitive(coalescing, "loads"));
    assert_null(cJSON_GetObjectItemCaseSensitive(coalescing, "stores"));
    assert_close(number_at(root, "skipped"), 1, 0);
    cJSON_Delete(root);
}

static void test_json_counts(void **state)
{
    (void)state;
    rp_manifest m = {.version = "0.1.0", .seed = 1};
    oc_outcome o[4] = {passed_outcome(), strided_outcome(), not_graded_outcome(),
                       strided_outcome()};
    cJSON *root = parse_json(&m, o, 4);
    const cJSON *labs = item(root, "labs");
    assert_int_equal(cJSON_GetArraySize(labs), 4);
    assert_string_equal(string_at(cJSON_GetArrayItem(labs, 0), "verdict"), "PASS");
    assert_string_equal(string_at(cJSON_GetArrayItem(labs, 2), "verdict"), "NOT GRADED");
    assert_close(number_at(root, "passed"), 1, 0);
    assert_close(number_at(root, "failed"), 2, 0);
    assert_close(number_at(root, "skipped"), 1, 0);
    cJSON_Delete(root);
}

static void test_json_escapes_logs(void **state)
{
    (void)state;
    rp_manifest m = {.version = "0.1.0", .seed = 1};
    oc_outcome o = passed_outcome();
    o.compiled = 0;
    o.stage = OC_STAGE_BUILD;
    o.verdict = OC_FAIL;
    o.compile_log = "kernel.cu(3): error: expected a \";\"\n\ttab\\slash";
    cJSON *root = parse_json(&m, &o, 1);
    const cJSON *build = item(cJSON_GetArrayItem(item(root, "labs"), 0), "build");
    assert_true(cJSON_IsFalse(item(build, "compiled")));
    assert_string_equal(string_at(build, "log"), o.compile_log);
    cJSON_Delete(root);
}

static void test_json_thresholds_per_access(void **state)
{
    (void)state;
    /* A lab whose load and store bars differ: each access carries its own. */
    lab_spec uneven = *lab01();
    uneven.min_load_eff = 0.80;
    uneven.min_store_eff = 0.60;
    rp_manifest m = {.version = "0.1.0", .seed = 7};
    oc_outcome o = strided_outcome();
    o.spec = &uneven;
    o.store_eff = 0.75;
    cJSON *root = parse_json(&m, &o, 1);
    const cJSON *coalescing = item(cJSON_GetArrayItem(item(root, "labs"), 0), "coalescing");
    assert_close(number_at(item(coalescing, "loads"), "threshold"), 0.80, 1e-12);
    assert_close(number_at(item(coalescing, "stores"), "threshold"), 0.60, 1e-12);
    assert_close(number_at(item(coalescing, "stores"), "efficiency"), 0.75, 1e-12);
    cJSON_Delete(root);

    const char *t = text_of(&o);
    assert_contains(t, "(need >= 80%)  too low");
    assert_contains(t, "stores        75.0%  32.0 sectors/request  (need >= 60%)  ok");
}

/* ---- the summary line ---- */

static void test_summary_passed_and_failed(void **state)
{
    (void)state;
    oc_outcome o[2] = {passed_outcome(), strided_outcome()};
    assert_string_equal(summary_of(o, 2), "\n1 passed, 1 failed\n");
}

static void test_summary_skipped_only_when_not_graded(void **state)
{
    (void)state;
    oc_outcome o[3] = {passed_outcome(), strided_outcome(), not_graded_outcome()};
    assert_string_equal(summary_of(o, 3), "\n1 passed, 1 failed, 1 skipped\n");
    assert_string_equal(summary_of(o + 2, 1), "\n0 passed, 0 failed, 1 skipped\n");
}

static void test_summary_nothing_graded(void **state)
{
    (void)state;
    assert_string_equal(summary_of(NULL, 0), "\n0 passed, 0 failed\n");
}

/* ---- one lab as text ---- */

static void test_text_failing_lab(void **state)
{
    (void)state;
    oc_outcome o = strided_outcome();
    const char *t = text_of(&o);
    assert_true(t[0] == '\n');
    assert_contains(t, "lab 01 dram-burst: DRAM burst");
    assert_contains(t, "FAIL");
    assert_contains(t, " 40/100");
    assert_contains(t, "labs/01-dram-burst/kernel.cu  (compiled in 2.0 s)");
    assert_contains(t, "correctness  ok");
    assert_contains(t, "loads         12.5%  32.0 sectors/request  (need >= 90%)  too low");
    assert_contains(t, "stores        12.5%");
    assert_contains(t, "verdict      correct, but loads and stores are not coalesced enough");
    assert_contains(t, "hint         Loads: lanes far apart. Try a grid-stride loop.");
    assert_contains(t, "handouts/01-dram-burst.md");
    assert_contains(t, "grade LAB=01");
    assert_lacks(t, "PASS");
}

static void test_text_passing_lab(void **state)
{
    (void)state;
    oc_outcome o = passed_outcome();
    const char *t = text_of(&o);
    assert_contains(t, "PASS");
    assert_contains(t, "100/100");
    assert_contains(t, "loads        100.0%   4.0 sectors/request  (need >= 90%)  ok");
    /* A pass has nothing to try next. */
    assert_lacks(t, "hint");
    assert_lacks(t, "handouts/");
    assert_lacks(t, "FAIL");
}

static void test_text_not_graded_lab(void **state)
{
    (void)state;
    oc_outcome o = not_graded_outcome();
    const char *t = text_of(&o);
    assert_contains(t, "NOT GRADED");
    assert_contains(t, "counters     not read: the driver keeps the counters to root");
    assert_lacks(t, "sectors/request");
    assert_contains(t, "handouts/01-dram-burst.md");
}

static void test_text_compile_failure_shows_log(void **state)
{
    (void)state;
    oc_outcome o = passed_outcome();
    o.compiled = 0;
    o.stage = OC_STAGE_BUILD;
    o.compile_log = "kernel.cu(12): error: identifier \"idx\" is undefined\n1 error detected\n";
    o.efficiency_measured = 0;
    o.counters = OC_ENGINE_NOT_RUN;
    o.verdict = OC_FAIL;
    o.score = 0;
    strcpy(o.reason, "the kernel does not compile");
    const char *t = text_of(&o);
    assert_contains(t, "build        does not compile:");
    assert_contains(t, "    | kernel.cu(12): error: identifier \"idx\" is undefined\n");
    assert_contains(t, "    | 1 error detected\n");
    assert_lacks(t, "compiled in");
    assert_lacks(t, "not measured");
}

static void test_text_wrong_output_shows_details(void **state)
{
    (void)state;
    oc_outcome o = passed_outcome();
    o.check.passed = 0;
    o.stage = OC_STAGE_CORRECTNESS;
    o.check.mismatches = 1;
    strcpy(o.check.details, "'y': 1 of 50331655 elements differ\n  y[17]: got 1, want 2\n");
    o.efficiency_measured = 0;
    o.counters = OC_ENGINE_NOT_RUN;
    o.verdict = OC_FAIL;
    o.score = 0;
    const char *t = text_of(&o);
    assert_contains(t, "correctness  FAIL");
    assert_contains(t, "    |   y[17]: got 1, want 2\n");
}

static void test_text_wraps_long_lines(void **state)
{
    (void)state;
    oc_outcome o = strided_outcome();
    /* 40 words of 9 characters: far more than one line. */
    o.hint[0] = '\0';
    for (int i = 0; i < 40; i++)
        strcat(o.hint, "abcdefgh ");
    const char *t = text_of(&o);
    for (const char *line = t; *line;) {
        size_t len = strcspn(line, "\n");
        if (len > 78 && strstr(line, "abcdefgh") && strstr(line, "abcdefgh") < line + len)
            fail_msg("a hint line is %zu columns wide:\n%.*s", len, (int)len, line);
        line += len + (line[len] == '\n');
    }
    assert_contains(t, "\n               abcdefgh");
}

/* ---- Gradescope and JUnit ---- */

static void test_gradescope_parts_and_total(void **state)
{
    (void)state;
    oc_outcome o[2] = {passed_outcome(), strided_outcome()};
    char *text = rp_gradescope(o, 2);
    assert_non_null(text);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    assert_true(fabs(cJSON_GetObjectItem(root, "score")->valuedouble - 140.0) < 1e-9);
    cJSON *tests = cJSON_GetObjectItem(root, "tests");
    assert_int_equal(cJSON_GetArraySize(tests), 6);
    cJSON *t = cJSON_GetArrayItem(tests, 4); /* the strided lab's load coalescing */
    assert_string_equal(cJSON_GetObjectItem(t, "name")->valuestring,
                        "lab 01 dram-burst: load coalescing");
    assert_int_equal(cJSON_GetObjectItem(t, "score")->valueint, 0);
    assert_int_equal(cJSON_GetObjectItem(t, "max_score")->valueint, 30);
    assert_string_equal(cJSON_GetObjectItem(t, "status")->valuestring, "failed");
    t = cJSON_GetArrayItem(tests, 3); /* its correctness: passed, with the text report */
    assert_int_equal(cJSON_GetObjectItem(t, "score")->valueint, 40);
    assert_string_equal(cJSON_GetObjectItem(t, "status")->valuestring, "passed");
    assert_non_null(strstr(cJSON_GetObjectItem(t, "output")->valuestring, "12.5%"));
    cJSON_Delete(root);
}

/* A course that hides the coalescing parts until the due date: the visible correctness part
 * says only that the outputs were right, not the report's efficiencies; the report goes with
 * the first hidden part. */
static void test_gradescope_hidden_parts_hide_their_output(void **state)
{
    (void)state;
    lab_spec hiding = *lab_find("01");
    hiding.visibility[1] = "after_due_date";
    hiding.visibility[2] = "after_due_date";
    oc_outcome o = strided_outcome();
    o.spec = &hiding;
    char *text = rp_gradescope(&o, 1);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    cJSON *tests = cJSON_GetObjectItem(root, "tests");
    const char *shown = cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 0), "output")->valuestring;
    assert_null(strstr(shown, "12.5%"));
    assert_non_null(strstr(shown, "correct"));
    const char *held = cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 1), "output")->valuestring;
    assert_non_null(strstr(held, "12.5%"));
    assert_string_equal(
        cJSON_GetObjectItem(cJSON_GetArrayItem(tests, 1), "visibility")->valuestring,
        "after_due_date");
    cJSON_Delete(root);
}

/* Lab 04: traced on a smaller problem, with a speed gate; coalesced but too slow. */
static oc_outcome slow_lab04_outcome(void)
{
    oc_outcome o = passed_outcome();
    o.spec = lab_find("04");
    assert_non_null(o.spec);
    o.trace = OC_ENGINE_OK;
    o.engine = OC_BY_TRACE;
    o.trace_smaller = 1;
    o.stage = OC_STAGE_SPEED;
    o.trace_loads =
        (cl_tally){.requests = 100, .sectors = 300, .unique_bytes = 6800, .ideal_sectors = 300};
    o.trace_stores =
        (cl_tally){.requests = 10, .sectors = 40, .unique_bytes = 1280, .ideal_sectors = 40};
    o.trace_sample = 1;
    o.trace_records = 110;
    o.timed = 1;
    o.student_ms = 2.0;
    o.baseline_ms = 2.1;
    o.speedup = 1.05;
    o.ceiling_bytes_per_s = 4e12;
    o.student_bytes_per_s = 1e10;
    o.verdict = OC_FAIL;
    o.score_correct = o.spec->points_correct; /* lab 04's parts: all but the speed */
    o.score_load = o.spec->points_load;
    o.score_store = o.spec->points_store;
    o.score_speed = 0;
    o.score = o.score_correct + o.score_load + o.score_store;
    o.max_score = 100;
    assert_int_equal(o.score, 70);
    strcpy(o.reason, "correct and coalesced, but only 1.05x as fast");
    return o;
}

static void test_text_speed_gate_and_trace_size(void **state)
{
    (void)state;
    oc_outcome o = slow_lab04_outcome();
    const char *t = text_of(&o);
    assert_contains(t, "70/100");
    assert_contains(t, "speed        1.05x the naive kernel with x on the columns: 2.000 ms "
                       "(1674 GFLOP/s) against 2.100 ms, same run  (need >= ");
    assert_contains(t, "too slow");
    assert_contains(t, "the trace ran the same kernel on 136 x 104 times 104 x 200");
    assert_contains(t, "counters agree, at full size: 4.0 and 4.0 sectors/request");
}

/* The blamed instruction's sampled warp travels in the JSON, lane by lane, for the live demo's
 * "your report" view (handouts/demo/demo.js) to draw it again. */
static void test_json_worst_warp_addresses(void **state)
{
    (void)state;
    static oc_outcome o;
    o = passed_outcome();
    o.trace = OC_ENGINE_OK;
    o.worst[0].found = 1;
    o.worst[0].size = 4;
    o.worst[0].line = 12;
    o.worst[0].active = 0x5; /* lanes 0 and 2 */
    o.worst[0].addr[0] = 4096;
    o.worst[0].addr[2] = 4224;
    o.blamed = &o.worst[0];
    rp_manifest m = {.version = "t", .seed = 1};
    char *text = rp_json(&m, &o, 1);
    cJSON *root = cJSON_Parse(text);
    free(text);
    cJSON *lab = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "labs"), 0);
    cJSON *w = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(lab, "coalescing"), "trace"), "worst");
    assert_non_null(w);
    assert_int_equal(cJSON_GetObjectItem(w, "active")->valueint, 5);
    cJSON *a = cJSON_GetObjectItem(w, "addresses");
    assert_int_equal(cJSON_GetArraySize(a), 32);
    assert_close(cJSON_GetArrayItem(a, 0)->valuedouble, 4096, 0);
    assert_true(cJSON_IsNull(cJSON_GetArrayItem(a, 1)));
    assert_close(cJSON_GetArrayItem(a, 2)->valuedouble, 4224, 0);
    cJSON_Delete(root);
}

/* Issue 12: the bandwidth against this GPU's ceiling (its best copy) and its peak, in text and
 * JSON, and a working set within a few L2s said to measure the cache. */
static void test_bandwidth_against_the_ceiling_and_the_peak(void **state)
{
    (void)state;
    oc_outcome o = slow_lab04_outcome();
    o.student_bytes_per_s = 2e12;
    o.peak_bytes_per_s = 4.8e12;
    strcpy(o.ceiling_kernel, "float4");
    o.l2_bytes = 60000000;
    o.useful_bytes = 17e6; /* lab 04's A, B and C */
    const char *t = text_of(&o);
    assert_contains(t, "bandwidth    2000 GB/s, 50% of this GPU's ceiling (4000 GB/s, its best "
                       "copy; peak 4800 GB/s); 2.000 ms  (shown, not graded)");
    assert_contains(t, "its 17 MB fit in 4x this GPU's 60 MB L2: the time partly measures the "
                       "cache");
    rp_manifest m = {.version = "t", .seed = 1};
    char *text = rp_json(&m, &o, 1);
    cJSON *root = cJSON_Parse(text);
    free(text);
    cJSON *timing =
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "labs"), 0), "timing");
    assert_close(cJSON_GetObjectItem(timing, "fraction_of_ceiling")->valuedouble, 0.5, 1e-12);
    assert_close(cJSON_GetObjectItem(timing, "fraction_of_peak")->valuedouble, 2.0 / 4.8, 1e-12);
    assert_string_equal(cJSON_GetObjectItem(timing, "ceiling_kernel")->valuestring, "float4");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(timing, "working_set_in_cache")));
    cJSON_Delete(root);
    o.useful_bytes = 4e8;   /* a working set far larger than the L2: no such line */
    o.peak_bytes_per_s = 0; /* nor a peak where the runtime gave no memory clock */
    t = text_of(&o);
    assert_contains(t, "(4000 GB/s, its best copy); 2.000 ms");
    assert_lacks(t, "measures the cache");
}

/* grade --bench's table: a row a lab and kind, the bandwidth as shares of the best ceiling
 * and of the peak, the steps' seconds, the passes' wall times; the same rows as CSV. */
static void test_bench_table_and_csv(void **state)
{
    (void)state;
    oc_outcome stub = passed_outcome(), sol = passed_outcome();
    stub.verdict = OC_FAIL;
    stub.score = 40;
    stub.load_eff = stub.store_eff = 0.125;
    stub.engine = OC_BY_TRACE;
    sol.engine = OC_BY_TRACE;
    for (int k = 0; k < 2; ++k) {
        oc_outcome *o = k ? &sol : &stub;
        o->timed = 1;
        o->student_bytes_per_s = k ? 3.9e12 : 0.7e12;
        o->ceiling_bytes_per_s = k ? 4.1e12 : 4.0e12; /* the header names the better */
        strcpy(o->ceiling_kernel, "float4");
        o->peak_bytes_per_s = 4.8e12;
        o->total_s = k ? 4.1 : 4.7;
        o->compile_s = 0.9;
        o->record_s = 0.6;
        o->run_s = 0.7;
        o->trace_wall_s = 0.65;
        o->counters_s = 1.0;
        o->check_s = 0.4;
    }
    rp_bench b = {.gpu = "NVIDIA H200",
                  .date = "2026-12-01",
                  .seed = 7,
                  .stubs = &stub,
                  .solutions = &sol,
                  .n = 1,
                  .stubs_s = 4.7,
                  .solutions_s = 4.1,
                  .again_s = 3.2};
    di_info dev = {.cc_major = 9, .cc_minor = 0, .sm_count = 132, .sm_clock_khz = 1980000};
    b.dev = &dev;
    char *t = NULL, *c = NULL;
    size_t tn = 0, cn = 0;
    FILE *out = open_memstream(&t, &tn), *csv = open_memstream(&c, &cn);
    rp_bench_table(out, csv, &b);
    fclose(out);
    fclose(csv);
    assert_contains(t, "bench on NVIDIA H200, 2026-12-01, seed 7: ceiling 4100 GB/s (the best "
                       "copy, float4), peak 4800 GB/s");
    /* 132 x 128 x 2 x 1.98 GHz = 66.9 TFLOP/s, over 4.1 TB/s: 16.3 FLOP a byte. */
    assert_contains(t, "FP32 peak 66.9 TFLOP/s (132 SMs x 128 lanes x 2 x 1.98 GHz): below 16.3 "
                       "FLOP a byte of DRAM traffic a kernel is bound by memory");
    assert_contains(t,
                    "01   stub      FAIL           40   12.5%   12.5% trace        700   17.5%   "
                    "14.6%    4.70    0.90   0.60   0.70   0.65     1.00");
    assert_contains(t,
                    "01   solution  PASS          100  100.0%  100.0% trace       3900   95.1%   "
                    "81.2%    4.10");
    assert_contains(t, "the 1 stubs 4.7 s, the solutions 4.1 s, the solutions again (compiled "
                       "before) 3.2 s");
    assert_contains(c, "lab,kind,verdict,score,load_eff,store_eff,engine,bytes_per_s,");
    assert_contains(c, "\n01,stub,FAIL,40,0.1250,0.1250,trace,7e+11,4e+12,4.8e+12,0.1750,0.1458,");
    assert_contains(c, "\n01,solution,PASS,100,1.0000,1.0000,trace,3.9e+12,4.1e+12,");
    free(t);
    free(c);
}

static void test_json_and_gradescope_speed_part(void **state)
{
    (void)state;
    oc_outcome o = slow_lab04_outcome();
    rp_manifest m = {.version = "t", .seed = 1};
    char *text = rp_json(&m, &o, 1);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    cJSON *lab = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "labs"), 0);
    cJSON *speed = cJSON_GetObjectItem(lab, "speed");
    assert_non_null(speed);
    assert_close(cJSON_GetObjectItem(speed, "speedup")->valuedouble, 1.05, 1e-12);
    assert_close(cJSON_GetObjectItem(speed, "baseline_ms")->valuedouble, 2.1, 1e-12);
    assert_int_equal(cJSON_GetObjectItem(speed, "max_score")->valueint, 30);
    assert_non_null(cJSON_GetObjectItem(lab, "trace_size"));
    cJSON_Delete(root);

    text = rp_gradescope(&o, 1);
    root = cJSON_Parse(text);
    free(text);
    cJSON *tests = cJSON_GetObjectItem(root, "tests");
    assert_int_equal(cJSON_GetArraySize(tests), 4);
    cJSON *t = cJSON_GetArrayItem(tests, 3);
    assert_string_equal(cJSON_GetObjectItem(t, "name")->valuestring, "lab 04 matmul: speed");
    assert_int_equal(cJSON_GetObjectItem(t, "score")->valueint, 0);
    assert_int_equal(cJSON_GetObjectItem(t, "max_score")->valueint, 30);
    cJSON_Delete(root);
}

/* What GitHub Classroom's reporter reads of a runner result: version 1, a status, max_score,
 * and tests each with name, status, score, message, test_code, filename, line_no, duration; it
 * adds up the scores over the tests and the max_score over the runners ("Points X/Y"). */
static void check_classroom(const oc_outcome *o, size_t n, const char *status)
{
    char *text = rp_classroom(o, n);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    assert_int_equal(cJSON_GetObjectItem(root, "version")->valueint, 1);
    assert_string_equal(cJSON_GetObjectItem(root, "status")->valuestring, status);
    int score = 0, max = 0, want = 0, parts = 0;
    for (size_t i = 0; i < n; ++i) {
        const lab_spec *sp = o[i].spec;
        want += o[i].score;
        max += sp->points_correct + sp->points_load + sp->points_store + sp->points_speed;
        parts += 3 + (sp->points_speed > 0);
    }
    assert_int_equal(cJSON_GetObjectItem(root, "max_score")->valueint, max);
    cJSON *tests = cJSON_GetObjectItem(root, "tests"), *t;
    assert_int_equal(cJSON_GetArraySize(tests), parts);
    static const char *const strings[] = {"name", "status", "message", "test_code", "filename"};
    cJSON_ArrayForEach(t, tests)
    {
        for (size_t k = 0; k < sizeof strings / sizeof strings[0]; ++k)
            assert_true(cJSON_IsString(cJSON_GetObjectItem(t, strings[k])));
        assert_true(cJSON_IsNumber(cJSON_GetObjectItem(t, "line_no")));
        assert_true(cJSON_IsNumber(cJSON_GetObjectItem(t, "duration")));
        const char *st = cJSON_GetObjectItem(t, "status")->valuestring;
        assert_true(!strcmp(st, "pass") || !strcmp(st, "fail"));
        score += cJSON_GetObjectItem(t, "score")->valueint;
    }
    assert_int_equal(score, want); /* the reporter's points are the grade's */
    cJSON_Delete(root);
}

/* A lab that was not graded (no file, a refused one): each part 0 points, the reason its output. */
static void test_gradescope_ungraded(void **state)
{
    (void)state;
    char *text = rp_gradescope_ungraded(lab_find("04"), "no kernel file for lab 04");
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    assert_int_equal(cJSON_GetObjectItem(root, "score")->valueint, 0);
    cJSON *tests = cJSON_GetObjectItem(root, "tests"), *t;
    assert_int_equal(cJSON_GetArraySize(tests), 4); /* lab 04 has a speed part */
    cJSON_ArrayForEach(t, tests)
    {
        assert_int_equal(cJSON_GetObjectItem(t, "score")->valueint, 0);
        assert_string_equal(cJSON_GetObjectItem(t, "output")->valuestring,
                            "no kernel file for lab 04");
    }
    cJSON_Delete(root);
}

static void test_classroom_runner_result(void **state)
{
    (void)state;
    oc_outcome o[3] = {passed_outcome(), strided_outcome(), not_graded_outcome()};
    check_classroom(o, 1, "pass");
    check_classroom(o, 2, "fail");
    check_classroom(o, 3, "error");
    oc_outcome slow = slow_lab04_outcome();
    check_classroom(&slow, 1, "fail");
}

static void test_junit_cases_failures_and_escaping(void **state)
{
    (void)state;
    oc_outcome o[3] = {passed_outcome(), strided_outcome(), not_graded_outcome()};
    strcpy(o[1].reason, "loads <32 B> & \"stores\"");
    FILE *f = tmpfile();
    assert_non_null(f);
    rp_junit(f, o, 3);
    rewind(f);
    size_t n = fread(captured, 1, sizeof captured - 1, f);
    captured[n] = '\0';
    fclose(f);
    assert_contains(captured,
                    "<testsuite name=\"grade\" tests=\"3\" failures=\"1\" skipped=\"1\">");
    assert_contains(captured, "<failure message=\"loads &lt;32 B&gt; &amp; &quot;stores&quot;\"/>");
    assert_contains(captured, "<skipped message=");
    assert_contains(captured, "<testcase classname=\"lab01\" name=\"dram-burst\">");
    assert_lacks(captured, "<32 B>");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_manifest_with_gpu),
        cmocka_unit_test(test_json_manifest_without_gpu),
        cmocka_unit_test(test_json_lab_fields),
        cmocka_unit_test(test_json_not_measured_has_no_traffic),
        cmocka_unit_test(test_json_counts),
        cmocka_unit_test(test_gradescope_parts_and_total),
        cmocka_unit_test(test_gradescope_hidden_parts_hide_their_output),
        cmocka_unit_test(test_junit_cases_failures_and_escaping),
        cmocka_unit_test(test_json_escapes_logs),
        cmocka_unit_test(test_json_thresholds_per_access),
        cmocka_unit_test(test_summary_passed_and_failed),
        cmocka_unit_test(test_summary_skipped_only_when_not_graded),
        cmocka_unit_test(test_summary_nothing_graded),
        cmocka_unit_test(test_text_failing_lab),
        cmocka_unit_test(test_text_passing_lab),
        cmocka_unit_test(test_text_not_graded_lab),
        cmocka_unit_test(test_text_compile_failure_shows_log),
        cmocka_unit_test(test_text_wrong_output_shows_details),
        cmocka_unit_test(test_text_wraps_long_lines),
        cmocka_unit_test(test_text_speed_gate_and_trace_size),
        cmocka_unit_test(test_json_worst_warp_addresses),
        cmocka_unit_test(test_bandwidth_against_the_ceiling_and_the_peak),
        cmocka_unit_test(test_bench_table_and_csv),
        cmocka_unit_test(test_json_and_gradescope_speed_part),
        cmocka_unit_test(test_gradescope_ungraded),
        cmocka_unit_test(test_classroom_runner_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
