/*
 * worker.c - main of grade-worker, the grading child. See worker.h.
 *
 *   grade-worker probe    --workdir DIR
 *   grade-worker record   --lab NN --kernel K.so --workdir DIR --seed S
 *   grade-worker run      --lab NN --image K.fatbin --record R.json --workdir DIR --seed S
 *                         [--no-timing]
 *   grade-worker counters --lab NN --image K.fatbin --record R.json --workdir DIR --seed S
 *                         [--shared-counters]
 *   grade-worker counters --workdir DIR                   (the doctor's self-test, no lab)
 *   grade-worker trace    --lab NN --image K.fatbin --record R.json --workdir DIR --seed S
 *                         (the tracer injected)
 *   grade-worker explore  --lab NN --workdir DIR
 *
 * Every mode that sets a lab up also takes --poison P (the run's poison, salt.h) and reads
 * the data salt of its arrays from CL_DATA_SALT in its environment (wire.h WI_ENV_DATA_SALT).
 * The command line and everything it has to say, DIR/result.json, are the wire's (wire.h);
 * stdout and stderr are captured by the grader and shown, never parsed.
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counters.h"
#include "countreq.h"
#include "record.h"
#include "replay.h"
#include "cuda_check.h"
#include "devinfo.h"
#include "timing.h"
#include "gpulock.h"
#include "salt.h"
#include "wire.h"
#include "worker.h"

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

/* The GPU lock this replay was handed (gpulock.h), its own open file; GL_NONE when the GPU is
 * this process's alone. */
static gl_lock gpu = {-1, -1, -1, 0, 0};

/* At exit: the lock is given up with the process anyway; this notes it in the timeline. */
static void release_gpu(void)
{
    gl_release(&gpu);
}

/* Takes the GPU lock as how, or ends the process with CL_EXIT_GPU_BUSY when it was not free in
 * time (nothing is measured then: the grader runs this replay again with the GPU to itself). */
static void use_gpu(int how)
{
    int rc = gl_take(&gpu, how, WI_GPU_WAIT_S);
    if (rc == 0)
        return;
    fprintf(stderr, "the GPU lock was %s\n", rc > 0 ? "not free in time" : "unusable");
    fflush(NULL);
    _exit(CL_EXIT_GPU_BUSY);
}

void *wk_symbol(const wk_job *job, const char *name)
{
    if (!job->kernel_so)
        return NULL; /* a replay: no student host code here */
    void *sym = dlsym(job->kernel_so, name);
    if (!sym) {
        fprintf(stderr,
                "the kernel file defines no '%s': keep the launcher's name and its "
                "extern \"C\" from the lab header\n",
                name);
        exit(CL_EXIT_CONTRACT);
    }
    return sym;
}

/* The lab's buffers, in the order they were made, the part of each the lab uses (all of it
 * but the guards), and each input's name (NULL: an output). */
static rl_buffer buffers[WI_MAX_BUFFERS];
static uint64_t in_use[WI_MAX_BUFFERS][2];
static const char *input_name[WI_MAX_BUFFERS];
static uint32_t nbuffers;

static void add_buffer(const void *base, size_t bytes, size_t guard, const char *input)
{
    if (nbuffers == WI_MAX_BUFFERS) {
        fprintf(stderr, "the lab has more than %d buffers\n", WI_MAX_BUFFERS);
        exit(CL_EXIT_IO);
    }
    uint64_t lo = (uint64_t)(uintptr_t)base;
    in_use[nbuffers][0] = lo + guard;
    in_use[nbuffers][1] = lo + bytes - guard;
    input_name[nbuffers] = input;
    buffers[nbuffers++] = (rl_buffer){lo, bytes};
}

void wk_add_buffer(const void *base, size_t bytes, const char *input)
{
    add_buffer(base, bytes, 0, input);
}

/* Tells the trace engine, when it is injected, where the lab's buffers and their guards are,
 * so that it can report the loads that read outside an array. */
static void watch_buffers(void)
{
    const char *lib = getenv(WI_ENV_INJECTION);
    void *tracer = lib ? dlopen(lib, RTLD_NOW | RTLD_NOLOAD) : NULL;
    typedef void (*watch_fn)(const uint64_t *, int);
    watch_fn watch = tracer ? (watch_fn)dlsym(tracer, WI_TRACER_WATCH) : NULL;
    if (!watch)
        return;
    uint64_t ranges[4 * WI_MAX_BUFFERS];
    for (uint32_t i = 0; i < nbuffers; ++i) {
        ranges[4 * i] = buffers[i].base;
        ranges[4 * i + 1] = buffers[i].base + buffers[i].bytes;
        ranges[4 * i + 2] = in_use[i][0];
        ranges[4 * i + 3] = in_use[i][1];
    }
    watch(ranges, (int)nbuffers);
}

uint32_t wk_inputs(void)
{
    uint32_t bits = 0;
    for (uint32_t i = 0; i < nbuffers; ++i)
        bits |= input_name[i] ? 1u << i : 0u;
    return bits;
}

uint32_t wk_buffers(rl_buffer out[WI_MAX_BUFFERS])
{
    memcpy(out, buffers, nbuffers * sizeof *out);
    return nbuffers;
}

/* The run's poison (main: --poison; the counting server: each request's). */
static uint32_t poison = SL_DEFAULT_POISON;

uint32_t wk_poison(void)
{
    return poison;
}

int wk_holds_poison(const void *host, size_t bytes)
{
    const unsigned char *b = host;
    for (size_t i = 0; i < bytes; ++i)
        if (b[i] != sl_poison_byte(poison, i))
            return 0;
    return 1;
}

/* Allocates bytes with its guards, the whole block poisoned, and makes it one of the lab's
 * buffers: the input named input, or an output where input is NULL. */
static void *alloc_guarded(size_t bytes, const char *input)
{
    char *base = NULL;
    size_t total = bytes + 2 * WK_GUARD_BYTES;
    if (bytes % 4) {
        fprintf(stderr, "the grader allocates whole floats, not %zu bytes\n", bytes);
        exit(CL_EXIT_IO);
    }
    CL_CUDA_CHECK(cudaMalloc((void **)&base, total));
    CL_CUDA_CHECK(wk_fill_poison(base, total));
    add_buffer(base, total, WK_GUARD_BYTES, input);
    return base + WK_GUARD_BYTES;
}

void *wk_alloc_input(const char *name, size_t bytes)
{
    return alloc_guarded(bytes, name);
}

void *wk_alloc_output(size_t bytes)
{
    return alloc_guarded(bytes, NULL);
}

int wk_guards_intact(const void *ptr, size_t bytes)
{
    const char *base = (const char *)ptr - WK_GUARD_BYTES;
    unsigned char guard[2][WK_GUARD_BYTES];
    CL_CUDA_CHECK(cudaMemcpy(guard[0], base, WK_GUARD_BYTES, cudaMemcpyDeviceToHost));
    CL_CUDA_CHECK(cudaMemcpy(guard[1], base + WK_GUARD_BYTES + bytes, WK_GUARD_BYTES,
                             cudaMemcpyDeviceToHost));
    /* Both guards start a whole number of words from the block's start (bytes % 4 == 0). */
    return wk_holds_poison(guard[0], WK_GUARD_BYTES) && wk_holds_poison(guard[1], WK_GUARD_BYTES);
}

void wk_free_guarded(void *ptr)
{
    if (ptr)
        cudaFree((char *)ptr - WK_GUARD_BYTES);
}

/* Every output of the lab (its usable part; all of a buffer the lab added itself) poisoned
 * again, so that one more replay starts from nothing of the last one's work. */
static void poison_outputs(void)
{
    for (uint32_t i = 0; i < nbuffers; ++i)
        if (!input_name[i])
            CL_CUDA_CHECK(wk_fill_poison((void *)(uintptr_t)in_use[i][0],
                                         (size_t)(in_use[i][1] - in_use[i][0])));
}

/* ---- inputs left as the lab set them up ----
 * A replay's launches may read their inputs, never change them: a replay that leaves a value
 * behind in an input (or in its guards or padding) could hand it to the next one, or to the
 * grader's check of what it read. Once a replaying step has set the lab up, every input is
 * copied whole on the GPU (snapshot_inputs); after each replay, the timed ones included, a
 * comparison kernel of the grader's (fill.cu) sets the input's flag on the device where any
 * byte differs from the copy (compare_inputs), and the first input whose flag is set is named
 * in the step's result (note_changed_inputs: wi_run.input_changed), which the grader makes a
 * breach of the contract. The flags stay set, so a change in any timed repeat is seen. */
static void *snapshot[WI_MAX_BUFFERS];
static unsigned *changed_dev; /* one flag a buffer, on the device */
static int snapped;

static void compare_inputs(void)
{
    for (uint32_t i = 0; snapped && i < nbuffers; ++i)
        if (input_name[i])
            CL_CUDA_CHECK(wk_compare_bytes((const void *)(uintptr_t)buffers[i].base, snapshot[i],
                                           (size_t)buffers[i].bytes, &changed_dev[i]));
}

static void free_snapshots(void)
{
    for (uint32_t i = 0; i < WI_MAX_BUFFERS; ++i) {
        cudaFree(snapshot[i]);
        snapshot[i] = NULL;
    }
    snapped = 0;
}

/* The copies made, and compared once at once: that loads the comparison's device code while
 * the lab is being set up, before the tracer starts watching (watch_buffers). */
static void snapshot_inputs(void)
{
    free_snapshots();
    if (!changed_dev)
        CL_CUDA_CHECK(cudaMalloc((void **)&changed_dev, WI_MAX_BUFFERS * sizeof *changed_dev));
    CL_CUDA_CHECK(cudaMemset(changed_dev, 0, WI_MAX_BUFFERS * sizeof *changed_dev));
    for (uint32_t i = 0; i < nbuffers; ++i) {
        if (!input_name[i])
            continue;
        CL_CUDA_CHECK(cudaMalloc(&snapshot[i], (size_t)buffers[i].bytes));
        CL_CUDA_CHECK(cudaMemcpy(snapshot[i], (const void *)(uintptr_t)buffers[i].base,
                                 (size_t)buffers[i].bytes, cudaMemcpyDeviceToDevice));
    }
    snapped = 1;
    compare_inputs();
    CL_CUDA_CHECK(cudaDeviceSynchronize());
}

/* After a replay: its inputs compared with their copies, and the first that changed (in this
 * replay or any before it since the lab was set up) named in run, unless one already is. */
static void note_changed_inputs(wi_run *run)
{
    if (!snapped)
        return; /* the recording, or a lab of the grader's own */
    compare_inputs();
    unsigned changed[WI_MAX_BUFFERS];
    CL_CUDA_CHECK(cudaMemcpy(changed, changed_dev, sizeof changed, cudaMemcpyDeviceToHost));
    for (uint32_t i = 0; i < nbuffers && !run->input_changed[0]; ++i)
        if (input_name[i] && changed[i])
            snprintf(run->input_changed, sizeof run->input_changed, "%s", input_name[i]);
}

/* A new lab state starts with no buffers. */
static void forget_buffers(void)
{
    free_snapshots();
    nbuffers = 0;
}

static char *path_in(const wk_job *job, const char *name)
{
    size_t n = strlen(job->workdir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(CL_EXIT_IO);
    }
    snprintf(p, n, "%s/%s", job->workdir, name);
    return p;
}

/* The buffer device outputs go to their files through, a piece at a time: pinned where the
 * driver gives pinned memory (a pageable copy of a whole output costs a page fault per page, more
 * than the copy itself), else a pageable one of the same size. */
enum { STAGE_BYTES = 8 << 20 };

static void *staging_buffer(void)
{
    static void *stage;
    if (!stage && cudaMallocHost(&stage, STAGE_BYTES) != cudaSuccess) {
        (void)cudaGetLastError();
        stage = malloc(STAGE_BYTES);
    }
    if (!stage) {
        fprintf(stderr, "out of host memory for a %d-byte staging buffer\n", STAGE_BYTES);
        exit(CL_EXIT_IO);
    }
    return stage;
}

void wk_save_device_raw(const wk_job *job, const char *name, const void *dev, size_t bytes)
{
    void *stage = staging_buffer();
    char file[256];
    snprintf(file, sizeof file, "%s.bin", name);
    char *path = path_in(job, file);
    FILE *f = wi_create(path);
    int ok = f != NULL;
    for (size_t done = 0; ok && done < bytes; done += STAGE_BYTES) {
        size_t n = bytes - done < STAGE_BYTES ? bytes - done : STAGE_BYTES;
        CL_CUDA_CHECK(cudaMemcpy(stage, (const char *)dev + done, n, cudaMemcpyDeviceToHost));
        ok = fwrite(stage, 1, n, f) == n;
    }
    if (!f || fclose(f) != 0 || !ok) {
        fprintf(stderr, "cannot write '%s'\n", path);
        exit(CL_EXIT_IO);
    }
    free(path);
}

int wk_save_device(const wk_job *job, const char *name, const void *dev, size_t bytes)
{
    wk_save_device_raw(job, name, dev, bytes);
    return wk_guards_intact(dev, bytes);
}

FILE *wk_explore_csv(const wk_job *job)
{
    char *path = path_in(job, WI_EXPLORE_CSV);
    FILE *f = wi_create(path);
    if (!f) {
        fprintf(stderr, "cannot write '%s'\n", path);
        exit(CL_EXIT_IO);
    }
    free(path);
    return f;
}

void wk_save(const wk_job *job, const char *name, const void *host, size_t bytes)
{
    char file[256];
    snprintf(file, sizeof file, "%s.bin", name);
    char *path = path_in(job, file);
    FILE *f = wi_create(path);
    if (!f || fwrite(host, 1, bytes, f) != bytes || fclose(f) != 0) {
        fprintf(stderr, "cannot write '%s'\n", path);
        exit(CL_EXIT_IO);
    }
    free(path);
}

double wk_tiled_loads(double m, double n, double k)
{
    double tiles_m = ceil(m / WK_LEAST_TILE), tiles_n = ceil(n / WK_LEAST_TILE);
    return (m * k * tiles_n + k * n * tiles_m) * sizeof(float);
}

/* ---- the driver (worker.h) ---- */

int wk_driver_function(const char *name, void **fn, char *why, size_t why_size)
{
    enum cudaDriverEntryPointQueryResult q;
    if (cudaGetDriverEntryPointByVersion(name, fn, 12040, cudaEnableDefault, &q) != cudaSuccess ||
        !*fn) {
        snprintf(why, why_size,
                 "this driver has no %s: recording and replaying launches needs a driver for "
                 "CUDA 12.4 or newer",
                 name);
        return -1;
    }
    return 0;
}

/* ---- the speed-of-light copy (worker.h) ---- */

typedef struct copy_ctx {
    int kind; /* which of sol_copy.cu's copies */
    const void *src;
    void *dst;
    size_t bytes;
} copy_ctx;

static cudaError_t copy_work(void *ctx)
{
    copy_ctx *c = ctx;
    return wk_sol_copy_run(c->kind, c->src, c->dst, c->bytes);
}

cudaError_t wk_time_copy(const void *src, void *dst, size_t bytes, const tm_options *opt,
                         tm_result *res)
{
    copy_ctx c = {0, src, dst, bytes};
    return tm_measure(copy_work, &c, opt, res);
}

/* The size of each of the ceiling's two buffers: several times the L2, so that no copy is
 * served from the cache, and at least 1 GiB where a quarter of the free memory holds both
 * (the longer a copy runs, the less its start and its tail weigh). */
static size_t ceiling_bytes(const wk_job *job)
{
    size_t least = WI_WORKING_SET_L2S * job->dev.l2_bytes, bytes = (size_t)1 << 30;
    size_t free_bytes = 0, total = 0;
    if (cudaMemGetInfo(&free_bytes, &total) == cudaSuccess && 2 * bytes > free_bytes / 4)
        bytes = free_bytes / 8;
    if (bytes < least)
        bytes = least;
    if (bytes < ((size_t)256 << 20))
        bytes = (size_t)256 << 20;
    return bytes & ~(size_t)15;
}

cudaError_t wk_ceiling(const wk_job *job, const tm_options *opt, tm_result *best,
                       const char **kernel, size_t *buffer_bytes)
{
    size_t bytes = ceiling_bytes(job);
    void *src = NULL, *dst = NULL;
    memset(best, 0, sizeof *best);
    *kernel = "";
    *buffer_bytes = bytes;
    if (cudaMalloc(&src, bytes) != cudaSuccess || cudaMalloc(&dst, bytes) != cudaSuccess) {
        /* No room for the copies beside the lab's buffers: no ceiling (a bandwidth is shown,
         * never graded, so the run goes on without it). */
        cudaGetLastError();
        cudaFree(src);
        return cudaSuccess;
    }
    cudaError_t err = cudaMemset(src, 0x3c, bytes);
    tm_options copy_opt = *opt; /* the copies are ours: events on the default stream suffice */
    copy_opt.sync_device = 0;
    copy_opt.flush_bytes = 0; /* no buffer fits in the L2 */
    for (int k = 0; err == cudaSuccess && k < wk_sol_copies(); ++k) {
        copy_ctx c = {k, src, dst, bytes};
        tm_result r;
        err = tm_measure(copy_work, &c, &copy_opt, &r);
        if (err == cudaSuccess && (!best->median_ms || r.median_ms < best->median_ms)) {
            *best = r;
            *kernel = wk_sol_copy_name(k);
        }
    }
    cudaFree(src);
    cudaFree(dst);
    return err;
}

/* ---- result.json ---- */

/* Writes json (and frees it) as WORKDIR/NAME; exits CL_EXIT_IO when it cannot. */
static void write_json(const wk_job *job, const char *name, cJSON *json)
{
    char *path = path_in(job, name);
    if (wi_write_file(path, json) != 0) {
        fprintf(stderr, "cannot write '%s'\n", path);
        exit(CL_EXIT_IO);
    }
    cJSON_Delete(json);
    free(path);
}

static void write_result(const wk_job *job, const wi_result *res)
{
    write_json(job, WI_RESULT_FILE, wi_result_to_json(res));
}

static wi_time time_of(const tm_result *t, double bytes)
{
    wi_time w = {.median_ms = t->median_ms,
                 .min_ms = t->min_ms,
                 .max_ms = t->max_ms,
                 .repeats = t->repeats,
                 .bytes = bytes,
                 .bytes_per_s = t->median_ms > 0 ? bytes / (t->median_ms * 1e-3) : 0};
    return w;
}

/* ---- modes ---- */

static tm_options timing_options(const wk_job *job)
{
    tm_options opt = {.warmup = 2, .repeats = 15, .flush_bytes = 4 * job->dev.l2_bytes};
    return opt;
}

/* Sets the lab's problem up on the GPU; ends the process when host memory runs out. In a
 * replay (no student code loaded) its inputs are copied, to be compared after each replay. */
static void *open_lab(const wk_job *job, const wk_lab *lab)
{
    forget_buffers();
    void *state = lab->open(job);
    if (!state) {
        fprintf(stderr, "out of host memory while setting up lab %s\n", job->lab);
        exit(CL_EXIT_IO);
    }
    if (!job->kernel_so && !lab->builtin)
        snapshot_inputs();
    gl_phase("inputs");
    return state;
}

static void close_lab(const wk_lab *lab, void *state)
{
    lab->close(state);
    free_snapshots();
}

/* ---- the student's work: recorded once, replayed everywhere else ---- */

/* What a step runs as the student's work: the replay of the record, or (for the engines'
 * built-in patterns, which have no student) the lab's own launch. */
typedef struct work {
    tm_work run;
    void *ctx;
    tm_work reload; /* fresh device state between runs; NULL when there is none to refresh */
    rp_replay *replay;
} work;

static void *record_file(const char *path, wi_record *rec)
{
    char why[512];
    if (wi_record_load(path, rec, why, sizeof why) != 0) {
        fprintf(stderr, "cannot replay the recorded launches: %s\n", why);
        exit(CL_EXIT_IO);
    }
    return rec;
}

/* A replay's record and device code (main). A replay started early (--go) sets itself up (CUDA,
 * the lab's inputs, the counters' host share) before they exist, and reads them once the
 * grader names the folder they are in: replay_files, called by each replaying mode once the
 * lab is set up, waits for that (holding no GPU lock: it does nothing on the GPU meanwhile)
 * and goes there. (A recording started early waits in main, with its context made.) */
static struct {
    const char *record, *image;
    int go_fd;   /* -1: none, or already read */
    int keep;    /* the go's socket kept after the go, to say when the measuring is over */
    int tell_fd; /* that socket, once the go was read; -1: none */
} pending = {NULL, NULL, -1, 0, -1};

/* Says on the go's socket that the measured sections are over (the run child): a lab graded
 * alone starts its trace then, beside what is left of the run (ch_measured). */
static void say_measured(void)
{
    if (pending.tell_fd < 0)
        return;
    ssize_t said = write(pending.tell_fd, "m", 1);
    (void)said;
    close(pending.tell_fd);
    pending.tell_fd = -1;
}

static void await_go(void)
{
    int held = gpu.held;
    gl_release(&gpu);
    ssize_t said = write(pending.go_fd, "r", 1); /* set up: the grader may go on (ch_ready) */
    (void)said;
    char dir[PATH_MAX + 2];
    size_t n = 0;
    while (n + 1 < sizeof dir) {
        ssize_t got = read(pending.go_fd, dir + n, 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0 || dir[n] == '\n')
            break;
        ++n;
    }
    int ended = n == 0 || dir[n] != '\n';
    dir[n] = '\0';
    if (pending.keep && !ended)
        pending.tell_fd = pending.go_fd;
    else
        close(pending.go_fd);
    pending.go_fd = -1;
    if (ended) /* no go: the grader does not want this replay any more */
        _exit(CL_EXIT_IO);
    if (chdir(dir) != 0) {
        fprintf(stderr, "cannot go to the replays' folder '%s'\n", dir);
        exit(CL_EXIT_IO);
    }
    gl_phase("wait");
    if (held)
        use_gpu(GL_SHARED);
}

/* (A lab that notes values in its record, lab 07, sets its buffers up from them: its replays
 * wait for theirs before the lab is set up, open_replayed.) */
static void replay_files(wk_job *job)
{
    static wi_record rec;
    static char record_dir[PATH_MAX];
    if (job->record || !pending.record)
        return;
    if (pending.go_fd >= 0)
        await_go();
    job->record = record_file(pending.record, &rec);
    job->image = pending.image;
    snprintf(record_dir, sizeof record_dir, "%s", pending.record);
    char *slash = strrchr(record_dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(record_dir, sizeof record_dir, ".");
    job->record_dir = record_dir;
}

static void *open_replayed(wk_job *job, const wk_lab *lab)
{
    if (lab->note)
        replay_files(job); /* its set-up reads what the recording noted */
    void *state = open_lab(job, lab);
    replay_files(job);
    return state;
}

/* The work of a replaying step, on the buffers the lab has just set up. */
static work open_work(const wk_job *job, const wk_lab *lab, void *state)
{
    work w = {.run = lab->launch, .ctx = state};
    if (lab->builtin)
        return w;
    rl_buffer b[WI_MAX_BUFFERS];
    uint32_t nb = wk_buffers(b);
    char why[512];
    w.replay = rp_open(job->image, job->record, b, nb, why, sizeof why);
    if (!w.replay) {
        fprintf(stderr, "cannot replay the recorded launches: %s\n", why);
        exit(CL_EXIT_CONTRACT);
    }
    w.run = rp_run;
    w.ctx = w.replay;
    w.reload = rp_reload;
    gl_phase("load");
    return w;
}

/* The lab's outputs saved into job's folder, and what the run says of them. */
static void save_run(const wk_job *job, const wk_lab *lab, void *state, wi_result *res)
{
    note_changed_inputs(&res->run);
    res->has_run = 1;
    res->run.launched = 1;
    res->run.guards_intact = lab->save(state, job);
    res->run.useful_bytes = lab->useful_bytes(state);
    if (lab->least)
        lab->least(state, &res->run.least_load_bytes, &res->run.least_store_bytes);
}

/* One run of the work, to the end; its outputs saved. */
static void run_once(const wk_job *job, const wk_lab *lab, void *state, const work *w,
                     wi_result *res)
{
    CL_CUDA_CHECK(w->run(w->ctx));
    CL_CUDA_CHECK(cudaDeviceSynchronize());
    gl_phase("launches");
    save_run(job, lab, state, res);
    gl_phase("save");
}

/* Calls the student's launchers once on the lab's buffers, recording what they do. */
static void record_once(const wk_job *job, const wk_lab *lab, void *state, wi_record *rec)
{
    memset(rec, 0, sizeof *rec);
    rl_buffer b[WI_MAX_BUFFERS];
    rec->nbuffers = wk_buffers(b);
    for (uint32_t i = 0; i < rec->nbuffers; ++i) {
        snprintf(rec->buffers[i].name, sizeof rec->buffers[i].name, "buffer %u", i);
        rec->buffers[i].bytes = b[i].bytes;
        rec->buffers[i].input = (wk_inputs() >> i) & 1;
    }
    if (lab->note)
        lab->note(state, rec->lab_values);
    char why[512];
    if (rc_begin(rec, b, rec->nbuffers, lab->device_copies, why, sizeof why) != 0) {
        fprintf(stderr, "cannot record the launches: %s\n", why);
        exit(CL_EXIT_CUDA);
    }
    cudaError_t err = lab->launch(state);
    rc_end();
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    gl_phase("launches");
    if (err != cudaSuccess) {
        /* The student's own failure: say at which size, the size being the likely cause. */
        char shape[128];
        lab->shapes->describe(&job->shape, shape, sizeof shape);
        fprintf(stderr, "at %s, the launcher failed: %s (%s)\n", shape, cudaGetErrorName(err),
                cudaGetErrorString(err));
        exit(CL_EXIT_CUDA);
    }
}

static void write_record(const wk_job *job, const char *name, const wi_record *rec)
{
    char *path = path_in(job, name);
    if (wi_record_save(path, rec) != 0) {
        fprintf(stderr, "cannot write '%s'\n", path);
        exit(CL_EXIT_IO);
    }
    free(path);
}

/* WI_RECORD: the only step that runs the student's host code. Its launchers are called once,
 * recorded, and their outputs saved (for the grader to compare, should a replay differ); for a
 * lab that traces a smaller problem, once more on that problem. */
static int mode_record(wk_job *job, const wk_lab *lab, wi_result *res)
{
    static wi_record rec;
    job->shape = lab->shapes->graded;
    void *state = open_lab(job, lab);
    record_once(job, lab, state, &rec);
    write_record(job, WI_RECORD_FILE, &rec);
    save_run(job, lab, state, res);
    write_result(job, res);
    gl_phase("save");
    close_lab(lab, state);
    gl_phase("close");
    if (cl_traced_smaller(lab->shapes)) {
        job->shape = lab->shapes->traced;
        state = open_lab(job, lab);
        record_once(job, lab, state, &rec);
        write_record(job, WI_TRACE_RECORD_FILE, &rec);
        close_lab(lab, state);
    }
    for (unsigned k = 0; k < lab->shapes->nchecks; ++k) {
        char name[64];
        snprintf(name, sizeof name, WI_CHECK_RECORD_FILE, k);
        job->shape = lab->shapes->checks[k];
        state = open_lab(job, lab);
        record_once(job, lab, state, &rec);
        write_record(job, name, &rec);
        close_lab(lab, state);
        gl_phase("close");
    }
    return 0;
}

/* Before every timed replay: the outputs poisoned again where the lab can (a kernel that
 * skips work already done would look fast), and the device code reloaded. */
typedef struct fresh_ctx {
    const wk_lab *lab;
    void *state;
    const work *w;
} fresh_ctx;

static cudaError_t fresh_start(void *ctx)
{
    const fresh_ctx *f = ctx;
    compare_inputs(); /* after the run before: read once the timing is over */
    if (f->lab->reset)
        f->lab->reset(f->state);
    return f->w->reload ? f->w->reload(f->w->ctx) : cudaSuccess;
}

/* The timing engine: the lab's work, this GPU's bandwidth ceiling (wk_ceiling) and the lab's
 * own baseline where it has one, each a median of repeats (the lab's with the L2 flushed
 * between them). Every timed replay starts from poisoned outputs and freshly loaded device
 * code. */
static void time_all(const wk_job *job, const wk_lab *lab, void *state, const work *w, wi_timing *t)
{
    double useful = lab->timed_bytes ? lab->timed_bytes(state) : lab->useful_bytes(state);
    tm_options opt = timing_options(job);
    /* A speed gate times work on every stream: the student's and the baseline alike. */
    opt.sync_device = lab->baseline != NULL;
    tm_options student_opt = opt;
    fresh_ctx fresh = {lab, state, w};
    student_opt.before = fresh_start;
    student_opt.before_ctx = &fresh;
    tm_result student, ceiling;
    CL_CUDA_CHECK(tm_measure(w->run, w->ctx, &student_opt, &student));
    const char *kernel = "";
    size_t buffer = 0;
    CL_CUDA_CHECK(wk_ceiling(job, &opt, &ceiling, &kernel, &buffer));
    t->student = time_of(&student, useful);
    t->ceiling = time_of(&ceiling, 2.0 * (double)buffer); /* read once, written once */
    snprintf(t->ceiling_kernel, sizeof t->ceiling_kernel, "%s", kernel);
    t->ceiling_buffer_bytes = (double)buffer;
    if (lab->baseline) {
        /* The grader's own kernel for the same task, on the same inputs, same run. */
        tm_result base;
        CL_CUDA_CHECK(tm_measure(lab->baseline, state, &opt, &base));
        t->has_baseline = 1;
        t->baseline = time_of(&base, useful);
    }
    t->flush_bytes = (double)opt.flush_bytes;
}

/* One replay on check shape k of the lab, from its own record: the outputs and a result (the
 * guards) saved in WORKDIR/check-K, for the grader to check. */
static void run_check(const wk_job *job, const wk_lab *lab, unsigned k)
{
    static wi_record rec;
    static wi_result res;
    char name[64], *path, *dir;
    snprintf(name, sizeof name, WI_CHECK_RECORD_FILE, k);
    wk_job cj = *job;
    cj.workdir = job->record_dir;
    path = path_in(&cj, name);
    cj.record = record_file(path, &rec);
    free(path);
    snprintf(name, sizeof name, WI_CHECK_DIR, k);
    dir = path_in(job, name);
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "cannot make '%s'\n", dir);
        exit(CL_EXIT_IO);
    }
    cj.workdir = dir;
    cj.shape = lab->shapes->checks[k];
    char shape[128];
    lab->shapes->describe(&cj.shape, shape, sizeof shape);
    printf("replaying the launches made at %s\n", shape);
    fflush(stdout);
    memset(&res, 0, sizeof res);
    res.mode = WI_RUN;
    void *state = open_lab(&cj, lab);
    work w = open_work(&cj, lab, state);
    run_once(&cj, lab, state, &w, &res);
    write_result(&cj, &res);
    rp_close(w.replay);
    close_lab(lab, state);
    free(dir);
}

/* The level of counters a lab's grading reads. */
static int counter_level(const wk_job *job)
{
    return job->shared_counters ? CT_SHARED : CT_GLOBAL;
}

/* The counters' work beside other gradings: CUPTI starts its session (cuptiRangeProfilerStart,
 * about 0.14 s of host work on the H200: tests/gpu/count_cost.sh) holding the counters' lock
 * alone, while another grading may be timing, and the work itself runs with the GPU lock taken
 * again as how says (shared; held alone for hardware counters, in the counting server). A wait
 * for it that runs out fails the count, which is then read again (mode_run: with the GPU held
 * alone; the server: in a child of the lab's own). */
typedef struct held_work {
    const work *w;
    int how; /* the GPU lock the work takes: GL_SHARED, or GL_EXCLUSIVE for hardware counters */
} held_work;

static cudaError_t work_held(void *arg)
{
    const held_work *h = arg;
    if (gl_take(&gpu, h->how, WI_GPU_WAIT_S) != 0)
        return cudaErrorTimeout;
    gl_phase("profile-gpu"); /* the wait for the GPU */
    return h->w->run(h->w->ctx);
}

static uint32_t launches_of(const wi_record *rec)
{
    uint32_t n = 0;
    for (uint32_t i = 0; rec && i < rec->nops; ++i)
        n += rec->ops[i].kind == WI_OP_LAUNCH;
    return n;
}

/* Every recorded launch is one of CUPTI's ranges: where CUPTI reports fewer, the count is not
 * the lab's whole work and fails (beside others, it is then read again alone). The counting
 * server once returned the counts of 8 of lab 06's 10 kernels as "ok" (tests/gpu/RESULTS.md,
 * sixteenth session; whether as fewer ranges or as ranges of zeros, that run did not say). A
 * record of more launches than the ranges CUPTI keeps already fails in ct_count. */
static void check_ranges(const wk_job *job, wi_counters *c)
{
    uint32_t launched = launches_of(job->record);
    if (c->status != WI_ENGINE_OK || !job->record || launched > WI_MAX_KERNELS ||
        (uint32_t)c->nkernels == launched)
        return;
    c->status = WI_ENGINE_FAILED;
    snprintf(c->why, sizeof c->why, "CUPTI counted %d kernels of the %u launched", c->nkernels,
             launched);
}

/* The counters engine: one replay under CUPTI's range profiler, set up (cs, ct_open) before
 * the caller took the counters' lock and the GPU (exclusively, or shared: beside, where CUPTI
 * starts its session with the GPU lock given up, work_held), and the lock given back to
 * shared (the counters' lock given up) as soon as the GPU has counted; its result in job's
 * folder. The profiler replays each kernel and restores memory between passes: what is left
 * is one run's outputs, saved beside it for the grader to check. */
static void profile(const wk_job *job, const wk_lab *lab, void *state, const work *w,
                    ct_session *cs, int beside, wi_result *res)
{
    res->has_counters = 1;
    if (beside) {
        gl_release(&gpu); /* the counters' lock kept: no other grading's CUPTI starts */
        held_work h = {w, GL_SHARED};
        ct_count(cs, work_held, &h, &res->counters);
    } else {
        ct_count(cs, w->run, w->ctx, &res->counters);
    }
    gl_phase("profile");
    gl_release_counting(&gpu);    /* counted (where it held the counters' lock): the next may */
    gl_take(&gpu, GL_SHARED, -1); /* measured: no limit, nothing would be gained by one */
    ct_close(cs, &res->counters); /* the values, from what was counted: host work */
    check_ranges(job, &res->counters);
    gl_phase("evaluate");
    write_result(job, res);
    if (res->counters.status == WI_ENGINE_OK) {
        save_run(job, lab, state, res);
        write_result(job, res);
    }
}

/* The counters in the run's own process (one CUDA start less than their own child), into
 * job->counters_dir: counters_begin sets the profiler's host share up on a thread of its own
 * while the lab is set up and replayed for correctness (host work: the metrics' configuration
 * for this chip), counters_ready waits for it, and count_after profiles from poisoned outputs
 * and freshly loaded device code, as a child of their own would start, with the GPU held
 * exclusively by the caller, or shared under the counters' lock (count_beside). */
static struct {
    wi_result counted;
    int level;
    ct_session *cs;
    pthread_t thread;
    int beside;
} setup;

static void *counters_setup(void *arg)
{
    (void)arg;
    setup.cs = ct_open(setup.level, &setup.counted.counters);
    return NULL;
}

static void counters_begin(const wk_job *job, const wi_device *dev)
{
    memset(&setup.counted, 0, sizeof setup.counted);
    setup.counted.mode = WI_COUNTERS;
    setup.counted.device = *dev;
    setup.level = counter_level(job);
    setup.beside = pthread_create(&setup.thread, NULL, counters_setup, NULL) == 0;
}

static ct_session *counters_ready(void)
{
    if (setup.beside)
        pthread_join(setup.thread, NULL);
    else
        counters_setup(NULL);
    gl_phase("profile-setup"); /* what was left of it to wait for */
    return setup.cs;
}

static void count_after(const wk_job *job, const wk_lab *lab, void *state, const work *w,
                        ct_session *cs, int beside)
{
    wk_job cj = *job;
    cj.workdir = job->counters_dir;
    poison_outputs();
    if (w->reload)
        CL_CUDA_CHECK(w->reload(w->ctx));
    profile(&cj, lab, state, w, cs, beside, &setup.counted);
}

/* The GPU held alone for counting, the counters' lock taken first (with the GPU lock given up
 * while it waits): another grading's CUPTI may be starting its session holding no GPU lock
 * (work_held), and two sessions at once fail with CUPTI_ERROR_HARDWARE_BUSY. Where the
 * counters' lock is not free in time, the GPU alone all the same (CUPTI then says whether it
 * could count). */
static void use_counting_alone(void)
{
    gl_take_counting(&gpu, WI_GPU_WAIT_S);
    use_gpu(GL_EXCLUSIVE);
}

/* Whether the counters are read with the GPU shared, under the counters' own lock
 * (gl_take_counting): beside other gradings (a lock), where the lab reads only counters that
 * CUPTI counts by patching the kernel's instructions (CT_GLOBAL: every metric smsp__sass_*),
 * which count what that kernel did whatever else runs. Hardware counters (shared memory's bank
 * conflicts, the DRAM's bytes) are read with the GPU held alone. */
static int count_beside(const wk_job *job)
{
    return job->counters_dir && gpu.count_fd >= 0 && counter_level(job) == CT_GLOBAL;
}

/* Takes the counters' lock, then the GPU shared again: 1. 0 where either was not free in time
 * or could not be taken (the GPU shared again then, through use_gpu, the counters' lock not
 * held): the counters are read with the GPU held alone instead. */
static int use_counting_beside(void)
{
    int rc = gl_take_counting(&gpu, WI_GPU_WAIT_S);
    if (rc == 0)
        rc = gl_take(&gpu, GL_SHARED, WI_GPU_WAIT_S);
    if (rc == 0)
        return 1;
    gl_release_counting(&gpu);
    use_gpu(GL_SHARED);
    return 0;
}

/* WI_RUN: one replay for correctness, then (when asked) the counters engine and (unless told
 * not to) the timing engine: beside other gradings, counters that need no exclusive hold are
 * read first, with the GPU shared (count_beside), so that the exclusive hold is the timing's
 * alone. What was timed must compute too: where the lab can reset its outputs, they are
 * poisoned again and one more replay's outputs are saved over the first's, for the grader to
 * check. Then one replay on each of the lab's check shapes. */
static int mode_run(wk_job *job, const wk_lab *lab, wi_result *res)
{
    if (job->counters_dir)
        counters_begin(job, &res->device);
    void *state = open_replayed(job, lab);
    work w = open_work(job, lab, state);
    run_once(job, lab, state, &w, res);
    write_result(job, res);
    ct_session *cs = job->counters_dir ? counters_ready() : NULL;
    int beside = count_beside(job) && use_counting_beside();
    if (beside) {
        count_after(job, lab, state, &w, cs, 1); /* gives the counters' lock up once counted */
        if (setup.counted.counters.status == WI_ENGINE_FAILED) {
            /* Whatever it was (another process's profiler, which the lock does not keep out:
             * a student's recording beside it among them), nothing that failed beside others
             * counts before it failed with the GPU held alone, where no recording runs: the
             * counters are read again after the timing, as where they cannot be beside. */
            fprintf(stderr, "the counters failed beside other gradings (%s): read again alone\n",
                    setup.counted.counters.why);
            memset(&setup.counted.counters, 0, sizeof setup.counted.counters);
            cs = ct_open(counter_level(job), &setup.counted.counters);
            beside = 0;
        }
    }
    if (!job->no_timing) {
        use_gpu(GL_EXCLUSIVE); /* nothing else runs on the GPU while it is measured */
        res->has_timing = 1;
        time_all(job, lab, state, &w, &res->timing);
        note_changed_inputs(&res->run); /* the timed replays left the inputs alone too */
        gl_phase("timing");
    }
    if (job->counters_dir && !beside) {
        use_counting_alone();
        count_after(job, lab, state, &w, cs, 0); /* gives the lock back to shared */
    }
    gl_take(&gpu, GL_SHARED, -1); /* measured: no limit, nothing would be gained by one */
    say_measured();
    if (!job->no_timing) {
        if (lab->reset) {
            lab->reset(state);
            if (w.reload)
                CL_CUDA_CHECK(w.reload(w.ctx));
            run_once(job, lab, state, &w, res);
            res->run.checked_after_timing = 1;
        }
        write_result(job, res);
    }
    rp_close(w.replay);
    close_lab(lab, state);
    gl_phase("close");
    for (unsigned k = 0; lab->shapes && k < lab->shapes->nchecks; ++k)
        run_check(job, lab, k);
    return 0;
}

/* WI_TRACE: one replay, under the trace engine that the grader injected into this process
 * (it writes its own record). The lab may set up a smaller problem for the trace (the record
 * is then the one made on it): its useful bytes are that problem's. Its outputs are saved for
 * the grader to check: a kernel must compute the same while it is watched. */
static int mode_trace(wk_job *job, const wk_lab *lab, wi_result *res)
{
    if (lab->shapes)
        job->shape = lab->shapes->traced;
    void *state = open_replayed(job, lab);
    watch_buffers();
    work w = open_work(job, lab, state);
    run_once(job, lab, state, &w, res);
    write_result(job, res);
    rp_close(w.replay);
    close_lab(lab, state);
    /* The GPU's part is done (every launch's records were copied back as it ended): what is
     * left, the tracer's analysis of them as the process ends, is host work, and the more warps
     * it always traces (the edges of every block) the longer it takes; other gradings' timings
     * need not wait for it. */
    gl_release(&gpu);
    return 0;
}

/* WI_COUNTERS: one replay under CUPTI's range profiler. */
static int mode_counters(wk_job *job, const wk_lab *lab, wi_result *res)
{
    void *state = open_replayed(job, lab);
    work w = open_work(job, lab, state);
    ct_session *cs = ct_open(counter_level(job), &res->counters);
    use_counting_alone(); /* the counters count the GPU's traffic: this kernel's alone */
    profile(job, lab, state, &w, cs, 0, res);
    rp_close(w.replay);
    close_lab(lab, state);
    return 0;
}

/* ---- the counting server (countreq.h): every lab of a grading run counted in one process ----
 * CUPTI's first start on an enabled profiler is what a count costs (0.14 s alone, 0.3-0.8 s
 * beside other contexts' work); the starts after it, on the same enabled profiler, well under
 * a millisecond, and the hardware stays reserved meanwhile: no other process can count
 * (tests/gpu/count_cost.sh's server variant, tests/gpu/RESULTS.md, sixteenth session). So the
 * server pays that start as soon as it has started CUDA (serve_warm, while the labs are still
 * compiled and recorded), holds the counters' lock from then until no request has come for
 * SERVE_IDLE_MS (CUPTI's hardware is reserved meanwhile, for every process on the GPU), and
 * each request is one replay of one lab's device code in its replays' folder, its result and
 * outputs left there as a WI_COUNTERS child leaves them: counted with the GPU shared where
 * CUPTI counts by patching instructions (CT_GLOBAL), and with the GPU held alone where it also
 * reads hardware counters (lab 05's bank conflicts, CT_SHARED: the profiler enabled again for
 * those). A count that fails ends the server, the counters' lock given up: that lab counts in
 * a child of its own, which needs it, and so do the labs whose requests are still queued (a
 * server that took the lock again for the next could keep it from that child beyond its
 * wait). A request that runs past its limit ends the server (SIGALRM): every answer still
 * queued then reads as an end, and those labs count in children of their own. */
enum { SERVE_IDLE_MS = 1000, SERVE_WARM_S = 60 };

static const wk_lab *lab_numbered(const char *id);

static struct {
    ct_session *cs;
    int level;          /* cs's: CT_GLOBAL, or CT_SHARED */
    wi_counters opened; /* what ct_open said: the chip, the passes, its set-up time */
    wi_device device;
    rp_kept modules; /* the labs' device code counted under it, unloaded once it is closed */
} served;

/* The profiler disabled, then the labs' device code counted under it unloaded. */
static void serve_close(void)
{
    if (served.cs) {
        wi_counters ended;
        ct_close(served.cs, &ended);
        served.cs = NULL;
        gl_phase("profile-close");
    }
    rp_unload_kept(&served.modules);
}

/* ... and the counters' lock given up: another process may count. */
static void serve_pause(void)
{
    serve_close();
    gl_release_counting(&gpu);
}

/* The profiler enabled for counters of level, the counters' lock taken first where it is not
 * held: 0, or -1 where the lock was not free in time. */
static int serve_open(int level)
{
    if (gl_take_counting(&gpu, WI_GPU_WAIT_S) != 0)
        return -1;
    served.cs = ct_open(level, &served.opened);
    served.level = level;
    ct_keep(served.cs);
    return 0;
}

static cudaError_t no_work(void *ctx)
{
    (void)ctx;
    return cudaSuccess;
}

/* CUPTI's first start on the enabled profiler, paid on no work before the first request comes
 * (the counters' lock taken: no other process counts meanwhile). Where it fails, the first
 * request enables the profiler again and pays it. */
static void serve_warm(void)
{
    gl_tag("serve warm");
    alarm(SERVE_WARM_S); /* a driver that never answers ends the server: the labs count alone */
    if (serve_open(CT_GLOBAL) != 0) {
        alarm(0);
        return;
    }
    wi_counters warm = served.opened;
    ct_count(served.cs, no_work, NULL, &warm);
    ct_values(served.cs, &warm);
    alarm(0);
    gl_phase("warm");
    fprintf(stderr, "serve: CUPTI started on no work: %s\n",
            warm.status == WI_ENGINE_OK ? "ok" : warm.why);
}

/* A kernel that counted no global load or store instruction in the server fails its count
 * (the lab is counted again in a child of its own). Every lab's kernels read or write global
 * memory, and call 3 of the sixteenth session (tests/gpu/RESULTS.md) once saw two of lab 06's
 * kernels left out of a count in the server, while it unloaded each lab's module under the
 * enabled profiler (it keeps them now): whether as missing ranges (check_ranges) or as ranges
 * of zeros, neither passes. */
static void check_touched(wi_counters *c)
{
    for (int k = 0; c->status == WI_ENGINE_OK && k < c->nkernels; ++k) {
        const double *v = c->kernels[k].v;
        if (v[WI_LD_REQUESTS] == 0 && v[WI_ST_REQUESTS] == 0) {
            c->status = WI_ENGINE_FAILED;
            snprintf(c->why, sizeof c->why,
                     "CUPTI counted no global load or store in kernel %s in the counting server",
                     c->kernels[k].name);
        }
    }
}

/* The server's log, a line a count: its kernels against the record's launches, and each
 * kernel's global load and store requests. */
static void say_counted(const wk_job *job, const wi_counters *c)
{
    uint32_t launches = launches_of(job->record);
    fprintf(stderr, "serve %s%s: %s, %d kernels counted of %u launched:", job->lab,
            job->shared_counters ? " (with shared memory's)" : "",
            c->status == WI_ENGINE_OK ? "ok" : c->why, c->nkernels, launches);
    for (int k = 0; k < c->nkernels; ++k)
        fprintf(stderr, " [%s %.0f %.0f]", c->kernels[k].name, c->kernels[k].v[WI_LD_REQUESTS],
                c->kernels[k].v[WI_ST_REQUESTS]);
    fprintf(stderr, "\n");
    fflush(stderr);
}

/* One request: lab rq->lab's problem set up, its recorded launches replayed once under the
 * profiler, the values and the outputs written into the replays' folder. Ends the process on
 * what would end a WI_COUNTERS child (a CUDA error, an unusable record). */
static char serve_one(const wk_job *base, const cq_request *rq)
{
    const wk_lab *lab = lab_numbered(rq->lab);
    if (!lab || lab->builtin || chdir(rq->dir) != 0)
        return CQ_REFUSED;
    char tag[64];
    snprintf(tag, sizeof tag, "serve %s", rq->lab);
    gl_tag(tag);
    /* Counters of another level: the profiler enabled again (CUPTI's start paid again, with
     * the GPU shared). The same profiler given another config image ended the server in lab
     * 05's work on the H200 (tests/gpu/RESULTS.md, seventeenth session). */
    int level = rq->shared ? CT_SHARED : CT_GLOBAL;
    if (served.cs && served.level != level)
        serve_close();
    int fresh = !served.cs;
    if (fresh) {
        if (serve_open(level) != 0)
            return CQ_REFUSED;
        gl_phase("profile-setup");
    }
    if (gl_take(&gpu, GL_SHARED, WI_GPU_WAIT_S) != 0)
        return CQ_REFUSED;
    gl_phase("wait");
    wk_job job = *base;
    job.lab = rq->lab;
    job.seed = rq->seed;
    job.data_seed = sd_data_seed(rq->seed, rq->salt);
    poison = rq->poison ? rq->poison : SL_DEFAULT_POISON;
    job.shared_counters = rq->shared;
    job.workdir = WI_COUNTERS_DIR;
    job.record = NULL;
    job.image = NULL;
    job.shape = lab->shapes ? lab->shapes->graded : base->shape;
    pending.record = WI_RECORD_FILE;
    pending.image = WI_REPLAY_IMAGE;
    static wi_result res;
    memset(&res, 0, sizeof res);
    res.mode = WI_COUNTERS;
    res.device = served.device;
    res.counters = served.opened;
    if (!fresh)
        res.counters.setup_ms = 0; /* the profiler's set-up was an earlier count's */
    void *state = open_replayed(&job, lab);
    work w = open_work(&job, lab, state);
    res.has_counters = 1;
    /* CUPTI starts with the GPU shared; hardware counters count the GPU's traffic: this
     * kernel's alone. */
    held_work h = {&w, job.shared_counters ? GL_EXCLUSIVE : GL_SHARED};
    ct_count(served.cs, work_held, &h, &res.counters);
    gl_take(&gpu, GL_SHARED, -1); /* counted: no limit, nothing would be gained by one */
    gl_phase("profile");
    ct_values(served.cs, &res.counters);
    gl_phase("evaluate");
    check_ranges(&job, &res.counters);
    check_touched(&res.counters);
    say_counted(&job, &res.counters);
    /* A count that failed here is read again in a counters child of the lab's own (which says
     * why, where it fails there too). */
    char answer = res.counters.status == WI_ENGINE_OK ? CQ_COUNTED : CQ_REFUSED;
    if (answer == CQ_COUNTED) {
        save_run(&job, lab, state, &res);
        write_result(&job, &res);
    }
    rp_close_keeping(w.replay, &served.modules);
    close_lab(lab, state);
    gl_release(&gpu);
    gl_phase("close");
    return answer;
}

/* Serves the requests that come on sock until every sender's end is closed. */
static int serve(const wk_job *base, const wi_device *dev, int sock)
{
    signal(SIGPIPE, SIG_IGN); /* a grading that stopped waiting: its answer is lost */
    served.device = *dev;
    gl_release(&gpu); /* taken shared for CUDA's start; each request takes it again */
    serve_warm();
    for (;;) {
        struct pollfd p = {sock, POLLIN, 0};
        int rc = poll(&p, 1, served.cs ? SERVE_IDLE_MS : -1);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc < 0 || (p.revents & (POLLNVAL | POLLERR)))
            break; /* no socket to serve: the gradings count in children of their own */
        if (rc == 0) {
            serve_pause(); /* idle: the hardware back to whoever waits for it */
            continue;
        }
        cq_request rq;
        int reply;
        int got = cq_receive(sock, &rq, &reply);
        if (got == 0)
            break;
        if (got < 0)
            continue; /* not a request (dropped), or interrupted */
        alarm((unsigned)rq.limit_s + 1);
        char answer = serve_one(base, &rq);
        alarm(0);
        if (answer != CQ_COUNTED) {
            serve_pause(); /* the lab counts in a child of its own, which needs the lock */
            cq_answer(reply, answer);
            break;
        }
        cq_answer(reply, answer);
    }
    serve_pause();
    return 0;
}

static int mode_explore(wk_job *job, const wk_lab *lab, wi_result *res)
{
    (void)res;
    if (!lab->explore) {
        fprintf(stderr, "lab %s has no explore run\n", job->lab);
        return CL_EXIT_WORKER_USAGE;
    }
    return lab->explore(job);
}

/* grade --doctor: can this machine read counters at all? Profiles the grader's own copy. */
static int counters_self_test(const wk_job *job, wi_result *res)
{
    copy_ctx c = {.bytes = (size_t)64 << 20};
    CL_CUDA_CHECK(cudaMalloc((void **)&c.src, c.bytes));
    CL_CUDA_CHECK(cudaMalloc(&c.dst, c.bytes));
    res->has_counters = 1;
    ct_profile(copy_work, &c, CT_GLOBAL, &res->counters);
    write_result(job, res);
    cudaFree((void *)c.src);
    cudaFree(c.dst);
    return 0;
}

typedef int (*mode_fn)(wk_job *job, const wk_lab *lab, wi_result *res);

/* What each mode needs and does, by wi_mode: the student's kernel object (host code and all)
 * is loaded by the recording alone; the replays get its device code and the record. A lab
 * built in (the engines' patterns) needs neither. */
static const struct {
    int needs_kernel, needs_replay;
    mode_fn fn;
} modes[WI_NMODES] = {
    [WI_PROBE] = {0, 0, NULL},       [WI_RECORD] = {1, 0, mode_record},
    [WI_RUN] = {0, 1, mode_run},     [WI_COUNTERS] = {0, 1, mode_counters},
    [WI_TRACE] = {0, 1, mode_trace}, [WI_EXPLORE] = {0, 0, mode_explore},
};

static int usage(const char *why)
{
    fprintf(stderr,
            "grade-worker: %s\n"
            "usage: grade-worker probe|record|run|counters|trace|explore [--lab NN]\n"
            "           [--kernel FILE.so] [--image FILE.fatbin --record FILE.json]\n"
            "           --workdir DIR [--seed N] [--poison P] [--no-timing]\n"
            "           [--shared-counters] [--counters DIR]\n"
            "The grading child of 'grade'; run 'grade --help' instead.\n",
            why);
    return CL_EXIT_WORKER_USAGE;
}

static const wk_lab *lab_numbered(const char *id)
{
    for (size_t i = 0; id && i < sizeof wk_labs / sizeof wk_labs[0]; ++i)
        if (!strcmp(wk_labs[i].id, id))
            return wk_labs[i].lab;
    return NULL;
}

/* Which device there is, in the result (written at once: a probe needs nothing more; a replay
 * started early has no folder yet). */
static int query_device(const wk_job *job, wi_result *res, int write)
{
    int err = di_query(0, &res->device.info);
    if (err != cudaSuccess) {
        snprintf(res->device.error, sizeof res->device.error, "%s",
                 cudaGetErrorName((cudaError_t)err));
        snprintf(res->device.error_text, sizeof res->device.error_text, "%s",
                 cudaGetErrorString((cudaError_t)err));
    }
    if (write)
        write_result(job, res);
    return err;
}

static void phase_exit(void)
{
    gl_phase("exit");
}

/* An inherited descriptor's number from the command line; -1 when it is not one. */
static int descriptor(const char *text)
{
    char *end = NULL;
    long fd = strtol(text, &end, 10);
    return !*text || *end || fd < 0 || fd > INT_MAX ? -1 : (int)fd;
}

int main(int argc, char **argv)
{
    /* One work queue from this process to the GPU (a grading child's work is one stream's; the
     * recording refuses others), set before any CUDA call. The driver makes contexts one at a
     * time, and a context with eight queues, the default, takes it about three times as long:
     * 21 children started together (seven labs graded side by side) waited 3.1 s on average
     * for their contexts, 1.1 s with one queue (tests/gpu/contention.sh, tests/gpu/RESULTS.md,
     * thirteenth session). */
    setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 1);
    wi_args a;
    char why[256];
    if (wi_args_parse(argc, argv, &a, why, sizeof why) != 0)
        return usage(why);
    /* The data salt, from the environment (wire.h), then taken out of it: nothing this process
     * starts or loads later finds it there. */
    const char *salt = getenv(WI_ENV_DATA_SALT);
    uint64_t data_salt = salt ? strtoull(salt, NULL, 10) : 0;
    unsetenv(WI_ENV_DATA_SALT);
    if (a.poison)
        poison = a.poison;
    wk_job job = {.lab = a.lab,
                  .seed = a.seed,
                  .data_seed = sd_data_seed(a.seed, data_salt),
                  .workdir = a.workdir,
                  .shared_counters = a.shared_counters,
                  .counters_dir = a.counters_dir,
                  .no_timing = a.no_timing};
    static wi_result res;
    res.mode = a.mode;
    char tag[64];
    snprintf(tag, sizeof tag, "%s %s", wi_mode_name(a.mode), a.lab ? a.lab : "-");
    gl_tag(tag);
    gl_phase("start");
    atexit(phase_exit); /* registered first, so it runs last: after CUDA's own clean-up */
    if (a.gpu_lock) {
        gl_lock inherited;
        if (gl_parse(a.gpu_lock, &inherited) != 0)
            return usage("--gpu-lock is not FD:FD:FD");
        if (gl_open(&inherited, &gpu) != 0) {
            fprintf(stderr, "cannot open the GPU lock %s\n", a.gpu_lock);
            return CL_EXIT_GPU_BUSY;
        }
        gl_close(&inherited);
        atexit(release_gpu);
        /* Before CUDA starts: a context made beside another replay's timing and counting
         * doubles how long those hold the GPU alone (tests/gpu/RESULTS.md, eleventh session). */
        use_gpu(GL_SHARED);
    }
    if (a.go_fd) {
        pending.go_fd = descriptor(a.go_fd);
        if (pending.go_fd < 0)
            return usage("--go is not a descriptor");
        pending.keep = a.mode == WI_RUN;
    }
    int derr = query_device(&job, &res, pending.go_fd < 0);
    job.dev = res.device.info;
    if (a.mode == WI_PROBE)
        return 0;
    if (derr != cudaSuccess) {
        fprintf(stderr, "no usable CUDA GPU: %s\n", res.device.error_text);
        return CL_EXIT_CUDA;
    }
    CL_CUDA_CHECK(cudaSetDevice(0)); /* which makes this process's context */
    gl_phase("cuda-start");
    if (a.mode == WI_COUNTERS && !a.lab && a.serve_fd) {
        int sock = descriptor(a.serve_fd);
        return sock < 0 ? usage("--serve is not a descriptor") : serve(&job, &res.device, sock);
    }
    if (a.mode == WI_COUNTERS && !a.lab)
        return counters_self_test(&job, &res);

    const wk_lab *lab = lab_numbered(a.lab);
    if (!lab)
        return usage(a.lab ? "unknown lab" : "no --lab");
    if (lab->builtin)
        return modes[a.mode].fn(&job, lab, &res);
    if (modes[a.mode].needs_kernel && !a.kernel)
        return usage("no --kernel");
    if (modes[a.mode].needs_replay && (!a.image || !a.record))
        return usage("a replay needs --image and --record");
    if (lab->shapes)
        job.shape = lab->shapes->graded;
    if (modes[a.mode].needs_replay) {
        pending.record = a.record;
        pending.image = a.image;
        if (pending.go_fd < 0)
            replay_files(&job); /* an unusable record ends the child before anything else */
    }
    if (modes[a.mode].needs_kernel && pending.go_fd >= 0)
        await_go(); /* a recording started early: its context made (cudaSetDevice) while the
                     * kernel is still compiled, the student's code loaded once it is, at its go */
    /* Only the recording loads the student's host code. */
    job.kernel_so = modes[a.mode].needs_kernel ? dlopen(a.kernel, RTLD_NOW | RTLD_LOCAL) : NULL;
    if (modes[a.mode].needs_kernel && !job.kernel_so) {
        fprintf(stderr, "cannot load the compiled kernel: %s\n", dlerror());
        return CL_EXIT_CONTRACT;
    }
    int rc = modes[a.mode].fn(&job, lab, &res);
    if (job.kernel_so) {
        /* The student's destructors and atexit handlers never run after its records are
         * written (what they could still do to them, the grader checks anyway). */
        fflush(NULL);
        _exit(rc);
    }
    return rc;
}
