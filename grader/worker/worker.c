/*
 * worker.c - main of grade-worker, the grading child. See worker.h.
 *
 *   grade-worker probe    --workdir DIR
 *   grade-worker run      --lab NN --kernel K.so --workdir DIR --seed S [--no-timing]
 *   grade-worker counters --lab NN --kernel K.so --workdir DIR --seed S [--shared-counters]
 *   grade-worker trace    --lab NN --kernel K.so --workdir DIR --seed S   (tracer injected)
 *   grade-worker explore  --lab NN --workdir DIR
 *
 * Everything it has to say goes to DIR/result.json (cJSON); stdout and stderr are captured by
 * the grader and shown, never parsed.
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "cuda_check.h"
#include "devinfo.h"
#include "timing.h"
#include "worker.h"

cudaError_t wk_sol_copy(const void *src, void *dst, size_t bytes);

/* Every lab of the registry (labs/labs.def) by its number, and the engines' patterns. */
static const struct {
    const char *id;
    const wk_lab *lab;
} wk_labs[] = {
#define CL_LAB(nn, slug) {#nn, &wk_lab##nn},
#include "labs.def"
#undef CL_LAB
    {"patterns", &wk_lab_patterns},
};

/* ---- services for the labs (worker.h) ---- */

void *wk_symbol(const wk_job *job, const char *name)
{
    void *sym = dlsym(job->kernel_so, name);
    if (!sym) {
        fprintf(stderr,
                "the kernel file defines no '%s': keep the launcher's name and its "
                "extern \"C\" from the lab header\n",
                name);
        exit(WK_EXIT_CONTRACT);
    }
    return sym;
}

void *wk_alloc_guarded(size_t bytes)
{
    char *base = NULL;
    size_t total = bytes + 2 * WK_GUARD_BYTES;
    CL_CUDA_CHECK(cudaMalloc((void **)&base, total));
    CL_CUDA_CHECK(cudaMemset(base, WK_POISON_BYTE, total));
    return base + WK_GUARD_BYTES;
}

int wk_guards_intact(const void *ptr, size_t bytes)
{
    const char *base = (const char *)ptr - WK_GUARD_BYTES;
    unsigned char guard[2][WK_GUARD_BYTES];
    CL_CUDA_CHECK(cudaMemcpy(guard[0], base, WK_GUARD_BYTES, cudaMemcpyDeviceToHost));
    CL_CUDA_CHECK(cudaMemcpy(guard[1], base + WK_GUARD_BYTES + bytes, WK_GUARD_BYTES,
                             cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < sizeof guard; ++i)
        if (((unsigned char *)guard)[i] != WK_POISON_BYTE)
            return 0;
    return 1;
}

void wk_free_guarded(void *ptr)
{
    if (ptr)
        cudaFree((char *)ptr - WK_GUARD_BYTES);
}

static char *path_in(const wk_job *job, const char *name)
{
    size_t n = strlen(job->workdir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(WK_EXIT_IO);
    }
    snprintf(p, n, "%s/%s", job->workdir, name);
    return p;
}

void wk_save_device_raw(const wk_job *job, const char *name, const void *dev, size_t bytes)
{
    void *host = malloc(bytes ? bytes : 1);
    if (!host) {
        fprintf(stderr, "out of host memory for the %zu bytes of '%s'\n", bytes, name);
        exit(WK_EXIT_IO);
    }
    CL_CUDA_CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
    wk_save(job, name, host, bytes);
    free(host);
}

int wk_save_device(const wk_job *job, const char *name, const void *dev, size_t bytes)
{
    wk_save_device_raw(job, name, dev, bytes);
    return wk_guards_intact(dev, bytes);
}

FILE *wk_explore_csv(const wk_job *job)
{
    char *path = path_in(job, "explore.csv");
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "cannot write '%s'\n", path);
        exit(WK_EXIT_IO);
    }
    free(path);
    return f;
}

void wk_save(const wk_job *job, const char *name, const void *host, size_t bytes)
{
    char file[256];
    snprintf(file, sizeof file, "%s.bin", name);
    char *path = path_in(job, file);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(host, 1, bytes, f) != bytes || fclose(f) != 0) {
        fprintf(stderr, "cannot write '%s'\n", path);
        exit(WK_EXIT_IO);
    }
    free(path);
}

/* ---- result.json ---- */

static void write_result(const wk_job *job, const cJSON *root)
{
    char *text = cJSON_Print(root);
    char *path = path_in(job, "result.json");
    char *tmp = path_in(job, "result.json.tmp");
    FILE *f = fopen(tmp, "w");
    if (!text || !f || fputs(text, f) < 0 || fclose(f) != 0 || rename(tmp, path) != 0) {
        fprintf(stderr, "cannot write '%s'\n", path);
        exit(WK_EXIT_IO);
    }
    free(text);
    free(path);
    free(tmp);
}

static cJSON *device_json(const di_info *d)
{
    char drv[16], rt[16];
    di_version_string(d->driver_version, drv, sizeof drv);
    di_version_string(d->runtime_version, rt, sizeof rt);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "count", d->count);
    cJSON_AddNumberToObject(o, "index", d->index);
    cJSON_AddStringToObject(o, "name", d->name);
    char cc[16];
    snprintf(cc, sizeof cc, "%d.%d", d->cc_major, d->cc_minor);
    cJSON_AddStringToObject(o, "compute_capability", cc);
    cJSON_AddNumberToObject(o, "sm_count", d->sm_count);
    cJSON_AddNumberToObject(o, "l2_bytes", (double)d->l2_bytes);
    cJSON_AddNumberToObject(o, "global_bytes", (double)d->global_bytes);
    cJSON_AddStringToObject(o, "driver_cuda", drv);
    cJSON_AddStringToObject(o, "runtime_cuda", rt);
    return o;
}

static cJSON *timing_json(const tm_result *t, double bytes)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "median_ms", t->median_ms);
    cJSON_AddNumberToObject(o, "min_ms", t->min_ms);
    cJSON_AddNumberToObject(o, "max_ms", t->max_ms);
    cJSON_AddNumberToObject(o, "repeats", t->repeats);
    cJSON_AddNumberToObject(o, "bytes", bytes);
    cJSON_AddNumberToObject(o, "bytes_per_s", t->median_ms > 0 ? bytes / (t->median_ms * 1e-3) : 0);
    return o;
}

/* ---- modes ---- */

typedef struct sol_ctx {
    void *src, *dst;
    size_t bytes;
} sol_ctx;

static cudaError_t sol_work(void *ctx)
{
    sol_ctx *c = ctx;
    return wk_sol_copy(c->src, c->dst, c->bytes);
}

static tm_options timing_options(const wk_job *job)
{
    tm_options opt = {.warmup = 2, .repeats = 15, .flush_bytes = 4 * job->dev.l2_bytes};
    return opt;
}

/* Sets the lab's problem up on the GPU; ends the process when host memory runs out. */
static void *open_lab(const wk_job *job, const wk_lab *lab)
{
    void *state = lab->open(job);
    if (!state) {
        fprintf(stderr, "out of host memory while setting up lab %s\n", job->lab);
        exit(WK_EXIT_IO);
    }
    return state;
}

/* One launch for correctness, then (unless told not to) the timing engine. */
static int mode_run(const wk_job *job, const wk_lab *lab, int timing, cJSON *root)
{
    void *state = open_lab(job, lab);
    CL_CUDA_CHECK(lab->launch(state));
    CL_CUDA_CHECK(cudaDeviceSynchronize());
    int guards = lab->save(state, job);
    cJSON_AddBoolToObject(root, "launched", 1);
    cJSON_AddBoolToObject(root, "guards_intact", guards);
    cJSON_AddNumberToObject(root, "useful_bytes", lab->useful_bytes(state));
    write_result(job, root);

    if (timing) {
        double useful = lab->useful_bytes(state);
        tm_options opt = timing_options(job);
        /* A speed gate times work on every stream: the student's and the baseline alike. */
        opt.sync_device = lab->baseline != NULL;
        tm_result student, sol;
        CL_CUDA_CHECK(tm_measure(lab->launch, state, &opt, &student));
        /* The copy moves the same number of bytes: reads half, writes half. */
        sol_ctx sc = {.bytes = (size_t)(useful / 2) & ~(size_t)15};
        CL_CUDA_CHECK(cudaMalloc(&sc.src, sc.bytes));
        CL_CUDA_CHECK(cudaMalloc(&sc.dst, sc.bytes));
        CL_CUDA_CHECK(cudaMemset(sc.src, 0x3c, sc.bytes));
        tm_options copy_opt = opt; /* the copy is ours: events on the default stream suffice */
        copy_opt.sync_device = 0;
        CL_CUDA_CHECK(tm_measure(sol_work, &sc, &copy_opt, &sol));
        cudaFree(sc.src);
        cudaFree(sc.dst);
        cJSON *t = cJSON_AddObjectToObject(root, "timing");
        cJSON_AddItemToObject(t, "student", timing_json(&student, useful));
        cJSON_AddItemToObject(t, "sol_copy", timing_json(&sol, 2.0 * (double)sc.bytes));
        if (lab->baseline) {
            /* The grader's own kernel for the same task, on the same inputs, same run. */
            tm_result base;
            CL_CUDA_CHECK(tm_measure(lab->baseline, state, &opt, &base));
            cJSON_AddItemToObject(t, "baseline", timing_json(&base, useful));
        }
        if (lab->baseline && lab->reset) {
            /* What was timed must compute: poison the outputs, launch once more, and save what
             * this launch wrote over the first launch's outputs; the grader checks these. */
            lab->reset(state);
            CL_CUDA_CHECK(lab->launch(state));
            CL_CUDA_CHECK(cudaDeviceSynchronize());
            cJSON_ReplaceItemInObject(root, "guards_intact",
                                      cJSON_CreateBool(lab->save(state, job)));
            cJSON_AddBoolToObject(root, "checked_after_timing", 1);
        }
        cJSON_AddNumberToObject(t, "flush_bytes", (double)opt.flush_bytes);
        write_result(job, root);
    }
    lab->close(state);
    return 0;
}

static const char *status_name(ct_status s)
{
    static const char *const names[] = {"ok", "no_permission", "unsupported", "failed"};
    return names[s];
}

/* One launch for the trace engine, which was injected into this process by the grader
 * (CUDA_INJECTION64_PATH) and writes its own results. */
static int mode_trace(wk_job *job, const wk_lab *lab, cJSON *root)
{
    job->trace = 1;
    void *state = open_lab(job, lab);
    CL_CUDA_CHECK(lab->launch(state));
    CL_CUDA_CHECK(cudaDeviceSynchronize());
    cJSON_AddBoolToObject(root, "launched", 1);
    /* The lab may have set up a smaller problem for the trace: its own least bytes. */
    cJSON_AddNumberToObject(root, "useful_bytes", lab->useful_bytes(state));
    write_result(job, root);
    lab->close(state);
    return 0;
}

static void add_counters(cJSON *root, const ct_result *res);

static int mode_counters(const wk_job *job, const wk_lab *lab, cJSON *root)
{
    void *state = open_lab(job, lab);
    static ct_result res;
    ct_profile(lab->launch, state, job->shared_counters, &res);
    add_counters(root, &res);
    write_result(job, root);
    lab->close(state);
    return 0;
}

static void add_counters(cJSON *root, const ct_result *res)
{
    cJSON *c = cJSON_AddObjectToObject(root, "counters");
    cJSON_AddStringToObject(c, "status", status_name(res->status));
    cJSON_AddStringToObject(c, "why", res->why);
    cJSON_AddNumberToObject(c, "cupti_code", res->cupti_code);
    cJSON_AddStringToObject(c, "chip", res->chip);
    cJSON_AddNumberToObject(c, "passes", res->passes);
    cJSON_AddNumberToObject(c, "setup_ms", res->setup_ms);
    cJSON_AddNumberToObject(c, "measure_ms", res->measure_ms);
    cJSON *ks = cJSON_AddArrayToObject(c, "kernels");
    for (int i = 0; i < res->nkernels; ++i) {
        const ct_kernel *k = &res->kernels[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", k->name);
        cJSON_AddNumberToObject(o, "ld_requests", k->ld_requests);
        cJSON_AddNumberToObject(o, "ld_sectors", k->ld_sectors);
        cJSON_AddNumberToObject(o, "ld_bytes", k->ld_bytes);
        cJSON_AddNumberToObject(o, "st_requests", k->st_requests);
        cJSON_AddNumberToObject(o, "st_sectors", k->st_sectors);
        cJSON_AddNumberToObject(o, "st_bytes", k->st_bytes);
        cJSON_AddNumberToObject(o, "shared_ld_requests", k->sh_ld_requests);
        cJSON_AddNumberToObject(o, "shared_st_requests", k->sh_st_requests);
        cJSON_AddNumberToObject(o, "shared_ld_conflicts", k->sh_ld_conflicts);
        cJSON_AddNumberToObject(o, "shared_st_conflicts", k->sh_st_conflicts);
        cJSON_AddItemToArray(ks, o);
    }
}

/* grade --doctor: can this machine read counters at all? Profiles the grader's own copy. */
static int counters_self_test(const wk_job *job, cJSON *root)
{
    sol_ctx sc = {.bytes = (size_t)64 << 20};
    CL_CUDA_CHECK(cudaMalloc(&sc.src, sc.bytes));
    CL_CUDA_CHECK(cudaMalloc(&sc.dst, sc.bytes));
    static ct_result res;
    ct_profile(sol_work, &sc, 0, &res);
    add_counters(root, &res);
    write_result(job, root);
    cudaFree(sc.src);
    cudaFree(sc.dst);
    return 0;
}

static int usage(void)
{
    fputs("usage: grade-worker probe|run|counters|trace|explore [--lab NN] [--kernel FILE.so]\n"
          "                    --workdir DIR [--seed N] [--no-timing] [--shared-counters]\n"
          "The grading child of 'grade'; run 'grade --help' instead.\n",
          stderr);
    return WK_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage();
    const char *mode = argv[1], *lab_id = NULL, *kernel = NULL;
    wk_job job = {0};
    int timing = 1;
    for (int i = 2; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--no-timing"))
            timing = 0;
        else if (!strcmp(a, "--shared-counters"))
            job.shared_counters = 1;
        else if (v && !strcmp(a, "--lab"))
            job.lab = lab_id = argv[++i];
        else if (v && !strcmp(a, "--kernel"))
            kernel = argv[++i];
        else if (v && !strcmp(a, "--workdir"))
            job.workdir = argv[++i];
        else if (v && !strcmp(a, "--seed"))
            job.seed = strtoull(argv[++i], NULL, 0);
        else
            return usage();
    }
    if (!job.workdir)
        return usage();

    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "mode", mode);
    int derr = di_query(0, &job.dev);
    cJSON_AddItemToObject(root, "device", device_json(&job.dev));
    if (derr != cudaSuccess) {
        cJSON_AddStringToObject(root, "device_error", cudaGetErrorName((cudaError_t)derr));
        cJSON_AddStringToObject(root, "device_error_text", cudaGetErrorString((cudaError_t)derr));
    }
    write_result(&job, root);
    if (!strcmp(mode, "probe"))
        return 0;
    if (derr != cudaSuccess) {
        fprintf(stderr, "no usable CUDA GPU: %s\n", cudaGetErrorString((cudaError_t)derr));
        return CL_EXIT_CUDA;
    }

    CL_CUDA_CHECK(cudaSetDevice(0));
    if (!strcmp(mode, "counters") && !lab_id)
        return counters_self_test(&job, root);

    const wk_lab *lab = NULL;
    for (size_t i = 0; lab_id && i < sizeof wk_labs / sizeof wk_labs[0]; ++i)
        if (!strcmp(wk_labs[i].id, lab_id))
            lab = wk_labs[i].lab;
    if (!lab)
        return usage();

    if (!strcmp(mode, "explore")) {
        if (!lab->explore) {
            fprintf(stderr, "lab %s has no explore run\n", lab_id);
            return WK_EXIT_USAGE;
        }
        return lab->explore(&job);
    }
    if (!kernel && !lab->builtin)
        return usage();
    job.kernel_so = kernel ? dlopen(kernel, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (kernel && !job.kernel_so) {
        fprintf(stderr, "cannot load the compiled kernel: %s\n", dlerror());
        return WK_EXIT_CONTRACT;
    }
    int rc;
    if (!strcmp(mode, "run"))
        rc = mode_run(&job, lab, timing, root);
    else if (!strcmp(mode, "counters"))
        rc = mode_counters(&job, lab, root);
    else if (!strcmp(mode, "trace"))
        rc = mode_trace(&job, lab, root);
    else
        rc = usage();
    cJSON_Delete(root);
    return rc;
}
