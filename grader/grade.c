/* grade.c - see grade.h. */
#define _POSIX_C_SOURCE 200809L
#include "grade.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "exit_codes.h"
#include "hints.h"
#include "runner.h"
#include "tally_json.h"

void oc_free(oc_outcome *o)
{
    free(o->compile_log);
    free(o->run_log);
    o->compile_log = o->run_log = NULL;
}

static void progress(const gr_config *cfg, const char *fmt, ...)
{
    if (!cfg->progress)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(cfg->progress, fmt, ap);
    va_end(ap);
    fflush(cfg->progress);
}

static char *take_output(rn_result *r)
{
    char *s = r->output;
    r->output = NULL;
    return s ? s : calloc(1, 1);
}

static cJSON *read_json_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t len = 0, cap = 0, got;
    char chunk[4096];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0 && len + got < (64u << 20)) {
        if (len + got + 1 > cap) {
            cap = 2 * (len + got + 1);
            char *grown = realloc(text, cap);
            if (!grown)
                break;
            text = grown;
        }
        memcpy(text + len, chunk, got);
        len += got;
    }
    fclose(f);
    if (!text)
        return NULL;
    text[len] = '\0';
    cJSON *root = cJSON_Parse(text);
    free(text);
    return root;
}

static cJSON *read_json(const char *workdir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/result.json", workdir);
    return read_json_file(path);
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0.0;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

/* Explains a child that did not finish cleanly, in words for a student. */
static void explain_child(const rn_result *r, double limit, char *buf, size_t size)
{
    char how[256];
    rn_describe(r, how, sizeof how);
    if (r->status == RN_TIMED_OUT)
        snprintf(buf, size,
                 "timed out after %.0f s: the kernel never finished (a loop whose index never "
                 "reaches its bound?)",
                 limit);
    else if (r->status == RN_SIGNALED)
        snprintf(buf, size, "crashed: %s", how);
    else if (r->status == RN_START_FAILED)
        snprintf(buf, size, "the grading child %s", how);
    else if (r->exit_code == CL_EXIT_CUDA)
        snprintf(buf, size, "a CUDA call failed (the message below names it)");
    else if (r->exit_code == WK_EXIT_CONTRACT)
        snprintf(buf, size, "the compiled kernel does not fit the lab's launcher contract");
    else if (r->exit_code == WK_EXIT_IO)
        snprintf(buf, size, "the grading child could not save its results");
    else
        snprintf(buf, size, "the kernel's process %s", how);
}

static int make_dir(const char *path)
{
    return mkdir(path, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

static int run_worker_env(const gr_config *cfg, const char *mode, const lab_spec *spec,
                          const char *so, const char *workdir, double timeout, const char **env,
                          rn_result *r);

static int run_worker(const gr_config *cfg, const char *mode, const lab_spec *spec, const char *so,
                      const char *workdir, double timeout, rn_result *r)
{
    return run_worker_env(cfg, mode, spec, so, workdir, timeout, NULL, r);
}

static int run_worker_env(const gr_config *cfg, const char *mode, const lab_spec *spec,
                          const char *so, const char *workdir, double timeout, const char **env,
                          rn_result *r)
{
    char seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, cfg->seed);
    const char *argv[16];
    int n = 0;
    argv[n++] = cfg->worker;
    argv[n++] = mode;
    argv[n++] = "--workdir";
    argv[n++] = workdir;
    argv[n++] = "--seed";
    argv[n++] = seed;
    if (spec) {
        argv[n++] = "--lab";
        argv[n++] = spec->id;
    }
    if (so) {
        argv[n++] = "--kernel";
        argv[n++] = so;
    }
    if (!strcmp(mode, "run") && !cfg->timing)
        argv[n++] = "--no-timing";
    if (!strcmp(mode, "counters") && spec && spec->report_bank_conflicts)
        argv[n++] = "--shared-counters";
    argv[n] = NULL;
    rn_options ro = {.timeout_s = timeout, .output_cap = 16 * 1024, .env_add = env};
    char result[4200];
    snprintf(result, sizeof result, "%s/result.json", workdir);
    remove(result);
    return rn_run(argv, &ro, r);
}

int gr_probe(const gr_config *cfg, const char *workdir, di_info *dev, char *why, size_t why_size)
{
    memset(dev, 0, sizeof *dev);
    rn_result r;
    if (make_dir(workdir) != 0 || run_worker(cfg, "probe", NULL, NULL, workdir, 60, &r) != 0) {
        snprintf(why, why_size, "cannot prepare '%s'", workdir);
        return -1;
    }
    cJSON *root = read_json(workdir);
    int rc = -1;
    if (r.status != RN_EXITED || r.exit_code != 0 || !root) {
        char how[256];
        rn_describe(&r, how, sizeof how);
        snprintf(why, why_size, "the grading child '%s' %s%s%.300s", cfg->worker, how,
                 r.output_len ? ":\n" : "", r.output ? r.output : "");
    } else {
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(root, "device");
        dev->count = (int)num(d, "count");
        snprintf(dev->name, sizeof dev->name, "%s", str(d, "name"));
        sscanf(str(d, "compute_capability"), "%d.%d", &dev->cc_major, &dev->cc_minor);
        dev->sm_count = (int)num(d, "sm_count");
        dev->l2_bytes = (size_t)num(d, "l2_bytes");
        dev->global_bytes = (size_t)num(d, "global_bytes");
        int maj = 0, min = 0;
        if (sscanf(str(d, "driver_cuda"), "%d.%d", &maj, &min) == 2)
            dev->driver_version = maj * 1000 + min * 10;
        if (sscanf(str(d, "runtime_cuda"), "%d.%d", &maj, &min) == 2)
            dev->runtime_version = maj * 1000 + min * 10;
        const char *err = str(root, "device_error");
        if (dev->count > 0 && !*err) {
            rc = 0;
        } else {
            rc = 1;
            if (dev->driver_version == 0)
                snprintf(why, why_size,
                         "no CUDA GPU was found: this machine has no NVIDIA driver (%s)",
                         *err ? err : "no device");
            else if (!strcmp(err, "cudaErrorInsufficientDriver"))
                snprintf(why, why_size,
                         "the NVIDIA driver is older than this CUDA runtime (%s): update the "
                         "driver, or build the grader with an older CUDA toolkit",
                         str(root, "device_error_text"));
            else
                snprintf(why, why_size, "no CUDA GPU was found (%s)",
                         *err ? str(root, "device_error_text") : "no device");
        }
    }
    cJSON_Delete(root);
    rn_result_free(&r);
    return rc;
}

void gr_default_kernel(const gr_config *cfg, const lab_spec *spec, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s/%s-%s/kernel.cu", cfg->root, cfg->solution ? "solutions" : "labs",
             spec->id, spec->slug);
}

static int compile_kernel(const gr_config *cfg, const lab_spec *spec, oc_outcome *o, const char *so)
{
    char include[4200];
    snprintf(include, sizeof include, "%s/labs/%s-%s", cfg->root, spec->id, spec->slug);
    bd_options bo = {.nvcc = cfg->nvcc,
                     .arch = cfg->arch,
                     .include_dir = include,
                     .timeout_s = cfg->compile_timeout_s};
    rn_result r;
    progress(cfg, "[%s] compiling %s\n", spec->id, o->kernel_path);
    int rc = bd_compile(o->kernel_path, so, &bo, &r);
    o->compile_s = r.elapsed_s;
    o->compile_log = take_output(&r);
    if (rc != 0 && r.status == RN_TIMED_OUT) {
        free(o->compile_log);
        o->compile_log = strdup("nvcc did not finish in time\n");
    } else if (rc != 0 && r.status == RN_START_FAILED) {
        char line[512];
        snprintf(line, sizeof line, "cannot run the CUDA compiler '%s': %s", bo.nvcc,
                 o->compile_log);
        free(o->compile_log);
        o->compile_log = strdup(line);
    }
    rn_result_free(&r);
    o->compiled = rc == 0;
    return rc;
}

static void correctness_run(const gr_config *cfg, const lab_spec *spec, oc_outcome *o,
                            const char *so)
{
    rn_result r;
    progress(cfg, "[%s] running the kernel (correctness%s)\n", spec->id,
             cfg->timing ? ", then timing" : "");
    if (run_worker(cfg, "run", spec, so, o->workdir, cfg->run_timeout_s, &r) != 0) {
        snprintf(o->run_problem, sizeof o->run_problem, "cannot start the grading child");
        return;
    }
    o->run_log = take_output(&r);
    o->run_status = (int)r.status;
    o->run_exit = r.exit_code;
    cJSON *root = read_json(o->workdir);
    int finished = r.status == RN_EXITED && r.exit_code == 0;
    if (!finished)
        explain_child(&r, cfg->run_timeout_s, o->run_problem, sizeof o->run_problem);
    if (root && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "launched"))) {
        o->ran = 1;
        o->guards_intact = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "guards_intact"));
        o->useful_bytes = num(root, "useful_bytes");
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(root, "timing");
        if (finished && t) {
            const cJSON *s = cJSON_GetObjectItemCaseSensitive(t, "student");
            const cJSON *c = cJSON_GetObjectItemCaseSensitive(t, "sol_copy");
            o->timed = 1;
            o->student_ms = num(s, "median_ms");
            o->student_bytes_per_s = num(s, "bytes_per_s");
            o->sol_bytes_per_s = num(c, "bytes_per_s");
            o->baseline_ms = num(cJSON_GetObjectItemCaseSensitive(t, "baseline"), "median_ms");
        }
    }
    cJSON_Delete(root);
    rn_result_free(&r);
    if (o->ran) {
        progress(cfg, "[%s] checking the outputs against the CPU reference\n", spec->id);
        o->check_ok = spec->check(o->workdir, cfg->seed, &o->check) == 0;
    }
}

static oc_engine_state engine_state(const char *status)
{
    if (!strcmp(status, "ok"))
        return OC_ENGINE_OK;
    if (!strcmp(status, "no_permission"))
        return OC_ENGINE_NO_PERMISSION;
    if (!strcmp(status, "unsupported"))
        return OC_ENGINE_UNSUPPORTED;
    return OC_ENGINE_FAILED;
}

static void counters_run(const gr_config *cfg, const lab_spec *spec, oc_outcome *o, const char *so)
{
    rn_result r;
    progress(cfg, "[%s] reading the hardware counters (CUPTI)\n", spec->id);
    if (run_worker(cfg, "counters", spec, so, o->workdir, cfg->counters_timeout_s, &r) != 0) {
        o->counters = OC_ENGINE_FAILED;
        snprintf(o->counters_why, sizeof o->counters_why, "cannot start the grading child");
        return;
    }
    cJSON *root = read_json(o->workdir);
    const cJSON *c = root ? cJSON_GetObjectItemCaseSensitive(root, "counters") : NULL;
    if (r.status != RN_EXITED || r.exit_code != 0 || !c) {
        /* It ran correctly once; failing now is the kernel's doing, not the engine's. */
        o->counters =
            r.status == RN_EXITED && r.exit_code == 0 ? OC_ENGINE_FAILED : OC_ENGINE_RUN_FAILED;
        explain_child(&r, cfg->counters_timeout_s, o->counters_why, sizeof o->counters_why);
    } else {
        o->counters = engine_state(str(c, "status"));
        snprintf(o->counters_why, sizeof o->counters_why, "%s", str(c, "why"));
        const cJSON *k;
        size_t used = 0;
        cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(c, "kernels"))
        {
            o->load.requests += num(k, "ld_requests");
            o->load.sectors += num(k, "ld_sectors");
            o->load.bytes += num(k, "ld_bytes");
            o->store.requests += num(k, "st_requests");
            o->store.sectors += num(k, "st_sectors");
            o->store.bytes += num(k, "st_bytes");
            o->shared_ld_requests += num(k, "shared_ld_requests");
            o->shared_st_requests += num(k, "shared_st_requests");
            o->shared_ld_conflicts += num(k, "shared_ld_conflicts");
            o->shared_st_conflicts += num(k, "shared_st_conflicts");
            const char *name = str(k, "name");
            if (used < sizeof o->counters_kernels && name[strspn(name, "0123456789")] != '\0')
                used +=
                    (size_t)snprintf(o->counters_kernels + used, sizeof o->counters_kernels - used,
                                     "%s%s", used ? ", " : "", name);
        }
    }
    cJSON_Delete(root);
    rn_result_free(&r);
}

/* Reads line number `line` of path into buf, without leading blanks and the newline. */
static void source_line(const char *path, unsigned line, char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    char text[1024];
    for (unsigned n = 1; f && fgets(text, sizeof text, f); ++n) {
        if (n == line) {
            char *p = text + strspn(text, " \t");
            p[strcspn(p, "\r\n")] = '\0';
            snprintf(buf, size, "%s", p);
            break;
        }
    }
    if (f)
        fclose(f);
}

/* Shortens path to be relative to the current folder when it lies below it. */
static void relative_to_cwd(char *path)
{
    char cwd[4096];
    size_t len = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
    if (len && !strncmp(path, cwd, len) && path[len] == '/')
        memmove(path, path + len + 1, strlen(path + len + 1) + 1);
}

/* A kernel's traced requests stand for `scale` times as many: the tracer computes it launch by
 * launch from the warps it sampled and the records its buffer dropped. Kernels of one lab can
 * differ in both, so tallies are scaled before they are added up. */
static double trace_scale(const cJSON *kernel)
{
    double scale = num(kernel, "scale");
    return scale > 0 ? scale : 1.0;
}

static void add_scaled(cl_tally *into, const cJSON *o, double scale)
{
    cl_tally t = {0};
    tj_add_from_json(o, &t);
    into->requests += (uint64_t)(t.requests * scale + 0.5);
    into->sectors += (uint64_t)(t.sectors * scale + 0.5);
    into->lines += (uint64_t)(t.lines * scale + 0.5);
    into->unique_bytes += (uint64_t)(t.unique_bytes * scale + 0.5);
    into->ideal_sectors += (uint64_t)(t.ideal_sectors * scale + 0.5);
}

/* Keeps, across kernels, the load and the store that waste the most sectors (scaled). */
static void consider_worst(oc_outcome *o, const char *kernel, const cJSON *in, double scale)
{
    cl_tally t = {0};
    tj_add_from_json(cJSON_GetObjectItemCaseSensitive(in, "tally"), &t);
    double waste = (double)(t.sectors - t.ideal_sectors) * scale;
    oc_worst *w = &o->worst[!strcmp(str(in, "op"), "store")];
    if (w->found && waste <= w->waste)
        return;
    memset(w, 0, sizeof *w);
    w->found = 1;
    w->waste = waste;
    w->tally = t;
    snprintf(w->kernel, sizeof w->kernel, "%s", kernel);
    snprintf(w->file, sizeof w->file, "%s", str(in, "file"));
    w->line = (unsigned)num(in, "line");
    w->is_store = !strcmp(str(in, "op"), "store");
    w->size = (unsigned)num(in, "size");
    const cJSON *sample = cJSON_GetObjectItemCaseSensitive(in, "sample");
    w->active = (uint32_t)num(sample, "active");
    const cJSON *a;
    int lane = 0;
    cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(sample, "addr"))
    {
        if (lane < CL_WARP_SIZE)
            w->addr[lane++] = cJSON_IsNumber(a) ? a->valuedouble : -1;
    }
}

static void trace_run(const gr_config *cfg, const lab_spec *spec, oc_outcome *o, const char *so)
{
    char lib[4200], patches[4200], out[4200];
    snprintf(lib, sizeof lib, "%s/libcl_tracer.so", cfg->tracer_dir);
    snprintf(patches, sizeof patches, "%s/cl_trace_patch.fatbin", cfg->tracer_dir);
    snprintf(out, sizeof out, "%s/trace.json", o->workdir);
    if (access(lib, R_OK) != 0 || access(patches, R_OK) != 0) {
        o->trace = OC_ENGINE_UNSUPPORTED;
        snprintf(o->trace_why, sizeof o->trace_why,
                 "this grader was built without the Compute Sanitizer API (it comes with the "
                 "CUDA Toolkit, in compute-sanitizer/); rebuild where the toolkit has it");
        return;
    }
    progress(cfg, "[%s] tracing the kernel's memory accesses (Compute Sanitizer)\n", spec->id);
    char env_lib[4300], env_patch[4300], env_out[4300];
    snprintf(env_lib, sizeof env_lib, "CUDA_INJECTION64_PATH=%s", lib);
    snprintf(env_patch, sizeof env_patch, "CL_TRACE_PATCHES=%s", patches);
    snprintf(env_out, sizeof env_out, "CL_TRACE_OUT=%s", out);
    const char *env[] = {env_lib, env_patch, env_out, NULL};
    remove(out);
    rn_result r;
    if (run_worker_env(cfg, "trace", spec, so, o->workdir, cfg->counters_timeout_s, env, &r) != 0) {
        o->trace = OC_ENGINE_FAILED;
        snprintf(o->trace_why, sizeof o->trace_why, "cannot start the grading child");
        return;
    }
    o->trace_s = r.elapsed_s;
    cJSON *child = read_json(o->workdir);
    o->trace_useful_bytes = num(child, "useful_bytes");
    cJSON_Delete(child);
    cJSON *root = read_json_file(out);
    const char *err = root ? str(root, "error") : "";
    if (r.status != RN_EXITED || r.exit_code != 0 || !root || *err) {
        o->trace = *err || (r.status == RN_EXITED && r.exit_code == 0) ? OC_ENGINE_FAILED
                                                                       : OC_ENGINE_RUN_FAILED;
        if (*err)
            snprintf(o->trace_why, sizeof o->trace_why, "%s", err);
        else if (!root)
            snprintf(o->trace_why, sizeof o->trace_why,
                     "the tracer wrote no results (is the driver new enough for this toolkit's "
                     "Compute Sanitizer?)%s%.200s",
                     r.output_len ? ": " : "", r.output ? r.output : "");
        else
            explain_child(&r, cfg->counters_timeout_s, o->trace_why, sizeof o->trace_why);
    } else {
        o->trace = OC_ENGINE_OK;
        const cJSON *k;
        cJSON_ArrayForEach(k, cJSON_GetObjectItemCaseSensitive(root, "kernels"))
        {
            double scale = trace_scale(k);
            add_scaled(&o->trace_loads, cJSON_GetObjectItemCaseSensitive(k, "loads"), scale);
            add_scaled(&o->trace_stores, cJSON_GetObjectItemCaseSensitive(k, "stores"), scale);
            o->trace_records += num(k, "records");
            o->trace_dropped += num(k, "dropped");
            if ((unsigned)num(k, "sample") > o->trace_sample)
                o->trace_sample = (unsigned)num(k, "sample");
            const cJSON *in;
            cJSON_ArrayForEach(in, cJSON_GetObjectItemCaseSensitive(k, "instructions"))
            {
                consider_worst(o, str(k, "name"), in, scale);
            }
        }
        for (int i = 0; i < 2; ++i) {
            oc_worst *w = &o->worst[i];
            if (w->found && w->line)
                source_line(w->file, w->line, w->text, sizeof w->text);
            relative_to_cwd(w->file);
        }
    }
    cJSON_Delete(root);
    rn_result_free(&r);
}

static double efficiency(const oc_traffic *t)
{
    return t->sectors > 0 ? t->bytes / (32.0 * t->sectors) : 0.0;
}

/* Trace and counters count the same requests and sectors; a sampled trace can differ a little
 * on kernels whose warps differ, so only a difference over 2% is reported, never averaged. */
static void compare_engines(oc_outcome *o)
{
    const char *names[2] = {"loads", "stores"};
    const cl_tally *t[2] = {&o->trace_loads, &o->trace_stores};
    const oc_traffic *c[2] = {&o->load, &o->store};
    size_t used = 0;
    for (int i = 0; i < 2; ++i) {
        if (!t[i]->requests || c[i]->requests <= 0)
            continue;
        double ts = (double)t[i]->sectors / t[i]->requests, cs = c[i]->sectors / c[i]->requests;
        if (fabs(ts - cs) > 0.02 * (ts > cs ? ts : cs) && used < sizeof o->disagreement)
            used += (size_t)snprintf(o->disagreement + used, sizeof o->disagreement - used,
                                     "%s%s: trace %.2f, counters %.2f sectors/request",
                                     used ? "; " : "", names[i], ts, cs);
    }
}

/* What to try when the kernel did not run to the end, by how it ended. */
static const char *run_hint(const oc_outcome *o)
{
    if (o->run_status == RN_TIMED_OUT)
        return "Look for a loop whose index never reaches its bound, or a __syncthreads() that "
               "not every thread of the block reaches.";
    if (o->run_status == RN_EXITED && o->run_exit == WK_EXIT_CONTRACT)
        return "Keep the launcher's name, its parameters and its extern \"C\" exactly as the "
               "lab's header declares them.";
    if (o->run_status == RN_EXITED && o->run_exit == WK_EXIT_IO)
        return "The grader could not write its work folder: check the free space in /tmp.";
    if (o->run_log && strstr(o->run_log, "IllegalAddress"))
        return "An illegal address means a thread indexed past an array: check the bound test "
               "(i < n) on every access. Run 'compute-sanitizer' on a small program to find the "
               "line.";
    return "Read the message above: it names the CUDA call or the signal that stopped the "
           "kernel's process.";
}

void gr_decide(oc_outcome *o)
{
    const lab_spec *s = o->spec;
    o->max_score = s->points_correct + s->points_load + s->points_store + s->points_speed;
    o->score = o->score_correct = o->score_load = o->score_store = o->score_speed = 0;
    /* The speed gate, where the lab has one: against the grader's baseline, same run. It is
     * measured apart from coalescing, so it is computed (and reported) whenever timed. */
    int gated = s->points_speed > 0;
    int speed_measured = !gated || (o->timed && o->baseline_ms > 0 && o->student_ms > 0);
    o->speedup = gated && speed_measured ? o->baseline_ms / o->student_ms : 0;
    int speed_ok = !gated || (speed_measured && o->speedup >= s->min_speedup);
    o->hint[0] = '\0';
    o->disagreement[0] = '\0';
    o->engine = NULL;
    o->blamed = NULL;
    if (o->trace == OC_ENGINE_OK) {
        /* The trace is the default: broadcast-aware, per instruction, no rights needed. */
        o->engine = "trace";
        o->load_eff = cl_tally_efficiency(&o->trace_loads);
        o->store_eff = cl_tally_efficiency(&o->trace_stores);
        if (o->counters == OC_ENGINE_OK && !s->trace_size_text) /* else different problems */
            compare_engines(o);
    } else if (o->counters == OC_ENGINE_OK) {
        o->engine = "counters";
        o->load_eff = efficiency(&o->load);
        o->store_eff = efficiency(&o->store);
    }
    o->efficiency_measured = o->engine != NULL;
    if (!o->compiled) {
        o->verdict = OC_FAIL;
        snprintf(o->reason, sizeof o->reason, "the kernel does not compile");
        snprintf(o->hint, sizeof o->hint,
                 "Read the compiler's first error above: it names the line. Fix that one first; "
                 "later errors often follow from it.");
        return;
    }
    if (!o->ran || o->run_problem[0]) {
        o->verdict = OC_FAIL;
        snprintf(o->reason, sizeof o->reason, "the kernel did not run to the end: %s",
                 o->run_problem[0] ? o->run_problem : "no result");
        snprintf(o->hint, sizeof o->hint, "%s", run_hint(o));
        return;
    }
    if (!o->guards_intact) {
        o->verdict = OC_FAIL;
        snprintf(o->reason, sizeof o->reason,
                 "the kernel wrote outside its output array (the guard bytes around it changed)");
        snprintf(o->hint, sizeof o->hint,
                 "Some thread's index runs past the end (or before the start) of the output: "
                 "guard every store with the bound test, and check the last block.");
        return;
    }
    if (!o->check_ok) {
        o->verdict = OC_FAIL;
        snprintf(o->reason, sizeof o->reason, "the outputs could not be checked: %s",
                 o->check.details);
        snprintf(o->hint, sizeof o->hint,
                 "The launcher must leave its results in the output array it was given; "
                 "it must not free or replace it.");
        return;
    }
    if (!o->check.passed) {
        o->verdict = OC_FAIL;
        snprintf(o->reason, sizeof o->reason, "the output is wrong: %zu of %zu elements differ",
                 o->check.mismatches, o->check.checked);
        snprintf(o->hint, sizeof o->hint, "%s",
                 o->check.hint[0] ? o->check.hint
                 : o->check.unwritten
                     ? "Elements that were never written mean the grid does not cover the "
                       "whole array: check how many threads you launch and the loop bounds."
                     : "Compare the first wrong coordinates above with the index expression "
                       "your threads compute.");
        return;
    }
    o->score = o->score_correct = s->points_correct;
    if (!o->efficiency_measured &&
        (o->trace == OC_ENGINE_RUN_FAILED || o->counters == OC_ENGINE_RUN_FAILED)) {
        /* Correct once, then crashed, hung or failed when measured: that is the kernel's
         * doing, and a kernel must not escape measurement by failing under it. */
        o->verdict = OC_FAIL;
        snprintf(o->reason, sizeof o->reason,
                 "correct, but the kernel failed when run again to measure it: %s",
                 o->trace == OC_ENGINE_RUN_FAILED ? o->trace_why : o->counters_why);
        snprintf(o->hint, sizeof o->hint,
                 "A kernel must give the same result however often it runs: check that it "
                 "does not depend on its outputs' old contents or on the environment.");
        return;
    }
    if (!o->efficiency_measured) {
        o->verdict = OC_NOT_GRADED;
        o->score_speed = gated && speed_ok ? s->points_speed : 0;
        o->score += o->score_speed;
        snprintf(o->reason, sizeof o->reason,
                 "correct; coalescing was not measured on this machine (%s)",
                 o->trace != OC_ENGINE_NOT_RUN      ? o->trace_why
                 : o->counters != OC_ENGINE_NOT_RUN ? o->counters_why
                                                    : "no engine ran");
        snprintf(o->hint, sizeof o->hint,
                 "Run 'make -f Makefile.student doctor' to see how to let the grader read the "
                 "GPU's counters; your correctness%s points are kept.",
                 o->score_speed ? " and speed" : "");
        return;
    }
    int by_trace = !strcmp(o->engine, "trace");
    double load_requests = by_trace ? (double)o->trace_loads.requests : o->load.requests;
    double store_requests = by_trace ? (double)o->trace_stores.requests : o->store.requests;
    if (load_requests <= 0 || store_requests <= 0) {
        o->verdict = OC_FAIL;
        snprintf(o->reason, sizeof o->reason,
                 "correct, but the %s saw no global %s: the result was not computed by the "
                 "kernel on the GPU",
                 o->engine, load_requests <= 0 ? "loads" : "stores");
        snprintf(o->hint, sizeof o->hint,
                 "The kernel must read its input and write its output in GPU memory with "
                 "ordinary loads and stores (copies through cp.async or the tensor memory "
                 "accelerator are not seen by this grader yet).");
        return;
    }
    /* The kernels must have moved (at the least) the bytes the task reads and writes, or part
     * of the work was done elsewhere, e.g. on the CPU next to a token kernel. */
    double moved = by_trace ? (double)(o->trace_loads.unique_bytes + o->trace_stores.unique_bytes)
                            : o->load.bytes + o->store.bytes;
    double useful = by_trace && o->trace_useful_bytes > 0 ? o->trace_useful_bytes : o->useful_bytes;
    /* When the trace ran a smaller problem, the counters (if they ran) saw the full one. */
    if (by_trace && o->trace_useful_bytes > 0 && o->counters == OC_ENGINE_OK &&
        o->load.bytes + o->store.bytes < 0.9 * o->useful_bytes) {
        moved = o->load.bytes + o->store.bytes;
        useful = o->useful_bytes;
    }
    if (useful > 0 && moved < 0.9 * useful) {
        o->verdict = OC_FAIL;
        snprintf(o->reason, sizeof o->reason,
                 "correct, but the kernels moved only %.2f MB of the %.2f MB the task reads and "
                 "writes: part of the result was not computed on the GPU",
                 moved / 1e6, useful / 1e6);
        snprintf(o->hint, sizeof o->hint,
                 "Every input element must be read, and every output element written, by a "
                 "kernel.");
        return;
    }
    int load_ok = o->load_eff >= s->min_load_eff;
    int store_ok = o->store_eff >= s->min_store_eff;
    o->score_load = load_ok ? s->points_load : 0;
    o->score_store = store_ok ? s->points_store : 0;
    o->score_speed = gated && speed_ok ? s->points_speed : 0;
    o->score += o->score_load + o->score_store + o->score_speed;
    o->verdict = load_ok && store_ok && speed_ok ? OC_PASS : OC_FAIL;
    if (by_trace) {
        /* Blame an instruction of the kind that fails; when both pass, the most wasteful. */
        const oc_worst *ld = o->worst[0].found ? &o->worst[0] : NULL;
        const oc_worst *st = o->worst[1].found ? &o->worst[1] : NULL;
        o->blamed = !load_ok                                  ? ld
                    : !store_ok                               ? st
                    : (ld && (!st || ld->waste >= st->waste)) ? ld
                                                              : st;
    }
    char speed[256] = "";
    if (gated && speed_measured)
        snprintf(speed, sizeof speed, "%.2fx as fast as %s (need >= %.2fx)", o->speedup,
                 s->baseline_text ? s->baseline_text : "the baseline", s->min_speedup);
    if (o->verdict == OC_PASS) {
        snprintf(o->reason, sizeof o->reason, "correct, and loads and stores are coalesced%s%s",
                 *speed ? "; " : "", speed);
        return;
    }
    if (load_ok && store_ok && !speed_measured) {
        o->verdict = OC_NOT_GRADED;
        snprintf(o->reason, sizeof o->reason,
                 "correct and coalesced; the speed part was not measured (the timing engine did "
                 "not run)");
        snprintf(o->hint, sizeof o->hint,
                 "Grade again without --no-timing: this lab's last %d points compare your "
                 "kernel's time with %s.",
                 s->points_speed, s->baseline_text ? s->baseline_text : "a baseline");
        return;
    }
    if (load_ok && store_ok) {
        snprintf(o->reason, sizeof o->reason, "correct and coalesced, but only %s", speed);
        snprintf(o->hint, sizeof o->hint, "%s", s->speed_hint ? s->speed_hint : "");
        return;
    }
    snprintf(o->reason, sizeof o->reason, "correct, but %s are not coalesced enough%s%s",
             !load_ok && !store_ok ? "loads and stores"
             : !load_ok            ? "loads"
                                   : "stores",
             *speed && !speed_ok ? "; and only " : "", *speed && !speed_ok ? speed : "");
    char sig[600];
    if (by_trace && o->blamed && o->blamed->tally.requests) {
        /* The trace names one instruction of the failing kind: its signature, its line. */
        const cl_tally *w = &o->blamed->tally;
        char what[64];
        snprintf(what, sizeof what, "The %s on line %u", o->blamed->is_store ? "store" : "load",
                 o->blamed->line);
        hn_signature(what, (double)w->sectors / w->requests, (double)w->unique_bytes / w->requests,
                     sig, sizeof sig);
    } else {
        const oc_traffic *worst = !load_ok ? &o->load : &o->store;
        hn_signature(!load_ok ? "Loads" : "Stores", worst->sectors / worst->requests,
                     worst->bytes / worst->requests, sig, sizeof sig);
    }
    const char *lab_hint = s->efficiency_hint ? s->efficiency_hint : "";
    snprintf(o->hint, sizeof o->hint, "%s%s%s", sig, *sig && *lab_hint ? " " : "", lab_hint);
}

void gr_grade_lab(const gr_config *cfg, const lab_spec *spec, const char *workdir, oc_outcome *o)
{
    memset(o, 0, sizeof *o);
    o->spec = spec;
    snprintf(o->workdir, sizeof o->workdir, "%s", workdir);
    if (cfg->kernel)
        snprintf(o->kernel_path, sizeof o->kernel_path, "%s", cfg->kernel);
    else
        gr_default_kernel(cfg, spec, o->kernel_path, sizeof o->kernel_path);

    relative_to_cwd(o->kernel_path); /* as a student would type it */

    char so[4200];
    snprintf(so, sizeof so, "%s/kernel.so", workdir);
    if (make_dir(workdir) != 0) {
        o->compile_log = strdup("cannot create the work directory\n");
    } else if (compile_kernel(cfg, spec, o, so) == 0) {
        correctness_run(cfg, spec, o, so);
        int correct =
            o->ran && !o->run_problem[0] && o->guards_intact && o->check_ok && o->check.passed;
        if (correct && cfg->trace)
            trace_run(cfg, spec, o, so);
        if (correct && cfg->counters)
            counters_run(cfg, spec, o, so);
    }
    gr_decide(o);
}

int gr_explore(const gr_config *cfg, const lab_spec *spec, const char *workdir, const char *csv_out,
               char *why, size_t why_size)
{
    rn_result r;
    if (make_dir(workdir) != 0 || run_worker(cfg, "explore", spec, NULL, workdir, 600, &r) != 0) {
        snprintf(why, why_size, "cannot start the grading child");
        return -1;
    }
    fputs(r.output ? r.output : "", stdout);
    int rc = r.status == RN_EXITED && r.exit_code == 0 ? 0 : -1;
    if (rc)
        explain_child(&r, 600, why, why_size);
    rn_result_free(&r);
    if (rc == 0 && csv_out) {
        char src[4200];
        snprintf(src, sizeof src, "%s/explore.csv", workdir);
        FILE *in = fopen(src, "rb"), *out = fopen(csv_out, "wb");
        char buf[8192];
        size_t n;
        while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, n, out);
        if (!in || !out) {
            snprintf(why, why_size, "cannot write '%s'", csv_out);
            rc = -1;
        }
        if (in)
            fclose(in);
        if (out && fclose(out) != 0)
            rc = -1;
    }
    return rc;
}

/* Copies text to f with every $CSV and $SVG replaced. */
static void expand(FILE *f, const char *text, const char *csv, const char *svg)
{
    for (const char *p = text; *p;) {
        if (!strncmp(p, "$CSV", 4)) {
            fputs(csv, f);
            p += 4;
        } else if (!strncmp(p, "$SVG", 4)) {
            fputs(svg, f);
            p += 4;
        } else {
            fputc(*p++, f);
        }
    }
}

int gr_explore_plot(const lab_spec *spec, const char *csv, const char *gp, const char *svg,
                    char *why, size_t why_size)
{
    if (!spec->explore_plot) {
        snprintf(why, why_size, "lab %s draws no figure", spec->id);
        return -1;
    }
    FILE *f = fopen(gp, "w");
    if (!f) {
        snprintf(why, why_size, "cannot write '%s'", gp);
        return -1;
    }
    expand(f, spec->explore_plot, csv, svg);
    if (fclose(f) != 0) {
        snprintf(why, why_size, "cannot write '%s'", gp);
        return -1;
    }
    const char *argv[] = {"gnuplot", gp, NULL};
    rn_options ro = {.timeout_s = 60, .output_cap = 4096};
    rn_result r;
    if (rn_run(argv, &ro, &r) != 0)
        return -1;
    int rc = 0;
    if (r.status == RN_START_FAILED) {
        rc = 1;
    } else if (r.status != RN_EXITED || r.exit_code != 0) {
        snprintf(why, why_size, "gnuplot failed: %.300s", r.output ? r.output : "");
        rc = -1;
    }
    rn_result_free(&r);
    return rc;
}
