/*
 * test_wire.c - the wire between grader, grading child and tracer (common/wire.c): every record
 * written and read back equal, every key a reader needs refused when it is missing or of the
 * wrong type, the child's command line both ways, and record files that are not regular files.
 *
 * Build and run (the project CMake builds it as test_wire):
 *   cmake --build build --target test_wire && build/test_wire
 */
#define _XOPEN_SOURCE 700 /* mkdtemp, mkfifo, symlink, truncate */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wire.h"

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("'%s' is not in \"%s\"", part, text);
}

/* ---- the command line ---- */

static void test_wire_mode_names_round_trip(void **state)
{
    (void)state;
    for (int m = 0; m < WI_NMODES; ++m) {
        wi_mode back;
        assert_non_null(wi_mode_name((wi_mode)m));
        assert_int_equal(wi_mode_parse(wi_mode_name((wi_mode)m), &back), 0);
        assert_int_equal(back, m);
    }
    wi_mode back;
    assert_int_equal(wi_mode_parse("replay", &back), -1);
    assert_null(wi_mode_name(WI_NMODES));
}

static void test_wire_args_round_trip(void **state)
{
    (void)state;
    wi_args a = {.mode = WI_COUNTERS,
                 .lab = "05",
                 .kernel = "/tmp/w/kernel.so",
                 .image = "/tmp/w/run/kernel.fatbin",
                 .record = "/tmp/w/run/record.json",
                 .workdir = "/tmp/w",
                 .seed = UINT64_C(18446744073709551615),
                 .poison = UINT32_C(0xffc0beef),
                 .no_timing = 1,
                 .shared_counters = 1,
                 .counters_dir = "/tmp/w/run/counters",
                 .gpu_lock = "5:6",
                 .go_fd = "7",
                 .serve_fd = "9"};
    const char *argv[WI_MAX_ARGV];
    char digits[WI_ARG_DIGITS];
    int argc = wi_args_to_argv("grade-worker", &a, digits, argv);
    assert_true(argc < WI_MAX_ARGV);
    assert_null(argv[argc]);
    assert_string_equal(argv[0], "grade-worker");
    assert_string_equal(argv[1], "counters");
    wi_args b;
    char why[128];
    assert_int_equal(wi_args_parse(argc, (char *const *)argv, &b, why, sizeof why), 0);
    assert_int_equal(b.mode, a.mode);
    assert_string_equal(b.lab, a.lab);
    assert_string_equal(b.kernel, a.kernel);
    assert_string_equal(b.image, a.image);
    assert_string_equal(b.record, a.record);
    assert_string_equal(b.workdir, a.workdir);
    assert_true(b.seed == a.seed);
    assert_true(b.poison == a.poison);
    assert_int_equal(b.no_timing, 1);
    assert_int_equal(b.shared_counters, 1);
    assert_string_equal(b.counters_dir, a.counters_dir);
    assert_string_equal(b.gpu_lock, a.gpu_lock);
    assert_string_equal(b.go_fd, a.go_fd);
    assert_string_equal(b.serve_fd, a.serve_fd);

    /* What is not given is not written, and reads back as not given. */
    wi_args probe = {.mode = WI_PROBE, .workdir = "/tmp/p"};
    argc = wi_args_to_argv("w", &probe, digits, argv);
    assert_int_equal(wi_args_parse(argc, (char *const *)argv, &b, why, sizeof why), 0);
    assert_null(b.lab);
    assert_null(b.kernel);
    assert_null(b.go_fd);
    assert_null(b.serve_fd);
    assert_true(b.poison == 0); /* the child's default */
    assert_int_equal(b.no_timing, 0);
    assert_int_equal(b.shared_counters, 0);
}

static void test_wire_args_refused(void **state)
{
    (void)state;
    char why[128];
    wi_args a;
    char *unknown_mode[] = {"w", "replay", "--workdir", "/tmp", NULL};
    assert_int_equal(wi_args_parse(4, unknown_mode, &a, why, sizeof why), -1);
    assert_contains(why, "unknown mode 'replay'");
    char *no_image[] = {"w", "run", "--workdir", "/tmp", "--image", NULL};
    assert_int_equal(wi_args_parse(5, no_image, &a, why, sizeof why), -1);
    assert_contains(why, "'--image' needs a value");
    char *no_value[] = {"w", "run", "--workdir", "/tmp", "--lab", NULL};
    assert_int_equal(wi_args_parse(5, no_value, &a, why, sizeof why), -1);
    assert_contains(why, "'--lab' needs a value");
    char *no_workdir[] = {"w", "run", "--lab", "01", NULL};
    assert_int_equal(wi_args_parse(4, no_workdir, &a, why, sizeof why), -1);
    assert_contains(why, "--workdir");
    char *bad_seed[] = {"w", "run", "--workdir", "/tmp", "--seed", "12x", NULL};
    assert_int_equal(wi_args_parse(6, bad_seed, &a, why, sizeof why), -1);
    assert_contains(why, "seed '12x'");
    char *wide_poison[] = {"w", "run", "--workdir", "/tmp", "--poison", "0x1ffffffff", NULL};
    assert_int_equal(wi_args_parse(6, wide_poison, &a, why, sizeof why), -1);
    assert_contains(why, "poison '0x1ffffffff'");
    char *no_poison[] = {"w", "run", "--workdir", "/tmp", "--poison", "0", NULL};
    assert_int_equal(wi_args_parse(6, no_poison, &a, why, sizeof why), -1);
    assert_contains(why, "poison '0'");
    char *unknown[] = {"w", "run", "--workdir", "/tmp", "--fast", NULL};
    assert_int_equal(wi_args_parse(5, unknown, &a, why, sizeof why), -1);
    assert_contains(why, "unknown option '--fast'");
}

/* ---- result.json ---- */

/* A result with every section and a distinct value in every field. */
static wi_result full_result(void)
{
    wi_result r;
    memset(&r, 0, sizeof r);
    r.mode = WI_RUN;
    di_info *d = &r.device.info;
    d->count = 2;
    d->index = 1;
    strcpy(d->name, "NVIDIA H200");
    d->cc_major = 9;
    d->cc_minor = 0;
    d->sm_count = 132;
    d->l2_bytes = 62914560;
    d->global_bytes = (size_t)150 << 30;
    d->mem_clock_khz = 3201000;
    d->bus_width_bits = 6144;
    d->sm_clock_khz = 1980000;
    d->driver_version = 13000;
    d->runtime_version = 12080;
    strcpy(r.device.error, "cudaErrorX");
    strcpy(r.device.error_text, "something");
    r.has_run = r.has_timing = r.has_counters = 1;
    r.run = (wi_run){.launched = 1,
                     .guards_intact = 0,
                     .useful_bytes = 402653240.0,
                     .checked_after_timing = 1,
                     .input_changed = "a_cm"};
    r.timing.student = (wi_time){0.5, 0.4, 0.9, 15, 4e8, 8e11};
    r.timing.ceiling = (wi_time){0.1, 0.09, 0.2, 15, 4e8, 4e12};
    strcpy(r.timing.ceiling_kernel, "float4");
    r.timing.ceiling_buffer_bytes = 251658240;
    r.timing.has_baseline = 1;
    r.timing.baseline = (wi_time){0.6, 0.55, 0.7, 15, 3e8, 5e11};
    r.timing.flush_bytes = 251658240;
    wi_counters *c = &r.counters;
    c->status = WI_ENGINE_NO_PERMISSION;
    c->cupti_code = 35;
    strcpy(c->why, "only administrators");
    strcpy(c->chip, "GH100");
    c->passes = 3;
    c->setup_ms = 120.5;
    c->measure_ms = 1.25;
    c->nkernels = 2;
    for (int k = 0; k < 2; ++k) {
        snprintf(c->kernels[k].name, sizeof c->kernels[k].name, "kernel_%d", k);
        for (int m = 0; m < WI_NCOUNTERS; ++m)
            c->kernels[k].v[m] = 1000.0 * (k + 1) + m;
    }
    return r;
}

static cJSON *to_json_and_back(const wi_result *r)
{
    cJSON *j = wi_result_to_json(r);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    cJSON *back = cJSON_Parse(text);
    free(text);
    assert_non_null(back);
    return back;
}

static void test_wire_result_round_trip(void **state)
{
    (void)state;
    wi_result a = full_result(), b;
    cJSON *j = to_json_and_back(&a);
    char why[256] = "";
    if (wi_result_from_json(j, &b, why, sizeof why) != 0)
        fail_msg("read back failed: %s", why);
    cJSON_Delete(j);
    assert_int_equal(b.mode, a.mode);
    assert_memory_equal(&b.device.info, &a.device.info, sizeof a.device.info);
    /* 2 x 3.201 GHz x 768 bytes: the peak travels with the device, for the manifest. */
    assert_true(fabs(di_peak_bytes_per_s(&b.device.info) - 4.917e12) < 1e9);
    /* 132 SMs x 128 lanes x 2 x 1.98 GHz, and the balance of the two. */
    assert_true(fabs(di_peak_fp32_flops(&b.device.info) - 66.9e12) < 0.1e12);
    assert_int_equal(b.device.info.driver_version, 13000);
    assert_int_equal(b.device.info.runtime_version, 12080);
    assert_string_equal(b.device.error, a.device.error);
    assert_string_equal(b.device.error_text, a.device.error_text);
    assert_int_equal(b.has_run, 1);
    assert_memory_equal(&b.run, &a.run, sizeof a.run);
    assert_int_equal(b.has_timing, 1);
    assert_memory_equal(&b.timing, &a.timing, sizeof a.timing);
    assert_int_equal(b.has_counters, 1);
    assert_int_equal(b.counters.status, a.counters.status);
    assert_string_equal(b.counters.why, a.counters.why);
    assert_string_equal(b.counters.chip, a.counters.chip);
    assert_int_equal(b.counters.nkernels, 2);
    for (int k = 0; k < 2; ++k) {
        assert_string_equal(b.counters.kernels[k].name, a.counters.kernels[k].name);
        for (int m = 0; m < WI_NCOUNTERS; ++m)
            assert_true(b.counters.kernels[k].v[m] == a.counters.kernels[k].v[m]);
    }
}

static void test_wire_result_sections_are_optional(void **state)
{
    (void)state;
    wi_result a = full_result(), b;
    a.mode = WI_PROBE;
    a.has_run = a.has_timing = a.has_counters = 0;
    a.timing.has_baseline = 0;
    cJSON *j = to_json_and_back(&a);
    char why[256];
    assert_int_equal(wi_result_from_json(j, &b, why, sizeof why), 0);
    assert_int_equal(b.has_run + b.has_timing + b.has_counters, 0);
    cJSON_Delete(j);

    a = full_result();
    a.timing.has_baseline = 0;
    j = to_json_and_back(&a);
    assert_int_equal(wi_result_from_json(j, &b, why, sizeof why), 0);
    assert_int_equal(b.timing.has_baseline, 0);
    cJSON_Delete(j);
}

/* Removes key from the object at path ("run", "timing.student", "" for the top) of a full
 * result's JSON and reads it back: it must fail, naming the key. */
static void assert_missing_is_an_error(const char *path, const char *key, const char *named)
{
    wi_result a = full_result(), b;
    cJSON *j = to_json_and_back(&a);
    cJSON *o = j;
    char copy[64];
    snprintf(copy, sizeof copy, "%s", path);
    for (char *part = strtok(copy, "."); part; part = strtok(NULL, "."))
        o = cJSON_GetObjectItemCaseSensitive(o, part);
    assert_non_null(o);
    if (cJSON_IsArray(o))
        o = cJSON_GetArrayItem(o, 0);
    assert_non_null(cJSON_GetObjectItemCaseSensitive(o, key));
    cJSON_DeleteItemFromObjectCaseSensitive(o, key);
    char why[256] = "";
    assert_int_equal(wi_result_from_json(j, &b, why, sizeof why), -1);
    assert_contains(why, named);
    cJSON_Delete(j);
}

static void test_wire_result_missing_keys_are_errors(void **state)
{
    (void)state;
    assert_missing_is_an_error("", "mode", "'mode'");
    assert_missing_is_an_error("", "device", "'device'");
    assert_missing_is_an_error("device", "l2_bytes", "'device.l2_bytes'");
    assert_missing_is_an_error("device", "error", "'device.error'");
    assert_missing_is_an_error("run", "useful_bytes", "'run.useful_bytes'");
    assert_missing_is_an_error("run", "guards_intact", "'run.guards_intact'");
    assert_missing_is_an_error("run", "input_changed", "'run.input_changed'");
    assert_missing_is_an_error("timing", "ceiling", "'timing.ceiling'");
    assert_missing_is_an_error("timing.student", "median_ms", "'timing.student.median_ms'");
    assert_missing_is_an_error("timing.baseline", "bytes_per_s", "'timing.baseline.bytes_per_s'");
    assert_missing_is_an_error("counters", "status", "'counters.status'");
    assert_missing_is_an_error("counters.kernels", "ld_sectors", "ld_sectors");
    assert_missing_is_an_error("counters.kernels", "shared_st_conflicts", "shared_st_conflicts");
}

static void test_wire_result_wrong_types_are_errors(void **state)
{
    (void)state;
    wi_result a = full_result(), b;
    cJSON *j = to_json_and_back(&a);
    cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItem(j, "run"), "launched",
                                           cJSON_CreateNumber(1));
    char why[256];
    assert_int_equal(wi_result_from_json(j, &b, why, sizeof why), -1);
    assert_contains(why, "true/false 'run.launched'");
    cJSON_Delete(j);

    j = to_json_and_back(&a);
    cJSON_ReplaceItemInObjectCaseSensitive(j, "mode", cJSON_CreateString("replay"));
    assert_int_equal(wi_result_from_json(j, &b, why, sizeof why), -1);
    assert_contains(why, "unknown mode 'replay'");
    cJSON_Delete(j);
}

/* ---- trace.json ---- */

static wi_trace sample_trace(void)
{
    wi_trace t;
    memset(&t, 0, sizeof t);
    strcpy(t.error, "");
    t.sample = 16;
    t.max_records = 262144;
    t.nkernels = 2;
    t.kernels = calloc(2, sizeof *t.kernels);
    for (int k = 0; k < 2; ++k) {
        wi_trace_kernel *tk = &t.kernels[k];
        snprintf(tk->k.name, sizeof tk->k.name, "kernel_%d", k);
        tk->launches = (unsigned)k + 1;
        tk->sample = 16;
        tk->scale = 16.5 + k;
        tk->dropped = 7;
        tk->k.records = 1000;
        tk->k.invalid = 2;
        tk->k.loads = (cl_tally){100, 400, 100, 12800, 400};
        tk->k.stores = (cl_tally){50, 1600, 50, 6400, 200};
        tk->k.nins = 2;
        tk->k.ins = calloc(2, sizeof *tk->k.ins);
        for (int i = 0; i < 2; ++i) {
            ta_instruction *in = &tk->k.ins[i];
            in->pc = 0x1a0 + 16 * i;
            in->is_store = i;
            in->size = 4;
            snprintf(in->file, sizeof in->file, "/tmp/grade-x/kernel.cu");
            in->line = 20 + i;
            in->tally = (cl_tally){10, 320, 10, 1280, 40};
            in->sample.warp = 77;
            in->sample.active = 0x0000ffffu;
            for (int l = 0; l < CL_WARP_SIZE; ++l)
                in->sample.addr[l] = l < 16 ? UINT64_C(0x7f0000000000) + 64 * l : 0;
        }
    }
    return t;
}

static void test_wire_trace_round_trip(void **state)
{
    (void)state;
    wi_trace a = sample_trace(), b;
    a.kernels[1].oob_reads = 3;
    a.kernels[1].oob_line = 42;
    snprintf(a.kernels[1].oob_file, sizeof a.kernels[1].oob_file, "kernel.cu");
    cJSON *j = wi_trace_to_json(&a);
    char why[256] = "";
    if (wi_trace_from_json(j, &b, why, sizeof why) != 0)
        fail_msg("read back failed: %s", why);
    cJSON_Delete(j);
    assert_int_equal(b.sample, 16);
    assert_int_equal(b.max_records, 262144);
    assert_int_equal(b.nkernels, 2);
    for (int k = 0; k < 2; ++k) {
        const wi_trace_kernel *x = &a.kernels[k], *y = &b.kernels[k];
        assert_string_equal(y->k.name, x->k.name);
        assert_int_equal(y->launches, x->launches);
        assert_true(y->scale == x->scale);
        assert_true(y->dropped == x->dropped);
        assert_true(y->oob_reads == x->oob_reads && y->oob_line == x->oob_line);
        assert_string_equal(y->oob_file, x->oob_file);
        assert_true(y->k.records == x->k.records && y->k.invalid == x->k.invalid);
        assert_memory_equal(&y->k.loads, &x->k.loads, sizeof x->k.loads);
        assert_memory_equal(&y->k.stores, &x->k.stores, sizeof x->k.stores);
        assert_int_equal(y->k.nins, 2);
        for (int i = 0; i < 2; ++i) {
            const ta_instruction *p = &x->k.ins[i], *q = &y->k.ins[i];
            assert_true(q->pc == p->pc);
            assert_int_equal(q->is_store, p->is_store);
            assert_int_equal(q->size, p->size);
            assert_string_equal(q->file, p->file);
            assert_int_equal(q->line, p->line);
            assert_memory_equal(&q->tally, &p->tally, sizeof p->tally);
            assert_int_equal(q->sample.warp, 77);
            assert_int_equal(q->sample.active, 0xffff);
            assert_memory_equal(q->sample.addr, p->sample.addr, sizeof p->sample.addr);
        }
    }
    wi_trace_free(&a);
    wi_trace_free(&b);
}

static void test_wire_trace_missing_keys_are_errors(void **state)
{
    (void)state;
    static const char *const keys[] = {"scale", "loads", "instructions", "dropped"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; ++i) {
        wi_trace a = sample_trace(), b;
        cJSON *j = wi_trace_to_json(&a);
        cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "kernels"), 1);
        cJSON_DeleteItemFromObjectCaseSensitive(k, keys[i]);
        char why[256] = "";
        assert_int_equal(wi_trace_from_json(j, &b, why, sizeof why), -1);
        assert_contains(why, keys[i]);
        cJSON_Delete(j);
        wi_trace_free(&a);
        wi_trace_free(&b);
    }
    /* Deep inside: one instruction's sampled warp with 31 addresses. */
    wi_trace a = sample_trace(), b;
    cJSON *j = wi_trace_to_json(&a);
    cJSON *in = cJSON_GetArrayItem(
        cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "kernels"), 0),
                            "instructions"),
        1);
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(cJSON_GetObjectItem(in, "sample"), "addr"), 0);
    char why[256] = "";
    assert_int_equal(wi_trace_from_json(j, &b, why, sizeof why), -1);
    assert_contains(why, "addr");
    cJSON_Delete(j);
    wi_trace_free(&a);
    wi_trace_free(&b);
}

/* ---- record.json ---- */

static wi_record *sample_record(void)
{
    static wi_record r;
    memset(&r, 0, sizeof r);
    r.nbuffers = 2;
    strcpy(r.buffers[0].name, "buffer 0");
    r.buffers[0].bytes = 201334812;
    strcpy(r.buffers[1].name, "buffer 1");
    r.buffers[1].bytes = 8192;
    r.lab_values[0] = 4096;
    r.buffers[0].input = 1;
    r.lab_values[3] = 7;
    r.nops = 4;
    wi_op *l = &r.ops[0];
    l->kind = WI_OP_LAUNCH;
    strcpy(l->kernel, "_Z13scale_chunkedfPKfPfm");
    l->grid[0] = 12289;
    l->grid[1] = l->grid[2] = 1;
    l->block[0] = 256;
    l->block[1] = l->block[2] = 1;
    l->shared_bytes = 1024;
    l->max_dynamic_shared = 65536; /* cudaFuncSetAttribute's, for 64 KiB of shared memory */
    l->carveout = 100;
    l->nparams = 4;
    uint32_t off[] = {0, 8, 16, 24}, size[] = {4, 8, 8, 8};
    memcpy(l->param_offset, off, sizeof off);
    memcpy(l->param_size, size, sizeof size);
    l->param_bytes = 32;
    for (int i = 0; i < 32; ++i)
        l->params[i] = (unsigned char)(i * 37);
    l->nrelocs = 2;
    l->relocs[0] = (wi_reloc){8, 0, 4096};
    l->relocs[1] = (wi_reloc){16, 1, 4096};
    wi_op *c = &r.ops[1];
    c->kind = WI_OP_COPY;
    c->dst_buffer = 1;
    c->dst_delta = 64;
    c->src_buffer = 0;
    c->src_delta = 4096;
    c->dst_pitch = c->src_pitch = c->width = 128;
    c->height = 1;
    /* A memset of the output, then a 2D copy within it (cudaMemcpy2DAsync): 8 rows of 96
     * bytes, 128 apart in the destination, 256 in the source. */
    wi_op *m = &r.ops[2];
    m->kind = WI_OP_MEMSET;
    m->dst_buffer = 1;
    m->dst_delta = 256;
    m->dst_pitch = m->width = 4096;
    m->height = 1;
    m->value = 0xab;
    wi_op *d = &r.ops[3];
    d->kind = WI_OP_COPY;
    d->dst_buffer = d->src_buffer = 1;
    d->dst_delta = 4096;
    d->dst_pitch = 128;
    d->src_delta = 0;
    d->src_pitch = 256;
    d->width = 96;
    d->height = 8;
    return &r;
}

static void test_wire_record_round_trip(void **state)
{
    (void)state;
    wi_record *a = sample_record();
    static wi_record b;
    cJSON *j = wi_record_to_json(a);
    char why[256] = "";
    if (wi_record_from_json(j, &b, why, sizeof why) != 0)
        fail_msg("read back failed: %s", why);
    cJSON_Delete(j);
    assert_string_equal(b.refused, "");
    assert_int_equal(b.nbuffers, 2);
    assert_true(b.buffers[0].bytes == 201334812);
    assert_true(b.lab_values[0] == 4096 && b.lab_values[3] == 7);
    assert_int_equal(b.nops, 4);
    assert_true(b.buffers[0].input && !b.buffers[1].input);
    const wi_op *x = &a->ops[0], *y = &b.ops[0];
    assert_int_equal(y->kind, WI_OP_LAUNCH);
    assert_string_equal(y->kernel, x->kernel);
    assert_memory_equal(y->grid, x->grid, sizeof x->grid);
    assert_memory_equal(y->block, x->block, sizeof x->block);
    assert_int_equal(y->shared_bytes, 1024);
    assert_int_equal(y->max_dynamic_shared, 65536);
    assert_int_equal(y->carveout, 100);
    assert_int_equal(y->nparams, 4);
    assert_memory_equal(y->param_offset, x->param_offset, 4 * sizeof(uint32_t));
    assert_memory_equal(y->param_size, x->param_size, 4 * sizeof(uint32_t));
    assert_int_equal(y->param_bytes, 32);
    assert_memory_equal(y->params, x->params, 32);
    assert_int_equal(y->nrelocs, 2);
    assert_memory_equal(y->relocs, x->relocs, 2 * sizeof(wi_reloc));
    const wi_op *c = &b.ops[1];
    assert_int_equal(c->kind, WI_OP_COPY);
    assert_true(c->dst_buffer == 1 && c->dst_delta == 64 && c->src_buffer == 0 &&
                c->src_delta == 4096 && c->width == 128 && c->height == 1);
    const wi_op *m = &b.ops[2];
    assert_int_equal(m->kind, WI_OP_MEMSET);
    assert_true(m->dst_buffer == 1 && m->dst_delta == 256 && m->width == 4096 && m->height == 1);
    assert_int_equal(m->value, 0xab);
    const wi_op *d = &b.ops[3];
    assert_int_equal(d->kind, WI_OP_COPY);
    assert_true(d->dst_buffer == 1 && d->dst_delta == 4096 && d->dst_pitch == 128 &&
                d->src_buffer == 1 && d->src_delta == 0 && d->src_pitch == 256 && d->width == 96 &&
                d->height == 8);

    /* An attribute the driver did not report travels as -1. */
    a->ops[0].max_dynamic_shared = a->ops[0].carveout = -1;
    j = wi_record_to_json(a);
    assert_int_equal(wi_record_from_json(j, &b, why, sizeof why), 0);
    assert_int_equal(b.ops[0].max_dynamic_shared, -1);
    assert_int_equal(b.ops[0].carveout, -1);
    cJSON_Delete(j);
}

/* A pointer of a packed structure starts at any byte: its relocation travels as it is. */
static void test_wire_record_unaligned_reloc(void **state)
{
    (void)state;
    wi_record *a = sample_record();
    a->ops[0].relocs[0].offset = 3;
    a->ops[0].relocs[1].offset = 19; /* 11..18 free between them, 19..26 inside the 32 */
    static wi_record b;
    cJSON *j = wi_record_to_json(a);
    char why[256] = "";
    if (wi_record_from_json(j, &b, why, sizeof why) != 0)
        fail_msg("read back failed: %s", why);
    cJSON_Delete(j);
    assert_int_equal(b.ops[0].nrelocs, 2);
    assert_int_equal(b.ops[0].relocs[0].offset, 3);
    assert_int_equal(b.ops[0].relocs[1].offset, 19);
}

/* Spans of copies and memsets: rows inside a buffer, overflow refused. */
static void test_wire_span_fits(void **state)
{
    (void)state;
    assert_true(wi_span_fits(4096, 0, 4096, 4096, 1));
    assert_false(wi_span_fits(4096, 1, 4096, 4096, 1));
    assert_true(wi_span_fits(4096, 0, 1024, 1000, 4));  /* the last row ends at 3072 + 1000 */
    assert_true(wi_span_fits(4096, 24, 1024, 1000, 4)); /* ... at 4096 exactly */
    assert_false(wi_span_fits(4096, 25, 1024, 1000, 4));
    assert_false(wi_span_fits(4096, 0, 512, 1000, 2)); /* a pitch below the width */
    assert_true(wi_span_fits(4096, 4096, 0, 0, 0));    /* empty, at the end */
    assert_false(wi_span_fits(4096, 4097, 0, 0, 1));
    assert_false(wi_span_fits(4096, 0, UINT64_MAX / 2, 8, 3)); /* rows that wrap around */
    assert_false(wi_span_fits(4096, 0, 8, 8, UINT64_MAX));
}

/* Changes one thing of the sample record's JSON and reads it back: it must be refused,
 * naming what is wrong. */
static void assert_record_refused(void (*spoil)(cJSON *j), const char *named)
{
    cJSON *j = wi_record_to_json(sample_record());
    spoil(j);
    static wi_record b;
    char why[256] = "";
    assert_int_equal(wi_record_from_json(j, &b, why, sizeof why), -1);
    assert_contains(why, named);
    cJSON_Delete(j);
}

static cJSON *op(cJSON *j, int i)
{
    return cJSON_GetArrayItem(cJSON_GetObjectItem(j, "ops"), i);
}

/* A long template instantiation's mangled name: count characters of a name that is valid, and
 * different from the sample's, at every place. */
static void long_name(char *name, size_t count)
{
    static const char part[] =
        "_ZN5tiles6kernelILi64ELi64ELi16EN4cute6LayoutIJLi4ELi4EEEEEEvPKfS4_Pf";
    for (size_t i = 0; i < count; ++i)
        name[i] = part[i % (sizeof part - 1)];
    name[count] = '\0';
}

/* Names longer than 256 characters travel whole; one that does not fit is refused by its key,
 * never cut (a cut name names no kernel of the replayed device code). */
static void test_wire_record_long_kernel_name(void **state)
{
    (void)state;
    wi_record *a = sample_record();
    long_name(a->ops[0].kernel, 3000);
    static wi_record b;
    cJSON *j = wi_record_to_json(a);
    char why[256] = "";
    if (wi_record_from_json(j, &b, why, sizeof why) != 0)
        fail_msg("read back failed: %s", why);
    assert_int_equal(strlen(b.ops[0].kernel), 3000);
    assert_string_equal(b.ops[0].kernel, a->ops[0].kernel);

    static char too_long[WI_MAX_KERNEL_NAME + 1];
    long_name(too_long, WI_MAX_KERNEL_NAME);
    cJSON_ReplaceItemInObject(op(j, 0), "kernel", cJSON_CreateString(too_long));
    assert_int_equal(wi_record_from_json(j, &b, why, sizeof why), -1);
    assert_contains(why, "'ops[].kernel'");
    assert_contains(why, "at most 4095 characters");
    cJSON_Delete(j);

    /* The counters' kernels, for the report, carry long names too. */
    wi_result r = full_result(), back;
    long_name(r.counters.kernels[0].name, 1000);
    j = wi_result_to_json(&r);
    assert_int_equal(wi_result_from_json(j, &back, why, sizeof why), 0);
    assert_string_equal(back.counters.kernels[0].name, r.counters.kernels[0].name);
    cJSON_Delete(j);
}

static void no_kernel(cJSON *j)
{
    cJSON_DeleteItemFromObject(op(j, 0), "kernel");
}
static void reloc_outside_params(cJSON *j)
{
    cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(op(j, 0), "relocs"), 1);
    cJSON_ReplaceItemInObject(r, "offset", cJSON_CreateNumber(32));
}
static void reloc_to_no_buffer(cJSON *j)
{
    cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(op(j, 0), "relocs"), 0);
    cJSON_ReplaceItemInObject(r, "buffer", cJSON_CreateNumber(2));
}
static void relocs_overlap(cJSON *j)
{
    cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(op(j, 0), "relocs"), 1);
    cJSON_ReplaceItemInObject(r, "offset", cJSON_CreateNumber(12)); /* the first is 8..15 */
}
static void copy_past_buffer(cJSON *j)
{
    cJSON_ReplaceItemInObject(op(j, 1), "width", cJSON_CreateNumber(8192));
}
static void copy_rows_past_buffer(cJSON *j)
{
    cJSON_ReplaceItemInObject(op(j, 3), "height", cJSON_CreateNumber(33)); /* 32 * 128 + 96 */
}
static void copy_into_input(cJSON *j)
{
    cJSON_ReplaceItemInObject(op(j, 1), "dst_buffer", cJSON_CreateNumber(0));
    cJSON_ReplaceItemInObject(op(j, 1), "src_buffer", cJSON_CreateNumber(1));
    cJSON_ReplaceItemInObject(op(j, 1), "src_delta", cJSON_CreateNumber(0));
}
static void memset_into_input(cJSON *j)
{
    cJSON_ReplaceItemInObject(op(j, 2), "dst_buffer", cJSON_CreateNumber(0));
}
static void memset_past_buffer(cJSON *j)
{
    cJSON_ReplaceItemInObject(op(j, 2), "dst_delta", cJSON_CreateNumber(4097));
}
static void memset_of_no_byte(cJSON *j)
{
    cJSON_ReplaceItemInObject(op(j, 2), "value", cJSON_CreateNumber(256));
}
static void empty_memset(cJSON *j)
{
    cJSON_ReplaceItemInObject(op(j, 2), "height", cJSON_CreateNumber(0));
}
static void carveout_over_100(cJSON *j)
{
    cJSON_ReplaceItemInObject(op(j, 0), "carveout", cJSON_CreateNumber(101));
}
static void negative_shared_attribute(cJSON *j)
{
    cJSON_ReplaceItemInObject(op(j, 0), "max_dynamic_shared", cJSON_CreateNumber(-2));
}
static void no_attribute(cJSON *j)
{
    cJSON_DeleteItemFromObject(op(j, 0), "max_dynamic_shared");
}
static void no_input_flag(cJSON *j)
{
    cJSON_DeleteItemFromObject(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "buffers"), 1), "input");
}
static void param_past_params(cJSON *j)
{
    cJSON *sizes = cJSON_GetObjectItem(op(j, 0), "param_size");
    cJSON_ReplaceItemInArray(sizes, 3, cJSON_CreateNumber(9));
}
static void odd_hex(cJSON *j)
{
    cJSON_ReplaceItemInObject(op(j, 0), "params", cJSON_CreateString("abc"));
}
static void short_grid(cJSON *j)
{
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(op(j, 0), "grid"), 2);
}
static void unknown_op(cJSON *j)
{
    cJSON_ReplaceItemInObject(op(j, 1), "op", cJSON_CreateString("fill"));
}

static void test_wire_record_refuses_what_cannot_be_replayed(void **state)
{
    (void)state;
    assert_record_refused(no_kernel, "'ops[].kernel'");
    assert_record_refused(reloc_outside_params, "relocation");
    assert_record_refused(reloc_to_no_buffer, "relocation");
    assert_record_refused(relocs_overlap, "relocation");
    assert_record_refused(copy_past_buffer, "copy inside the lab's buffers");
    assert_record_refused(param_past_params, "parameter inside the parameters");
    assert_record_refused(odd_hex, "params");
    assert_record_refused(short_grid, "grid");
    assert_record_refused(unknown_op, "launch, copy or memset");
    assert_record_refused(copy_rows_past_buffer, "copy inside the lab's buffers");
    assert_record_refused(copy_into_input, "not an input");
    assert_record_refused(memset_into_input, "not an input");
    assert_record_refused(memset_past_buffer, "memset inside the lab's buffers");
    assert_record_refused(memset_of_no_byte, "'ops[].value'");
    assert_record_refused(empty_memset, "memset inside the lab's buffers");
    assert_record_refused(carveout_over_100, "'ops[].carveout'");
    assert_record_refused(negative_shared_attribute, "'ops[].max_dynamic_shared'");
    assert_record_refused(no_attribute, "'ops[].max_dynamic_shared'");
    assert_record_refused(no_input_flag, "'buffers[].input'");
}

/* ---- text from student code ---- */

static void test_wire_clean_text_leaves_no_terminal_control(void **state)
{
    (void)state;
    char s[] = "ok\tline\n\033[2J\033[1;1HPASS\r\b\x7f"
               "\xc2\x9b"     /* C1 CSI */
               "\xe2\x80\xae" /* right-to-left override */
               "caf\xc3\xa9"; /* an ordinary accented letter */
    wi_clean_text(s);
    assert_string_equal(s, "ok\tline\n?[2J?[1;1HPASS????????caf\xc3\xa9");
    wi_clean_text(NULL); /* nothing to do, no crash */
    /* Bytes that are not UTF-8: Latin-1, a stray continuation, an overlong form, a surrogate, a
     * character cut at the end; the valid ones (two, three and four bytes) stay. */
    char bad[] = "caf\xe9 \x80 \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 "
                 "\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80 \xe4\xb8";
    wi_clean_text(bad);
    assert_string_equal(bad, "caf? ? ?? ??? ???? \xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80 ??");
    /* Cut on a character's boundary, never inside one. */
    assert_int_equal(wi_utf8_cut("ab\xe4\xb8\xad", 4), 2);
    assert_int_equal(wi_utf8_cut("ab\xe4\xb8\xad", 5), 5);
    assert_int_equal(wi_utf8_cut("ab", 10), 2);

    /* Every reader applies it: a forged kernel name reaches the report harmless. */
    wi_result a = full_result(), b;
    strcpy(a.counters.kernels[0].name, "k\033]0;owned\a");
    cJSON *j = wi_result_to_json(&a);
    char why[256];
    assert_int_equal(wi_result_from_json(j, &b, why, sizeof why), 0);
    assert_string_equal(b.counters.kernels[0].name, "k?]0;owned?");
    cJSON_Delete(j);
}

/* ---- files ---- */

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/test_wire-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* The FP32 lanes an SM has, from the Programming Guide's throughput table, and no peak where a
 * factor is unknown. */
static void test_fp32_peak_by_generation(void **state)
{
    (void)state;
    assert_int_equal(di_fp32_lanes_per_sm(9, 0), 128); /* Hopper */
    assert_int_equal(di_fp32_lanes_per_sm(8, 0), 64);  /* A100 */
    assert_int_equal(di_fp32_lanes_per_sm(8, 6), 128); /* consumer Ampere */
    assert_int_equal(di_fp32_lanes_per_sm(7, 0), 64);  /* Volta */
    assert_int_equal(di_fp32_lanes_per_sm(7, 5), 64);  /* Turing */
    assert_int_equal(di_fp32_lanes_per_sm(6, 0), 64);  /* P100 */
    assert_int_equal(di_fp32_lanes_per_sm(6, 1), 128);
    assert_int_equal(di_fp32_lanes_per_sm(12, 0), 128); /* Blackwell */
    assert_int_equal(di_fp32_lanes_per_sm(3, 5), 0);
    di_info a100 = {.cc_major = 8, .cc_minor = 0, .sm_count = 108, .sm_clock_khz = 1410000};
    assert_true(fabs(di_peak_fp32_flops(&a100) - 19.49e12) < 0.01e12); /* the datasheet's 19.5 */
    di_info unknown = a100;
    unknown.sm_clock_khz = 0;
    assert_true(di_peak_fp32_flops(&unknown) == 0.0);
}

/* The driver's parameters say whether only administrators may read the counters. */
static void test_profiling_admin_only_from_the_driver_parameters(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/params", dir);
    static const char *const texts[] = {
        "ResmanDebugLevel: 4294967295\nRmProfilingAdminOnly: 1\nEnableMSI: 1\n",
        "RmProfilingAdminOnly: 0\n",
        "ResmanDebugLevel: 4294967295\nEnableMSI: 1\n",
        "RmProfilingAdminOnly: x\n",
    };
    const int want[] = {1, 0, -1, -1};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; ++i) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(texts[i], f);
        fclose(f);
        assert_int_equal(di_profiling_admin_only(path), want[i]);
    }
    remove(path);
    assert_int_equal(di_profiling_admin_only(path), -1); /* no driver */
}

static void test_wire_files_round_trip(void **state)
{
    (void)state;
    char path[128], why[256];
    snprintf(path, sizeof path, "%s/result.json", dir);
    wi_result a = full_result(), b;
    cJSON *j = wi_result_to_json(&a);
    assert_int_equal(wi_write_file(path, j), 0);
    cJSON_Delete(j);
    j = wi_read_file(path, why, sizeof why);
    assert_non_null(j);
    assert_int_equal(wi_result_from_json(j, &b, why, sizeof why), 0);
    assert_string_equal(b.device.info.name, "NVIDIA H200");
    cJSON_Delete(j);
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    assert_int_equal(access(tmp, F_OK), -1); /* renamed into place */

    static wi_record rec;
    snprintf(path, sizeof path, "%s/record.json", dir);
    assert_int_equal(wi_record_save(path, sample_record()), 0);
    assert_int_equal(wi_record_load(path, &rec, why, sizeof why), 0);
    assert_string_equal(rec.ops[0].kernel, "_Z13scale_chunkedfPKfPfm");
}

static void test_wire_read_refuses_what_is_not_a_record(void **state)
{
    (void)state;
    char path[128], why[256];
    snprintf(path, sizeof path, "%s/missing.json", dir);
    assert_null(wi_read_file(path, why, sizeof why));
    assert_contains(why, "no record");

    /* A link, even to a good record, is not followed. */
    char target[128];
    snprintf(target, sizeof target, "%s/good.json", dir);
    cJSON *j = wi_result_to_json(&(wi_result){.mode = WI_PROBE});
    assert_int_equal(wi_write_file(target, j), 0);
    cJSON_Delete(j);
    snprintf(path, sizeof path, "%s/link.json", dir);
    assert_int_equal(symlink(target, path), 0);
    assert_null(wi_read_file(path, why, sizeof why));

    /* A pipe with no writer would block a reader forever: it is refused at once. */
    snprintf(path, sizeof path, "%s/fifo.json", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_null(wi_read_file(path, why, sizeof why));
    assert_contains(why, "not a regular file");

    /* Larger than any record: refused without being read (a sparse file costs no disk). */
    snprintf(path, sizeof path, "%s/huge.json", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(truncate(path, (off_t)WI_MAX_FILE_BYTES + 1), 0);
    assert_null(wi_read_file(path, why, sizeof why));
    assert_contains(why, "too large");

    /* Not JSON. */
    snprintf(path, sizeof path, "%s/text.json", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("PASS 100/100", f);
    fclose(f);
    assert_null(wi_read_file(path, why, sizeof why));
    assert_contains(why, "not valid JSON");
}

/* What student code planted under a name the worker is about to write is replaced, never
 * written through: a link to a file outside, a FIFO, a hard link. */
static void test_wire_create_writes_through_nothing_planted(void **state)
{
    (void)state;
    char target[128], path[128], text[64] = "";
    snprintf(target, sizeof target, "%s/outside.txt", dir);
    FILE *f = fopen(target, "w");
    assert_non_null(f);
    fputs("keep me\n", f);
    fclose(f);
    const char *how[] = {"symlink", "hardlink", "fifo", "link to the tmp"};
    for (int i = 0; i < 4; ++i) {
        snprintf(path, sizeof path, "%s/planted-%d.json", dir, i);
        char planted[160];
        snprintf(planted, sizeof planted, "%s%s", path, i == 3 ? ".tmp" : "");
        if (i == 0 || i == 3)
            assert_int_equal(symlink(target, planted), 0);
        else if (i == 1)
            assert_int_equal(link(target, planted), 0);
        else
            assert_int_equal(mkfifo(planted, 0600), 0);
        cJSON *j = wi_result_to_json(&(wi_result){.mode = WI_PROBE});
        assert_int_equal(wi_write_file(path, j), 0);
        cJSON_Delete(j);
        struct stat st;
        assert_int_equal(lstat(path, &st), 0);
        assert_true(S_ISREG(st.st_mode));
        print_message("planted a %s: replaced\n", how[i]);
    }
    f = fopen(target, "r");
    assert_non_null(f);
    assert_non_null(fgets(text, sizeof text, f));
    fclose(f);
    assert_string_equal(text, "keep me\n");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wire_mode_names_round_trip),
        cmocka_unit_test(test_wire_args_round_trip),
        cmocka_unit_test(test_wire_args_refused),
        cmocka_unit_test(test_wire_result_round_trip),
        cmocka_unit_test(test_wire_result_sections_are_optional),
        cmocka_unit_test(test_wire_result_missing_keys_are_errors),
        cmocka_unit_test(test_wire_result_wrong_types_are_errors),
        cmocka_unit_test(test_wire_trace_round_trip),
        cmocka_unit_test(test_wire_trace_missing_keys_are_errors),
        cmocka_unit_test(test_wire_record_round_trip),
        cmocka_unit_test(test_wire_record_unaligned_reloc),
        cmocka_unit_test(test_wire_record_long_kernel_name),
        cmocka_unit_test(test_wire_span_fits),
        cmocka_unit_test(test_wire_record_refuses_what_cannot_be_replayed),
        cmocka_unit_test(test_wire_clean_text_leaves_no_terminal_control),
        cmocka_unit_test(test_wire_files_round_trip),
        cmocka_unit_test(test_fp32_peak_by_generation),
        cmocka_unit_test(test_profiling_admin_only_from_the_driver_parameters),
        cmocka_unit_test(test_wire_read_refuses_what_is_not_a_record),
        cmocka_unit_test(test_wire_create_writes_through_nothing_planted),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
