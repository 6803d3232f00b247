/*
 * grade.c - see grade.h. Grading one lab, step by step: compile the kernel (build.c), run it
 * once in a grading child and check its outputs here (the lab's spec), trace it and read its
 * counters in more children (child.c), each child's record read through the wire (wire.h);
 * then decide (decide.c).
 */
#define _XOPEN_SOURCE 700
#include "grade.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build.h"
#include "child.h"
#include "decide.h"

#define PROBE_TIMEOUT_S 60

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

static int make_dir(const char *path)
{
    return mkdir(path, 0700) == 0 || errno == EEXIST ? 0 : -1;
}

/* A request for the grading child to work on spec's compiled kernel so in o's work folder. */
static ch_request lab_request(const gr_config *cfg, const lab_spec *spec, const oc_outcome *o,
                              wi_mode mode, const char *so, double timeout_s)
{
    ch_request req = {.args = {.mode = mode,
                               .lab = spec->id,
                               .kernel = so,
                               .workdir = o->workdir,
                               .seed = cfg->seed},
                      .timeout_s = timeout_s};
    return req;
}

/* Why there is no usable GPU, from the probe's record of the device, for a person. */
static void no_device(const wi_device *d, char *why, size_t why_size)
{
    if (d->info.driver_version == 0)
        snprintf(why, why_size, "no CUDA GPU was found: this machine has no NVIDIA driver (%s)",
                 *d->error ? d->error : "no device");
    else if (!strcmp(d->error, "cudaErrorInsufficientDriver"))
        snprintf(why, why_size,
                 "the NVIDIA driver is older than this CUDA runtime (%s): update the driver, or "
                 "build the grader with an older CUDA toolkit",
                 d->error_text);
    else
        snprintf(why, why_size, "no CUDA GPU was found (%s)",
                 *d->error ? d->error_text : "no device");
}

int gr_probe(const gr_config *cfg, const char *workdir, di_info *dev, char *why, size_t why_size)
{
    memset(dev, 0, sizeof *dev);
    ch_request req = {.args = {.mode = WI_PROBE, .workdir = workdir}, .timeout_s = PROBE_TIMEOUT_S};
    rn_result r;
    if (make_dir(workdir) != 0 || ch_run(cfg->worker, &req, &r) != 0) {
        snprintf(why, why_size, "cannot prepare '%s'", workdir);
        return -1;
    }
    static wi_result res;
    char bad[512] = "";
    int rc = -1;
    if (r.status != RN_EXITED || r.exit_code != 0 ||
        ch_read_result(workdir, &res, bad, sizeof bad) != 0) {
        char how[256];
        rn_describe(&r, how, sizeof how);
        snprintf(why, why_size, "the grading child '%s' %s%s%s%s%.300s", cfg->worker, how,
                 *bad ? ", " : "", bad, r.output_len ? ":\n" : "", r.output ? r.output : "");
    } else if (res.device.info.count > 0 && !*res.device.error) {
        *dev = res.device.info;
        rc = 0;
    } else {
        *dev = res.device.info;
        no_device(&res.device, why, why_size);
        rc = 1;
    }
    rn_result_free(&r);
    return rc;
}

void gr_default_kernel(const gr_config *cfg, const lab_spec *spec, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s/%s-%s/kernel.cu", cfg->root, cfg->solution ? "solutions" : "labs",
             spec->id, spec->slug);
}

/* Shortens path to be relative to the folder cfg shows paths from, when it lies below it. */
static void shown_path(const gr_config *cfg, char *path)
{
    size_t len = cfg->cwd ? strlen(cfg->cwd) : 0;
    if (len && !strncmp(path, cfg->cwd, len) && path[len] == '/')
        memmove(path, path + len + 1, strlen(path + len + 1) + 1);
}

static int compile_kernel(const gr_config *cfg, const lab_spec *spec, oc_outcome *o,
                          const char *source, const char *so)
{
    char include[4200];
    snprintf(include, sizeof include, "%s/labs/%s-%s", cfg->root, spec->id, spec->slug);
    bd_options bo = {.nvcc = cfg->nvcc,
                     .arch = cfg->arch,
                     .include_dir = include,
                     .timeout_s = cfg->compile_timeout_s};
    rn_result r;
    progress(cfg, "[%s] compiling %s\n", spec->id, o->kernel_path);
    int rc = bd_compile(source, so, &bo, &r);
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

/* The correctness run (and, unless switched off, the timing engine), then the check here. */
static void correctness_run(const gr_config *cfg, const lab_spec *spec, oc_outcome *o,
                            const char *so)
{
    progress(cfg, "[%s] running the kernel (correctness%s)\n", spec->id,
             cfg->timing ? ", then timing" : "");
    ch_request req = lab_request(cfg, spec, o, WI_RUN, so, cfg->run_timeout_s);
    req.args.no_timing = !cfg->timing;
    rn_result r;
    if (ch_run(cfg->worker, &req, &r) != 0) {
        snprintf(o->run_problem, sizeof o->run_problem, "cannot start the grading child");
        return;
    }
    o->run_log = take_output(&r);
    o->run_status = (int)r.status;
    o->run_exit = r.exit_code;
    int finished = r.status == RN_EXITED && r.exit_code == 0;
    static wi_result res;
    char bad[512];
    int read = ch_read_result(o->workdir, &res, bad, sizeof bad) == 0;
    if (!finished)
        ch_explain(&r, cfg->run_timeout_s, o->run_problem, sizeof o->run_problem);
    else if (!read)
        snprintf(o->run_problem, sizeof o->run_problem,
                 "the grading child's record is unusable: %.400s", bad);
    rn_result_free(&r);
    if (read && res.has_run && res.run.launched) {
        o->ran = 1;
        o->guards_intact = res.run.guards_intact;
        o->useful_bytes = res.run.useful_bytes;
        if (finished && res.has_timing) {
            o->timed = 1;
            o->student_ms = res.timing.student.median_ms;
            o->student_bytes_per_s = res.timing.student.bytes_per_s;
            o->sol_bytes_per_s = res.timing.copy.bytes_per_s;
            o->baseline_ms = res.timing.has_baseline ? res.timing.baseline.median_ms : 0;
        }
    }
    if (o->ran) {
        progress(cfg, "[%s] checking the outputs against the CPU reference\n", spec->id);
        o->check_ok = spec->check(o->workdir, cfg->seed, &o->check) == 0;
    }
}

static oc_engine_state engine_state(wi_engine_status s)
{
    static const oc_engine_state states[] = {OC_ENGINE_OK, OC_ENGINE_NO_PERMISSION,
                                             OC_ENGINE_UNSUPPORTED, OC_ENGINE_FAILED};
    return states[s];
}

/* Adds up what the counters read over the lab's kernels. */
static void add_counters(oc_outcome *o, const wi_counters *c)
{
    size_t used = 0;
    for (int i = 0; i < c->nkernels; ++i) {
        const wi_counter_kernel *k = &c->kernels[i];
        o->load.requests += k->v[WI_LD_REQUESTS];
        o->load.sectors += k->v[WI_LD_SECTORS];
        o->load.bytes += k->v[WI_LD_BYTES];
        o->store.requests += k->v[WI_ST_REQUESTS];
        o->store.sectors += k->v[WI_ST_SECTORS];
        o->store.bytes += k->v[WI_ST_BYTES];
        o->shared_ld_requests += k->v[WI_SH_LD_REQUESTS];
        o->shared_st_requests += k->v[WI_SH_ST_REQUESTS];
        o->shared_ld_conflicts += k->v[WI_SH_LD_CONFLICTS];
        o->shared_st_conflicts += k->v[WI_SH_ST_CONFLICTS];
        const char *name = k->name;
        if (used < sizeof o->counters_kernels && name[strspn(name, "0123456789")] != '\0')
            used += (size_t)snprintf(o->counters_kernels + used, sizeof o->counters_kernels - used,
                                     "%s%s", used ? ", " : "", name);
    }
}

static void counters_run(const gr_config *cfg, const lab_spec *spec, oc_outcome *o, const char *so)
{
    progress(cfg, "[%s] reading the hardware counters (CUPTI)\n", spec->id);
    ch_request req = lab_request(cfg, spec, o, WI_COUNTERS, so, cfg->counters_timeout_s);
    req.args.shared_counters = spec->report_bank_conflicts;
    rn_result r;
    if (ch_run(cfg->worker, &req, &r) != 0) {
        o->counters = OC_ENGINE_FAILED;
        snprintf(o->counters_why, sizeof o->counters_why, "cannot start the grading child");
        return;
    }
    static wi_result res;
    char bad[512] = "no counters in the record";
    int finished = r.status == RN_EXITED && r.exit_code == 0;
    if (!finished) {
        /* It ran correctly once; failing now is the kernel's doing, not the engine's. */
        o->counters = OC_ENGINE_RUN_FAILED;
        ch_explain(&r, cfg->counters_timeout_s, o->counters_why, sizeof o->counters_why);
    } else if (ch_read_result(o->workdir, &res, bad, sizeof bad) != 0 || !res.has_counters) {
        o->counters = OC_ENGINE_FAILED;
        snprintf(o->counters_why, sizeof o->counters_why, "the counters left no record: %.400s",
                 bad);
    } else {
        o->counters = engine_state(res.counters.status);
        snprintf(o->counters_why, sizeof o->counters_why, "%s", res.counters.why);
        add_counters(o, &res.counters);
    }
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

/* Whether a and b name the same existing file. */
static int same_file(const char *a, const char *b)
{
    char ra[PATH_MAX], rb[PATH_MAX];
    return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

static void add_scaled(cl_tally *into, const cl_tally *t, double scale)
{
    into->requests += (uint64_t)(t->requests * scale + 0.5);
    into->sectors += (uint64_t)(t->sectors * scale + 0.5);
    into->lines += (uint64_t)(t->lines * scale + 0.5);
    into->unique_bytes += (uint64_t)(t->unique_bytes * scale + 0.5);
    into->ideal_sectors += (uint64_t)(t->ideal_sectors * scale + 0.5);
}

/* Keeps, across kernels, the load and the store that waste the most sectors (scaled). */
static void consider_worst(oc_outcome *o, const char *kernel, const ta_instruction *in,
                           double scale)
{
    double waste = (double)(in->tally.sectors - in->tally.ideal_sectors) * scale;
    oc_worst *w = &o->worst[in->is_store ? 1 : 0];
    if (w->found && waste <= w->waste)
        return;
    memset(w, 0, sizeof *w);
    w->found = 1;
    w->waste = waste;
    w->tally = in->tally;
    snprintf(w->kernel, sizeof w->kernel, "%s", kernel);
    snprintf(w->file, sizeof w->file, "%s", in->file);
    w->line = in->line;
    w->is_store = in->is_store;
    w->size = in->size;
    w->active = in->sample.active;
    for (int l = 0; l < CL_WARP_SIZE; ++l)
        w->addr[l] = (w->active >> l) & 1 ? in->sample.addr[l] : 0;
}

/* Adds up what the trace saw over the lab's kernels. A kernel's traced requests stand for
 * `scale` times as many: the tracer computes it launch by launch from the warps it sampled and
 * the records its buffer dropped. Kernels of one lab can differ in both, so tallies are scaled
 * before they are added up. */
static void add_trace(oc_outcome *o, const wi_trace *t, const char *source)
{
    for (size_t i = 0; i < t->nkernels; ++i) {
        const wi_trace_kernel *k = &t->kernels[i];
        double scale = k->scale > 0 ? k->scale : 1.0;
        add_scaled(&o->trace_loads, &k->k.loads, scale);
        add_scaled(&o->trace_stores, &k->k.stores, scale);
        o->trace_records += (double)k->k.records;
        o->trace_dropped += (double)k->dropped;
        if (k->sample > o->trace_sample)
            o->trace_sample = k->sample;
        for (size_t j = 0; j < k->k.nins; ++j)
            consider_worst(o, k->k.name, &k->k.ins[j], scale);
    }
    for (int i = 0; i < 2; ++i) {
        oc_worst *w = &o->worst[i];
        /* Only the kernel that was compiled is quoted: a #line directive can name any file. */
        if (w->found && w->line && same_file(w->file, source))
            source_line(source, w->line, w->text, sizeof w->text);
    }
}

/* Runs the traced child; returns its record's reading status (0: *t filled). */
static int trace_child(const gr_config *cfg, const lab_spec *spec, oc_outcome *o, const char *so,
                       wi_trace *t, char *why, size_t why_size)
{
    char lib[4200], patches[4200], out[4200];
    snprintf(lib, sizeof lib, "%s/%s", cfg->tracer_dir, WI_TRACER_LIB);
    snprintf(patches, sizeof patches, "%s/%s", cfg->tracer_dir, WI_TRACER_PATCH);
    snprintf(out, sizeof out, "%s/%s", o->workdir, WI_TRACE_FILE);
    char env_lib[4300], env_patch[4300], env_out[4300];
    snprintf(env_lib, sizeof env_lib, "%s=%s", WI_ENV_INJECTION, lib);
    snprintf(env_patch, sizeof env_patch, "%s=%s", WI_ENV_TRACE_PATCHES, patches);
    snprintf(env_out, sizeof env_out, "%s=%s", WI_ENV_TRACE_OUT, out);
    const char *env[] = {env_lib, env_patch, env_out, NULL};
    ch_request req = lab_request(cfg, spec, o, WI_TRACE, so, cfg->trace_timeout_s);
    req.env = env;
    remove(out);
    rn_result r;
    if (ch_run(cfg->worker, &req, &r) != 0) {
        o->trace = OC_ENGINE_FAILED;
        snprintf(o->trace_why, sizeof o->trace_why, "cannot start the grading child");
        return -1;
    }
    o->trace_s = r.elapsed_s;
    static wi_result res;
    char bad[512];
    if (ch_read_result(o->workdir, &res, bad, sizeof bad) == 0 && res.has_run)
        o->trace_useful_bytes = res.run.useful_bytes;
    cJSON *json = wi_read_file(out, why, why_size);
    int rc = json ? wi_trace_from_json(json, t, why, why_size) : -1;
    cJSON_Delete(json);
    int finished = r.status == RN_EXITED && r.exit_code == 0;
    if (rc == 0 && *t->error) {
        o->trace = OC_ENGINE_FAILED;
        snprintf(o->trace_why, sizeof o->trace_why, "%s", t->error);
    } else if (rc != 0 && finished) {
        o->trace = OC_ENGINE_FAILED;
        snprintf(o->trace_why, sizeof o->trace_why,
                 "the tracer wrote no results (is the driver new enough for this toolkit's "
                 "Compute Sanitizer?): %s%s%.200s",
                 why, r.output_len ? ": " : "", r.output ? r.output : "");
    } else if (!finished) {
        o->trace = OC_ENGINE_RUN_FAILED;
        ch_explain(&r, cfg->trace_timeout_s, o->trace_why, sizeof o->trace_why);
    } else {
        o->trace = OC_ENGINE_OK;
    }
    rn_result_free(&r);
    return o->trace == OC_ENGINE_OK ? 0 : -1;
}

static void trace_run(const gr_config *cfg, const lab_spec *spec, oc_outcome *o, const char *so,
                      const char *source)
{
    char lib[4200], patches[4200];
    snprintf(lib, sizeof lib, "%s/%s", cfg->tracer_dir, WI_TRACER_LIB);
    snprintf(patches, sizeof patches, "%s/%s", cfg->tracer_dir, WI_TRACER_PATCH);
    if (access(lib, R_OK) != 0 || access(patches, R_OK) != 0) {
        o->trace = OC_ENGINE_UNSUPPORTED;
        snprintf(o->trace_why, sizeof o->trace_why,
                 "this grader was built without the Compute Sanitizer API (it comes with the "
                 "CUDA Toolkit, in compute-sanitizer/); rebuild where the toolkit has it");
        return;
    }
    progress(cfg, "[%s] tracing the kernel's memory accesses (Compute Sanitizer)\n", spec->id);
    wi_trace t;
    memset(&t, 0, sizeof t);
    char why[512] = "";
    if (trace_child(cfg, spec, o, so, &t, why, sizeof why) == 0) {
        add_trace(o, &t, source);
        o->trace_smaller = o->trace_useful_bytes > 0 && o->trace_useful_bytes < o->useful_bytes;
        for (int i = 0; i < 2; ++i)
            shown_path(cfg, o->worst[i].file);
    }
    wi_trace_free(&t);
}

void gr_grade_lab(const gr_config *cfg, const lab_spec *spec, const char *workdir, oc_outcome *o)
{
    memset(o, 0, sizeof *o);
    o->spec = spec;
    snprintf(o->workdir, sizeof o->workdir, "%s", workdir);
    char source[4096];
    if (cfg->kernel)
        snprintf(source, sizeof source, "%s", cfg->kernel);
    else
        gr_default_kernel(cfg, spec, source, sizeof source);
    snprintf(o->kernel_path, sizeof o->kernel_path, "%s", source);
    shown_path(cfg, o->kernel_path); /* as a student would type it */

    char so[4200];
    snprintf(so, sizeof so, "%s/kernel.so", workdir);
    if (make_dir(workdir) != 0) {
        o->compile_log = strdup("cannot create the work directory\n");
    } else if (compile_kernel(cfg, spec, o, source, so) == 0) {
        correctness_run(cfg, spec, o, so);
        int correct =
            o->ran && !o->run_problem[0] && o->guards_intact && o->check_ok && o->check.passed;
        if (correct && cfg->trace)
            trace_run(cfg, spec, o, so, source);
        if (correct && cfg->counters)
            counters_run(cfg, spec, o, so);
    }
    gr_decide(o);
}
