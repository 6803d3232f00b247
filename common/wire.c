/* wire.c - see wire.h. */
#define _POSIX_C_SOURCE 200809L
#include "wire.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- modes and the command line ---- */

static const char *const mode_names[WI_NMODES] = {"probe",    "record", "run",
                                                  "counters", "trace",  "explore"};

const char *wi_mode_name(wi_mode m)
{
    return (unsigned)m < WI_NMODES ? mode_names[m] : NULL;
}

int wi_mode_parse(const char *name, wi_mode *m)
{
    for (int i = 0; i < WI_NMODES; ++i)
        if (name && !strcmp(name, mode_names[i])) {
            *m = (wi_mode)i;
            return 0;
        }
    return -1;
}

int wi_args_to_argv(const char *program, const wi_args *a, char digits[WI_ARG_DIGITS],
                    const char *argv[WI_MAX_ARGV])
{
    int n = 0;
    char *seed = digits, *poison = digits + 24;
    snprintf(seed, 24, "%" PRIu64, a->seed);
    snprintf(poison, WI_ARG_DIGITS - 24, "0x%08" PRIx32, a->poison);
    argv[n++] = program;
    argv[n++] = wi_mode_name(a->mode);
    argv[n++] = "--workdir";
    argv[n++] = a->workdir;
    argv[n++] = "--seed";
    argv[n++] = seed;
    if (a->poison) {
        argv[n++] = "--poison";
        argv[n++] = poison;
    }
    if (a->lab) {
        argv[n++] = "--lab";
        argv[n++] = a->lab;
    }
    if (a->kernel) {
        argv[n++] = "--kernel";
        argv[n++] = a->kernel;
    }
    if (a->image) {
        argv[n++] = "--image";
        argv[n++] = a->image;
    }
    if (a->record) {
        argv[n++] = "--record";
        argv[n++] = a->record;
    }
    if (a->no_timing)
        argv[n++] = "--no-timing";
    if (a->shared_counters)
        argv[n++] = "--shared-counters";
    if (a->counters_dir) {
        argv[n++] = "--counters";
        argv[n++] = a->counters_dir;
    }
    if (a->gpu_lock) {
        argv[n++] = "--gpu-lock";
        argv[n++] = a->gpu_lock;
    }
    if (a->go_fd) {
        argv[n++] = "--go";
        argv[n++] = a->go_fd;
    }
    if (a->serve_fd) {
        argv[n++] = "--serve";
        argv[n++] = a->serve_fd;
    }
    argv[n] = NULL;
    return n;
}

static int arg_error(char *why, size_t size, const char *fmt, const char *arg)
{
    snprintf(why, size, fmt, arg);
    return -1;
}

int wi_args_parse(int argc, char *const argv[], wi_args *a, char *why, size_t why_size)
{
    memset(a, 0, sizeof *a);
    if (argc < 2 || wi_mode_parse(argv[1], &a->mode) != 0)
        return arg_error(why, why_size, "unknown mode '%s'", argc < 2 ? "" : argv[1]);
    for (int i = 2; i < argc; ++i) {
        const char *opt = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = !strcmp(opt, "--lab")        ? &a->lab
                            : !strcmp(opt, "--kernel")   ? &a->kernel
                            : !strcmp(opt, "--image")    ? &a->image
                            : !strcmp(opt, "--record")   ? &a->record
                            : !strcmp(opt, "--workdir")  ? &a->workdir
                            : !strcmp(opt, "--gpu-lock") ? &a->gpu_lock
                            : !strcmp(opt, "--counters") ? &a->counters_dir
                            : !strcmp(opt, "--go")       ? &a->go_fd
                            : !strcmp(opt, "--serve")    ? &a->serve_fd
                                                         : NULL;
        if (!strcmp(opt, "--no-timing")) {
            a->no_timing = 1;
        } else if (!strcmp(opt, "--shared-counters")) {
            a->shared_counters = 1;
        } else if ((slot || !strcmp(opt, "--seed") || !strcmp(opt, "--poison")) && !value) {
            return arg_error(why, why_size, "option '%s' needs a value", opt);
        } else if (slot) {
            *slot = argv[++i];
        } else if (!strcmp(opt, "--seed")) {
            char *end = NULL;
            errno = 0;
            a->seed = strtoull(argv[++i], &end, 10);
            if (errno || !*argv[i] || *end)
                return arg_error(why, why_size, "seed '%s' is not a number", argv[i]);
        } else if (!strcmp(opt, "--poison")) {
            char *end = NULL;
            errno = 0;
            unsigned long long p = strtoull(argv[++i], &end, 16);
            if (errno || !*argv[i] || *end || *argv[i] == '-' || p > UINT32_MAX || p == 0)
                return arg_error(why, why_size, "poison '%s' is not a 32-bit word", argv[i]);
            a->poison = (uint32_t)p;
        } else {
            return arg_error(why, why_size, "unknown option '%s'", opt);
        }
    }
    if (!a->workdir)
        return arg_error(why, why_size, "%s", "no --workdir");
    return 0;
}

/* ---- reading: every key must be there, with its type ---- */

typedef struct reader {
    char *why;
    size_t size;
    int failed;
} reader;

static void missing(reader *r, const char *where, const char *key, const char *type)
{
    if (!r->failed)
        snprintf(r->why, r->size, "the record has no %s '%s%s%s'", type, where, *where ? "." : "",
                 key);
    r->failed = 1;
}

static const cJSON *item(reader *r, const cJSON *o, const char *where, const char *key,
                         cJSON_bool (*is)(const cJSON *), const char *type)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!v || !is(v)) {
        missing(r, where, key, type);
        return NULL;
    }
    return v;
}

static double num(reader *r, const cJSON *o, const char *where, const char *key)
{
    const cJSON *v = item(r, o, where, key, cJSON_IsNumber, "number");
    return v ? v->valuedouble : 0.0;
}

static uint64_t count(reader *r, const cJSON *o, const char *where, const char *key)
{
    double d = num(r, o, where, key);
    return d > 0 ? (uint64_t)d : 0;
}

static int flag(reader *r, const cJSON *o, const char *where, const char *key)
{
    const cJSON *v = item(r, o, where, key, cJSON_IsBool, "true/false");
    return v && cJSON_IsTrue(v);
}

static void text(reader *r, const cJSON *o, const char *where, const char *key, char *buf,
                 size_t size)
{
    const cJSON *v = item(r, o, where, key, cJSON_IsString, "text");
    snprintf(buf, size, "%s", v ? v->valuestring : "");
    wi_clean_text(buf); /* a child's strings may come from student code */
}

/* As text, for a string that must arrive whole (a kernel's name, looked up as it is): one that
 * does not fit is an error, never cut. */
static void whole_text(reader *r, const cJSON *o, const char *where, const char *key, char *buf,
                       size_t size)
{
    const cJSON *v = item(r, o, where, key, cJSON_IsString, "text");
    if (v && strlen(v->valuestring) >= size) {
        char type[64];
        snprintf(type, sizeof type, "text of at most %zu characters,", size - 1);
        missing(r, where, key, type);
        v = NULL;
    }
    snprintf(buf, size, "%s", v ? v->valuestring : "");
    wi_clean_text(buf);
}

static const cJSON *object(reader *r, const cJSON *o, const char *where, const char *key)
{
    return item(r, o, where, key, cJSON_IsObject, "object");
}

static const cJSON *array(reader *r, const cJSON *o, const char *where, const char *key)
{
    return item(r, o, where, key, cJSON_IsArray, "list");
}

/* ---- tallies and the device ---- */

cJSON *wi_tally_to_json(const cl_tally *t)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "requests", (double)t->requests);
    cJSON_AddNumberToObject(o, "sectors", (double)t->sectors);
    cJSON_AddNumberToObject(o, "lines", (double)t->lines);
    cJSON_AddNumberToObject(o, "unique_bytes", (double)t->unique_bytes);
    cJSON_AddNumberToObject(o, "ideal_sectors", (double)t->ideal_sectors);
    return o;
}

static void tally_read(reader *r, const cJSON *o, const char *where, cl_tally *t)
{
    t->requests = count(r, o, where, "requests");
    t->sectors = count(r, o, where, "sectors");
    t->lines = count(r, o, where, "lines");
    t->unique_bytes = count(r, o, where, "unique_bytes");
    t->ideal_sectors = count(r, o, where, "ideal_sectors");
}

int wi_tally_from_json(const cJSON *o, cl_tally *t, char *why, size_t why_size)
{
    reader r = {why, why_size, 0};
    memset(t, 0, sizeof *t);
    tally_read(&r, o, "tally", t);
    return r.failed ? -1 : 0;
}

cJSON *wi_device_to_json(const wi_device *d)
{
    const di_info *i = &d->info;
    char drv[16], rt[16], cc[16];
    di_version_string(i->driver_version, drv, sizeof drv);
    di_version_string(i->runtime_version, rt, sizeof rt);
    snprintf(cc, sizeof cc, "%d.%d", i->cc_major, i->cc_minor);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "count", i->count);
    cJSON_AddNumberToObject(o, "index", i->index);
    cJSON_AddStringToObject(o, "name", i->name);
    cJSON_AddStringToObject(o, "compute_capability", cc);
    cJSON_AddNumberToObject(o, "sm_count", i->sm_count);
    cJSON_AddNumberToObject(o, "l2_bytes", (double)i->l2_bytes);
    cJSON_AddNumberToObject(o, "global_bytes", (double)i->global_bytes);
    cJSON_AddNumberToObject(o, "mem_clock_khz", i->mem_clock_khz);
    cJSON_AddNumberToObject(o, "bus_width_bits", i->bus_width_bits);
    cJSON_AddNumberToObject(o, "peak_bytes_per_s", di_peak_bytes_per_s(i));
    cJSON_AddNumberToObject(o, "sm_clock_khz", i->sm_clock_khz);
    cJSON_AddNumberToObject(o, "peak_fp32_flops", di_peak_fp32_flops(i));
    cJSON_AddStringToObject(o, "driver_cuda", drv);
    cJSON_AddStringToObject(o, "runtime_cuda", rt);
    cJSON_AddStringToObject(o, "error", d->error);
    cJSON_AddStringToObject(o, "error_text", d->error_text);
    return o;
}

/* "13.0" -> 13000, as the CUDA version calls return it; 0 for anything else. */
static int version_number(const char *s)
{
    int major = 0, minor = 0;
    return sscanf(s, "%d.%d", &major, &minor) == 2 ? major * 1000 + minor * 10 : 0;
}

static void device_read(reader *r, const cJSON *o, wi_device *d)
{
    const char *w = "device";
    di_info *i = &d->info;
    char cc[16], drv[16], rt[16];
    i->count = (int)num(r, o, w, "count");
    i->index = (int)num(r, o, w, "index");
    text(r, o, w, "name", i->name, sizeof i->name);
    text(r, o, w, "compute_capability", cc, sizeof cc);
    if (sscanf(cc, "%d.%d", &i->cc_major, &i->cc_minor) != 2)
        i->cc_major = i->cc_minor = 0;
    i->sm_count = (int)num(r, o, w, "sm_count");
    i->l2_bytes = (size_t)count(r, o, w, "l2_bytes");
    i->global_bytes = (size_t)count(r, o, w, "global_bytes");
    i->mem_clock_khz = (int)num(r, o, w, "mem_clock_khz");
    i->bus_width_bits = (int)num(r, o, w, "bus_width_bits");
    i->sm_clock_khz = (int)num(r, o, w, "sm_clock_khz");
    text(r, o, w, "driver_cuda", drv, sizeof drv);
    text(r, o, w, "runtime_cuda", rt, sizeof rt);
    i->driver_version = version_number(drv);
    i->runtime_version = version_number(rt);
    text(r, o, w, "error", d->error, sizeof d->error);
    text(r, o, w, "error_text", d->error_text, sizeof d->error_text);
}

/* ---- result.json ---- */

static cJSON *time_to_json(const wi_time *t)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "median_ms", t->median_ms);
    cJSON_AddNumberToObject(o, "min_ms", t->min_ms);
    cJSON_AddNumberToObject(o, "max_ms", t->max_ms);
    cJSON_AddNumberToObject(o, "repeats", t->repeats);
    cJSON_AddNumberToObject(o, "bytes", t->bytes);
    cJSON_AddNumberToObject(o, "bytes_per_s", t->bytes_per_s);
    return o;
}

static void time_read(reader *r, const cJSON *o, const char *where, wi_time *t)
{
    t->median_ms = num(r, o, where, "median_ms");
    t->min_ms = num(r, o, where, "min_ms");
    t->max_ms = num(r, o, where, "max_ms");
    t->repeats = (int)num(r, o, where, "repeats");
    t->bytes = num(r, o, where, "bytes");
    t->bytes_per_s = num(r, o, where, "bytes_per_s");
}

static const char *const status_names[] = {"ok", "no_permission", "unsupported", "failed"};
static const char *const counter_keys[WI_NCOUNTERS] = {
    "ld_requests",         "ld_sectors",         "ld_bytes",
    "st_requests",         "st_sectors",         "st_bytes",
    "shared_ld_requests",  "shared_st_requests", "shared_ld_conflicts",
    "shared_st_conflicts", "dram_read_bytes",    "dram_write_bytes"};

static cJSON *counters_to_json(const wi_counters *c)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "status", status_names[c->status]);
    cJSON_AddStringToObject(o, "why", c->why);
    cJSON_AddNumberToObject(o, "cupti_code", c->cupti_code);
    cJSON_AddStringToObject(o, "chip", c->chip);
    cJSON_AddNumberToObject(o, "passes", c->passes);
    cJSON_AddNumberToObject(o, "setup_ms", c->setup_ms);
    cJSON_AddNumberToObject(o, "measure_ms", c->measure_ms);
    cJSON *ks = cJSON_AddArrayToObject(o, "kernels");
    for (int i = 0; i < c->nkernels && i < WI_MAX_KERNELS; ++i) {
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "name", c->kernels[i].name);
        for (int m = 0; m < WI_NCOUNTERS; ++m)
            cJSON_AddNumberToObject(k, counter_keys[m], c->kernels[i].v[m]);
        cJSON_AddItemToArray(ks, k);
    }
    return o;
}

static void counters_read(reader *r, const cJSON *o, wi_counters *c)
{
    const char *w = "counters";
    char status[32];
    text(r, o, w, "status", status, sizeof status);
    c->status = WI_ENGINE_FAILED;
    for (int i = 0; i < 4; ++i)
        if (!strcmp(status, status_names[i]))
            c->status = (wi_engine_status)i;
    text(r, o, w, "why", c->why, sizeof c->why);
    c->cupti_code = (int)num(r, o, w, "cupti_code");
    text(r, o, w, "chip", c->chip, sizeof c->chip);
    c->passes = (int)num(r, o, w, "passes");
    c->setup_ms = num(r, o, w, "setup_ms");
    c->measure_ms = num(r, o, w, "measure_ms");
    const cJSON *ks = array(r, o, w, "kernels"), *k;
    cJSON_ArrayForEach(k, ks)
    {
        if (c->nkernels == WI_MAX_KERNELS)
            break;
        wi_counter_kernel *ck = &c->kernels[c->nkernels++];
        text(r, k, "counters.kernels[]", "name", ck->name, sizeof ck->name);
        for (int m = 0; m < WI_NCOUNTERS; ++m)
            ck->v[m] = num(r, k, "counters.kernels[]", counter_keys[m]);
    }
}

cJSON *wi_result_to_json(const wi_result *res)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "mode", wi_mode_name(res->mode));
    cJSON_AddItemToObject(o, "device", wi_device_to_json(&res->device));
    if (res->has_run) {
        cJSON *r = cJSON_AddObjectToObject(o, "run");
        cJSON_AddBoolToObject(r, "launched", res->run.launched);
        cJSON_AddBoolToObject(r, "guards_intact", res->run.guards_intact);
        cJSON_AddNumberToObject(r, "useful_bytes", res->run.useful_bytes);
        cJSON_AddNumberToObject(r, "least_load_bytes", res->run.least_load_bytes);
        cJSON_AddNumberToObject(r, "least_store_bytes", res->run.least_store_bytes);
        cJSON_AddBoolToObject(r, "checked_after_timing", res->run.checked_after_timing);
        cJSON_AddStringToObject(r, "input_changed", res->run.input_changed);
    }
    if (res->has_timing) {
        const wi_timing *t = &res->timing;
        cJSON *j = cJSON_AddObjectToObject(o, "timing");
        cJSON_AddItemToObject(j, "student", time_to_json(&t->student));
        cJSON *c = time_to_json(&t->ceiling);
        cJSON_AddStringToObject(c, "kernel", t->ceiling_kernel);
        cJSON_AddNumberToObject(c, "buffer_bytes", t->ceiling_buffer_bytes);
        cJSON_AddItemToObject(j, "ceiling", c);
        if (t->has_baseline)
            cJSON_AddItemToObject(j, "baseline", time_to_json(&t->baseline));
        cJSON_AddNumberToObject(j, "flush_bytes", t->flush_bytes);
    }
    if (res->has_counters)
        cJSON_AddItemToObject(o, "counters", counters_to_json(&res->counters));
    return o;
}

int wi_result_from_json(const cJSON *o, wi_result *res, char *why, size_t why_size)
{
    reader r = {why, why_size, 0};
    memset(res, 0, sizeof *res);
    char mode[32];
    text(&r, o, "", "mode", mode, sizeof mode);
    if (!r.failed && wi_mode_parse(mode, &res->mode) != 0) {
        snprintf(why, why_size, "the record names an unknown mode '%s'", mode);
        return -1;
    }
    device_read(&r, object(&r, o, "", "device"), &res->device);
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(o, "run");
    if ((res->has_run = run != NULL)) {
        res->run.launched = flag(&r, run, "run", "launched");
        res->run.guards_intact = flag(&r, run, "run", "guards_intact");
        res->run.useful_bytes = num(&r, run, "run", "useful_bytes");
        res->run.least_load_bytes = num(&r, run, "run", "least_load_bytes");
        res->run.least_store_bytes = num(&r, run, "run", "least_store_bytes");
        res->run.checked_after_timing = flag(&r, run, "run", "checked_after_timing");
        text(&r, run, "run", "input_changed", res->run.input_changed,
             sizeof res->run.input_changed);
    }
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "timing");
    if ((res->has_timing = t != NULL)) {
        time_read(&r, object(&r, t, "timing", "student"), "timing.student", &res->timing.student);
        const cJSON *c = object(&r, t, "timing", "ceiling");
        time_read(&r, c, "timing.ceiling", &res->timing.ceiling);
        text(&r, c, "timing.ceiling", "kernel", res->timing.ceiling_kernel,
             sizeof res->timing.ceiling_kernel);
        res->timing.ceiling_buffer_bytes = num(&r, c, "timing.ceiling", "buffer_bytes");
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(t, "baseline");
        if ((res->timing.has_baseline = b != NULL))
            time_read(&r, b, "timing.baseline", &res->timing.baseline);
        res->timing.flush_bytes = num(&r, t, "timing", "flush_bytes");
    }
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "counters");
    if ((res->has_counters = c != NULL))
        counters_read(&r, c, &res->counters);
    return r.failed ? -1 : 0;
}

/* ---- record.json ---- */

static void hex_encode(const unsigned char *b, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; ++i) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = '\0';
}

static int hex_decode(const char *s, unsigned char *b, size_t max, uint32_t *n)
{
    size_t len = strlen(s);
    if (len % 2 || len / 2 > max)
        return -1;
    for (size_t i = 0; i < len / 2; ++i) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1)
            return -1;
        b[i] = (unsigned char)v;
    }
    *n = (uint32_t)(len / 2);
    return 0;
}

static cJSON *u32_array(const uint32_t *v, int n)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < n; ++i)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

/* Reads a list of exactly n (or, with n < 0, at most max) numbers into v; returns how many. */
static int u32_list(reader *r, const cJSON *o, const char *where, const char *key, uint32_t *v,
                    int n, int max)
{
    const cJSON *a = array(r, o, where, key), *e;
    int got = 0;
    cJSON_ArrayForEach(e, a)
    {
        if (got == (n >= 0 ? n : max) || !cJSON_IsNumber(e) || e->valuedouble < 0 ||
            e->valuedouble > 4294967295.0) {
            missing(r, where, key, n >= 0 ? "list of the right length of" : "short list of");
            return got;
        }
        v[got++] = (uint32_t)e->valuedouble;
    }
    if (a && n >= 0 && got != n)
        missing(r, where, key, "list of the right length of");
    return got;
}

static cJSON *op_to_json(const wi_op *op)
{
    cJSON *o = cJSON_CreateObject();
    if (op->kind == WI_OP_COPY || op->kind == WI_OP_MEMSET) {
        int copy = op->kind == WI_OP_COPY;
        cJSON_AddStringToObject(o, "op", copy ? "copy" : "memset");
        cJSON_AddNumberToObject(o, "dst_buffer", op->dst_buffer);
        cJSON_AddNumberToObject(o, "dst_delta", (double)op->dst_delta);
        cJSON_AddNumberToObject(o, "dst_pitch", (double)op->dst_pitch);
        if (copy) {
            cJSON_AddNumberToObject(o, "src_buffer", op->src_buffer);
            cJSON_AddNumberToObject(o, "src_delta", (double)op->src_delta);
            cJSON_AddNumberToObject(o, "src_pitch", (double)op->src_pitch);
        } else {
            cJSON_AddNumberToObject(o, "value", op->value);
        }
        cJSON_AddNumberToObject(o, "width", (double)op->width);
        cJSON_AddNumberToObject(o, "height", (double)op->height);
        return o;
    }
    cJSON_AddStringToObject(o, "op", "launch");
    cJSON_AddStringToObject(o, "kernel", op->kernel);
    cJSON_AddItemToObject(o, "grid", u32_array(op->grid, 3));
    cJSON_AddItemToObject(o, "block", u32_array(op->block, 3));
    cJSON_AddNumberToObject(o, "shared_bytes", op->shared_bytes);
    cJSON_AddNumberToObject(o, "max_dynamic_shared", op->max_dynamic_shared);
    cJSON_AddNumberToObject(o, "carveout", op->carveout);
    cJSON_AddItemToObject(o, "param_offset", u32_array(op->param_offset, (int)op->nparams));
    cJSON_AddItemToObject(o, "param_size", u32_array(op->param_size, (int)op->nparams));
    char *hex = malloc(2 * (size_t)op->param_bytes + 1);
    if (hex) {
        hex_encode(op->params, op->param_bytes, hex);
        cJSON_AddStringToObject(o, "params", hex);
        free(hex);
    }
    cJSON *rel = cJSON_AddArrayToObject(o, "relocs");
    for (uint32_t i = 0; i < op->nrelocs; ++i) {
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "offset", op->relocs[i].offset);
        cJSON_AddNumberToObject(x, "buffer", op->relocs[i].buffer);
        cJSON_AddNumberToObject(x, "delta", (double)op->relocs[i].delta);
        cJSON_AddItemToArray(rel, x);
    }
    return o;
}

/* Whether [delta, delta + bytes) lies inside buffer b of r. */
static int inside(const wi_record *r, uint32_t b, uint64_t delta, uint64_t bytes)
{
    return b < r->nbuffers && delta <= r->buffers[b].bytes && bytes <= r->buffers[b].bytes - delta;
}

static void launch_read(reader *r, const cJSON *o, const wi_record *rec, wi_op *op)
{
    const char *w = "ops[]";
    whole_text(r, o, w, "kernel", op->kernel, sizeof op->kernel);
    u32_list(r, o, w, "grid", op->grid, 3, 3);
    u32_list(r, o, w, "block", op->block, 3, 3);
    op->shared_bytes = (uint32_t)num(r, o, w, "shared_bytes");
    double most = num(r, o, w, "max_dynamic_shared"), carveout = num(r, o, w, "carveout");
    if (!r->failed && (most < -1 || most > 2147483647.0 || most != (int32_t)most))
        missing(r, w, "max_dynamic_shared", "number of bytes (or -1) as");
    if (!r->failed && (carveout < -1 || carveout > 100 || carveout != (int32_t)carveout))
        missing(r, w, "carveout", "percentage (or -1) as");
    op->max_dynamic_shared = r->failed ? -1 : (int32_t)most;
    op->carveout = r->failed ? -1 : (int32_t)carveout;
    op->nparams = (uint32_t)u32_list(r, o, w, "param_offset", op->param_offset, -1, WI_MAX_PARAMS);
    u32_list(r, o, w, "param_size", op->param_size, (int)op->nparams, WI_MAX_PARAMS);
    char hex[2 * WI_MAX_PARAM_BYTES + 2];
    text(r, o, w, "params", hex, sizeof hex);
    if (!r->failed && hex_decode(hex, op->params, sizeof op->params, &op->param_bytes) != 0)
        missing(r, w, "params", "hex string of at most 4096 bytes,");
    for (uint32_t i = 0; !r->failed && i < op->nparams; ++i)
        if (op->param_offset[i] > op->param_bytes ||
            op->param_size[i] > op->param_bytes - op->param_offset[i])
            missing(r, w, "param_offset", "parameter inside the parameters, a");
    const cJSON *rel = array(r, o, w, "relocs"), *x;
    cJSON_ArrayForEach(x, rel)
    {
        if (op->nrelocs == WI_MAX_RELOCS) {
            missing(r, w, "relocs", "short enough list of");
            break;
        }
        wi_reloc *re = &op->relocs[op->nrelocs++];
        re->offset = (uint32_t)num(r, x, "ops[].relocs[]", "offset");
        re->buffer = (uint32_t)num(r, x, "ops[].relocs[]", "buffer");
        re->delta = count(r, x, "ops[].relocs[]", "delta");
        /* At any byte (packed structures), but each after the last: none overlap. */
        int overlaps = op->nrelocs > 1 && re->offset < re[-1].offset + 8;
        if (!r->failed &&
            (overlaps || re->offset > op->param_bytes || op->param_bytes - re->offset < 8 ||
             !inside(rec, re->buffer, re->delta, 0)))
            missing(r, "ops[].relocs[]", "offset",
                    "relocation inside the parameters and a buffer, after the last, as");
    }
}

/* Whether the span at delta in buffer b of r lies inside it. */
static int span_inside(const wi_record *r, uint32_t b, uint64_t delta, uint64_t pitch,
                       uint64_t width, uint64_t height)
{
    return b < r->nbuffers && wi_span_fits(r->buffers[b].bytes, delta, pitch, width, height);
}

/* A copy or memset: at least one byte, inside the lab's buffers, and never into an input. */
static void transfer_read(reader *r, const cJSON *o, const wi_record *rec, wi_op *op)
{
    const char *w = "ops[]";
    int copy = op->kind == WI_OP_COPY;
    op->dst_buffer = (uint32_t)num(r, o, w, "dst_buffer");
    op->dst_delta = count(r, o, w, "dst_delta");
    op->dst_pitch = count(r, o, w, "dst_pitch");
    if (copy) {
        op->src_buffer = (uint32_t)num(r, o, w, "src_buffer");
        op->src_delta = count(r, o, w, "src_delta");
        op->src_pitch = count(r, o, w, "src_pitch");
    } else {
        double value = num(r, o, w, "value");
        if (!r->failed && (value < 0 || value > 255 || value != (uint32_t)value))
            missing(r, w, "value", "byte as");
        op->value = r->failed ? 0 : (uint32_t)value;
    }
    op->width = count(r, o, w, "width");
    op->height = count(r, o, w, "height");
    if (r->failed)
        return;
    if (op->width == 0 || op->height == 0 ||
        !span_inside(rec, op->dst_buffer, op->dst_delta, op->dst_pitch, op->width, op->height) ||
        (copy &&
         !span_inside(rec, op->src_buffer, op->src_delta, op->src_pitch, op->width, op->height)))
        missing(r, w, "width",
                copy ? "copy inside the lab's buffers, as" : "memset inside the lab's buffers, as");
    else if (rec->buffers[op->dst_buffer].input)
        missing(r, w, "dst_buffer", "buffer that is not an input, as");
}

static void op_read(reader *r, const cJSON *o, const wi_record *rec, wi_op *op)
{
    char kind[16];
    text(r, o, "ops[]", "op", kind, sizeof kind);
    if (!strcmp(kind, "launch")) {
        op->kind = WI_OP_LAUNCH;
        launch_read(r, o, rec, op);
    } else if (!strcmp(kind, "copy") || !strcmp(kind, "memset")) {
        op->kind = !strcmp(kind, "copy") ? WI_OP_COPY : WI_OP_MEMSET;
        transfer_read(r, o, rec, op);
    } else if (!r->failed) {
        missing(r, "ops[]", "op", "launch, copy or memset as");
    }
}

cJSON *wi_record_to_json(const wi_record *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "refused", r->refused);
    cJSON *bs = cJSON_AddArrayToObject(o, "buffers");
    for (uint32_t i = 0; i < r->nbuffers && i < WI_MAX_BUFFERS; ++i) {
        cJSON *b = cJSON_CreateObject();
        cJSON_AddStringToObject(b, "name", r->buffers[i].name);
        cJSON_AddNumberToObject(b, "bytes", (double)r->buffers[i].bytes);
        cJSON_AddBoolToObject(b, "input", r->buffers[i].input);
        cJSON_AddItemToArray(bs, b);
    }
    cJSON *v = cJSON_AddArrayToObject(o, "lab_values");
    for (int i = 0; i < WI_LAB_VALUES; ++i)
        cJSON_AddItemToArray(v, cJSON_CreateNumber((double)r->lab_values[i]));
    cJSON *ops = cJSON_AddArrayToObject(o, "ops");
    for (uint32_t i = 0; i < r->nops && i < WI_MAX_OPS; ++i)
        cJSON_AddItemToArray(ops, op_to_json(&r->ops[i]));
    return o;
}

int wi_record_from_json(const cJSON *o, wi_record *rec, char *why, size_t why_size)
{
    reader r = {why, why_size, 0};
    memset(rec, 0, sizeof *rec);
    text(&r, o, "", "refused", rec->refused, sizeof rec->refused);
    const cJSON *bs = array(&r, o, "", "buffers"), *b;
    cJSON_ArrayForEach(b, bs)
    {
        if (rec->nbuffers == WI_MAX_BUFFERS) {
            missing(&r, "", "buffers", "short enough list of");
            break;
        }
        wi_buffer_info *bi = &rec->buffers[rec->nbuffers++];
        text(&r, b, "buffers[]", "name", bi->name, sizeof bi->name);
        bi->bytes = count(&r, b, "buffers[]", "bytes");
        bi->input = flag(&r, b, "buffers[]", "input");
    }
    const cJSON *v = array(&r, o, "", "lab_values"), *x;
    int nv = 0;
    cJSON_ArrayForEach(x, v)
    {
        if (nv < WI_LAB_VALUES && cJSON_IsNumber(x) && x->valuedouble >= 0)
            rec->lab_values[nv] = (uint64_t)x->valuedouble;
        ++nv;
    }
    if (v && nv != WI_LAB_VALUES)
        missing(&r, "", "lab_values", "list of 4");
    const cJSON *ops = array(&r, o, "", "ops"), *op;
    cJSON_ArrayForEach(op, ops)
    {
        if (rec->nops == WI_MAX_OPS) {
            missing(&r, "", "ops", "short enough list of");
            break;
        }
        op_read(&r, op, rec, &rec->ops[rec->nops++]);
    }
    return r.failed ? -1 : 0;
}

int wi_record_load(const char *path, wi_record *r, char *why, size_t why_size)
{
    cJSON *json = wi_read_file(path, why, why_size);
    int rc = json ? wi_record_from_json(json, r, why, why_size) : -1;
    cJSON_Delete(json);
    return rc;
}

int wi_record_save(const char *path, const wi_record *r)
{
    cJSON *json = wi_record_to_json(r);
    int rc = wi_write_file(path, json);
    cJSON_Delete(json);
    return rc;
}

int wi_span_fits(uint64_t size, uint64_t delta, uint64_t pitch, uint64_t width, uint64_t height)
{
    if (delta > size)
        return 0;
    if (width == 0 || height == 0)
        return 1;
    if (width > size - delta || (height > 1 && pitch < width))
        return 0;
    /* The last row starts (height - 1) pitches on and must still hold width bytes. */
    return height == 1 || height - 1 <= (size - delta - width) / pitch;
}

/* ---- trace.json ---- */

static cJSON *instruction_to_json(const ta_instruction *in)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "pc", (double)in->pc);
    cJSON_AddStringToObject(o, "op", in->is_store ? "store" : "load");
    cJSON_AddNumberToObject(o, "size", in->size);
    cJSON_AddStringToObject(o, "file", in->file);
    cJSON_AddNumberToObject(o, "line", in->line);
    cJSON_AddItemToObject(o, "tally", wi_tally_to_json(&in->tally));
    cJSON *s = cJSON_AddObjectToObject(o, "sample");
    cJSON_AddNumberToObject(s, "warp", in->sample.warp);
    cJSON_AddNumberToObject(s, "active", in->sample.active);
    cJSON *addr = cJSON_AddArrayToObject(s, "addr");
    for (int l = 0; l < CL_WARP_SIZE; ++l)
        cJSON_AddItemToArray(
            addr,
            cJSON_CreateNumber((in->sample.active >> l) & 1 ? (double)in->sample.addr[l] : -1.0));
    return o;
}

static void instruction_read(reader *r, const cJSON *o, ta_instruction *in)
{
    const char *w = "kernels[].instructions[]";
    char op[16];
    in->pc = count(r, o, w, "pc");
    text(r, o, w, "op", op, sizeof op);
    in->is_store = !strcmp(op, "store");
    in->size = (uint32_t)num(r, o, w, "size");
    text(r, o, w, "file", in->file, sizeof in->file);
    in->line = (unsigned)num(r, o, w, "line");
    tally_read(r, object(r, o, w, "tally"), "instructions[].tally", &in->tally);
    const cJSON *s = object(r, o, w, "sample");
    in->sample.pc = in->pc;
    in->sample.is_store = (uint32_t)in->is_store;
    in->sample.size = in->size;
    in->sample.warp = (uint32_t)num(r, s, "instructions[].sample", "warp");
    in->sample.active = (uint32_t)num(r, s, "instructions[].sample", "active");
    const cJSON *addr = array(r, s, "instructions[].sample", "addr"), *a;
    int lane = 0;
    cJSON_ArrayForEach(a, addr)
    {
        if (lane < CL_WARP_SIZE && cJSON_IsNumber(a))
            in->sample.addr[lane] = a->valuedouble >= 0 ? (uint64_t)a->valuedouble : 0;
        ++lane;
    }
    if (s && lane != CL_WARP_SIZE)
        missing(r, "instructions[].sample", "addr", "list of 32 addresses");
}

cJSON *wi_trace_to_json(const wi_trace *t)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "engine", "trace");
    cJSON_AddStringToObject(root, "error", t->error);
    cJSON_AddNumberToObject(root, "sample", t->sample);
    cJSON_AddNumberToObject(root, "max_records", t->max_records);
    cJSON *ks = cJSON_AddArrayToObject(root, "kernels");
    for (size_t i = 0; i < t->nkernels; ++i) {
        const wi_trace_kernel *tk = &t->kernels[i];
        const ta_kernel *k = &tk->k;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", k->name);
        cJSON_AddNumberToObject(o, "launches", tk->launches);
        cJSON_AddNumberToObject(o, "sample", tk->sample);
        cJSON_AddNumberToObject(o, "scale", tk->scale);
        cJSON_AddNumberToObject(o, "records", (double)k->records);
        cJSON_AddNumberToObject(o, "dropped", (double)tk->dropped);
        cJSON_AddNumberToObject(o, "oob_reads", (double)tk->oob_reads);
        cJSON_AddStringToObject(o, "oob_file", tk->oob_file);
        cJSON_AddNumberToObject(o, "oob_line", tk->oob_line);
        cJSON_AddNumberToObject(o, "invalid", (double)k->invalid);
        cJSON_AddItemToObject(o, "loads", wi_tally_to_json(&k->loads));
        cJSON_AddItemToObject(o, "stores", wi_tally_to_json(&k->stores));
        cJSON *ins = cJSON_AddArrayToObject(o, "instructions");
        for (size_t j = 0; j < k->nins; ++j)
            cJSON_AddItemToArray(ins, instruction_to_json(&k->ins[j]));
        cJSON_AddItemToArray(ks, o);
    }
    return root;
}

static void kernel_read(reader *r, const cJSON *o, wi_trace_kernel *tk)
{
    const char *w = "kernels[]";
    ta_kernel *k = &tk->k;
    text(r, o, w, "name", k->name, sizeof k->name);
    tk->launches = (unsigned)num(r, o, w, "launches");
    tk->sample = (unsigned)num(r, o, w, "sample");
    tk->scale = num(r, o, w, "scale");
    k->records = count(r, o, w, "records");
    tk->dropped = count(r, o, w, "dropped");
    tk->oob_reads = count(r, o, w, "oob_reads");
    text(r, o, w, "oob_file", tk->oob_file, sizeof tk->oob_file);
    tk->oob_line = (unsigned)num(r, o, w, "oob_line");
    k->invalid = count(r, o, w, "invalid");
    tally_read(r, object(r, o, w, "loads"), "kernels[].loads", &k->loads);
    tally_read(r, object(r, o, w, "stores"), "kernels[].stores", &k->stores);
    const cJSON *ins = array(r, o, w, "instructions");
    int n = ins ? cJSON_GetArraySize(ins) : 0;
    k->ins = n > 0 ? calloc((size_t)n, sizeof *k->ins) : NULL;
    if (n > 0 && !k->ins) {
        missing(r, w, "instructions", "room for the");
        return;
    }
    const cJSON *in;
    cJSON_ArrayForEach(in, ins)
    {
        instruction_read(r, in, &k->ins[k->nins++]);
    }
}

int wi_trace_from_json(const cJSON *o, wi_trace *t, char *why, size_t why_size)
{
    reader r = {why, why_size, 0};
    memset(t, 0, sizeof *t);
    text(&r, o, "", "error", t->error, sizeof t->error);
    t->sample = (unsigned)num(&r, o, "", "sample");
    t->max_records = (unsigned)num(&r, o, "", "max_records");
    const cJSON *ks = array(&r, o, "", "kernels");
    int n = ks ? cJSON_GetArraySize(ks) : 0;
    t->kernels = n > 0 ? calloc((size_t)n, sizeof *t->kernels) : NULL;
    if (n > 0 && !t->kernels) {
        snprintf(why, why_size, "out of memory for %d traced kernels", n);
        return -1;
    }
    const cJSON *k;
    cJSON_ArrayForEach(k, ks)
    {
        kernel_read(&r, k, &t->kernels[t->nkernels++]);
    }
    return r.failed ? -1 : 0;
}

void wi_trace_free(wi_trace *t)
{
    for (size_t i = 0; i < t->nkernels; ++i)
        ta_kernel_free(&t->kernels[i].k);
    free(t->kernels);
    t->kernels = NULL;
    t->nkernels = 0;
}

/* ---- files ---- */

FILE *wi_create(const char *path)
{
    if (unlink(path) != 0 && errno != ENOENT)
        return NULL;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (fd >= 0 && !f)
        close(fd);
    return f;
}

int wi_write_file(const char *path, const cJSON *json)
{
    char *text = json ? cJSON_PrintUnformatted(json) : NULL;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = text ? wi_create(tmp) : NULL;
    int ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0)
        ok = 0;
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    free(text);
    return ok ? 0 : -1;
}

void *wi_read_bytes(const char *path, size_t max, size_t *size, char *why, size_t why_size)
{
    *size = 0;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        snprintf(why, why_size,
                 errno == ELOOP ? "'%s' is a link, never followed" : "no record '%s'", path);
        return NULL;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > max) {
        snprintf(why, why_size, "'%s' is not a record (not a regular file, or too large)", path);
        close(fd);
        return NULL;
    }
    size_t want = (size_t)st.st_size, got = 0;
    char *buf = malloc(want + 1);
    while (buf && got < want) {
        ssize_t n = read(fd, buf + got, want - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (!buf) {
        snprintf(why, why_size, "out of memory reading '%s'", path);
        return NULL;
    }
    buf[got] = '\0';
    *size = got;
    return buf;
}

cJSON *wi_read_file(const char *path, char *why, size_t why_size)
{
    size_t n;
    char *buf = wi_read_bytes(path, WI_MAX_FILE_BYTES, &n, why, why_size);
    if (!buf)
        return NULL;
    cJSON *json = cJSON_Parse(buf);
    free(buf);
    if (!json)
        snprintf(why, why_size, "'%s' is not valid JSON", path);
    return json;
}

/* The length of the valid UTF-8 sequence at p (1 to 4), or 0 where p holds none: a stray
 * continuation byte, an overlong form, a surrogate, a code point past U+10FFFF, a cut one. */
static size_t utf8_length(const unsigned char *p)
{
    unsigned char c = p[0];
    if (c < 0x80)
        return 1;
    size_t n = c >= 0xc2 && c <= 0xdf   ? 2
               : c >= 0xe0 && c <= 0xef ? 3
               : c >= 0xf0 && c <= 0xf4 ? 4
                                        : 0;
    unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
    unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
    if (n && (p[1] < lo || p[1] > hi))
        return 0;
    for (size_t i = 2; i < n; ++i)
        if (p[i] < 0x80 || p[i] > 0xbf)
            return 0;
    return n;
}

void wi_clean_text(char *s)
{
    unsigned char *p = (unsigned char *)s;
    while (p && *p) {
        size_t n = utf8_length(p);
        if (n == 0) /* not UTF-8 (Latin-1, a binary file, a name cut inside a character) */
            *p = '?', n = 1;
        else if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
            *p = '?';
        else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) /* C1 controls, U+0080-U+009F */
            p[0] = p[1] = '?';
        else if (p[0] == 0xe2 && ((p[1] == 0x80 && p[2] >= 0xaa && p[2] <= 0xae) ||
                                  (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9)))
            p[0] = p[1] = p[2] = '?'; /* bidirectional overrides and isolates */
        p += n;
    }
}

size_t wi_utf8_cut(const char *s, size_t max)
{
    size_t at = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (p[at]) {
        size_t n = utf8_length(p + at);
        n = n ? n : 1;
        if (at + n > max)
            break;
        at += n;
    }
    return at;
}
