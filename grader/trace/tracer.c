/*
 * tracer.c - the trace engine's host side: a Compute Sanitizer injection library. The grader
 * starts a grading child with CUDA_INJECTION64_PATH naming this library; the CUDA driver loads
 * it and calls InitializeInjection(). From then on:
 *
 *   module loaded  -> keep a copy of its cubin (for pc -> line), load the patch, patch every
 *                     global memory instruction with cl_on_global (patch.cu)
 *   launch begins  -> hand the kernel a fresh record buffer; note its base pc
 *   launch ends    -> wait for it, copy its records back
 *   process ends   -> analyse every launch's records and write them (atexit)
 *
 * Settings come from the environment (names in wire.h): CL_TRACE_PATCHES (the patch fatbin),
 * CL_TRACE_OUT (the record to write, a wi_trace), CL_TRACE_SAMPLE (trace one warp in N beside
 * the warps always traced, tr_edge), CL_TRACE_MAX_RECORDS (per launch), CL_TRACE_KEY (which
 * warps are sampled: the grader draws it from the seed and the submitted file, so that one file
 * and one seed give one trace).
 * No permission is needed; it runs as any user.
 */
#define _POSIX_C_SOURCE 200809L
#include <cjson/cJSON.h>
#include <sanitizer.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpulock.h"
#include "lines.h"
#include "seeded.h"
#include "trace_analysis.h"
#include "tracer_shared.h"
#include "wire.h"

#define MAX_MODULES 64
#define DEFAULT_SAMPLE 16 /* one warp in 16, unless the grader asks for fewer */
#define MAX_FUNCTIONS 64

typedef struct module_copy {
    CUmodule module;
    void *cubin;
    size_t size;
} module_copy;

typedef struct function_trace {
    char name[TA_MAX_NAME];
    CUmodule module;
    uint64_t base;
    ta_record *records;
    double *weights; /* how many requests each record stands for (1: a tr_edge warp's) */
    size_t n, cap;
    uint64_t dropped;
    unsigned launches;
    uint32_t sample; /* one warp in sample was traced beside the edges (the last launch's) */
    /* The current launch: its shape, and what a sampled warp's record stands for (the warps
     * beside the edges over those its key picked among them). */
    uint32_t warps_per_block, blocks;
    double weight;
    uint64_t oob_reads; /* load lanes that read a watched buffer's guard bytes */
    uint64_t oob_pc;    /* the first of them, from the start of the function */
} function_trace;

/* A lab buffer, as the grading child reported it (cl_tracer_watch): its allocation and the
 * part of it the lab uses; the rest are its guard bytes. */
typedef struct watched {
    uint64_t lo, hi, in_lo, in_hi;
} watched;
#define MAX_WATCHED 32

static struct {
    const char *patches, *out;
    uint32_t sample, max_records;
    uint64_t key;      /* CL_TRACE_KEY, or drawn at random where it is not given */
    uint64_t launched; /* launches so far: each one's key is drawn from key and this */
    module_copy modules[MAX_MODULES];
    int nmodules;
    function_trace functions[MAX_FUNCTIONS];
    int nfunctions;
    function_trace *current; /* the launch in flight */
    CUcontext patched_context;
    tr_tracker *d_tracker;
    ta_record *d_records;
    watched watched[MAX_WATCHED];
    int nwatched;
    int watching; /* the lab's buffers are set up: launches from now on are the traced work */
    char error[512];
} tr;

/* Called by the grading child (through dlsym) once the lab's buffers exist, inputs and all:
 * the kernels that made the inputs (grader/worker/fill.cu) ran before, untraced. */
__attribute__((visibility("default"))) void cl_tracer_watch(const uint64_t *ranges, int n)
{
    tr.watching = 1;
    tr.nwatched = 0;
    for (int i = 0; i < n && i < MAX_WATCHED; ++i, ranges += 4)
        tr.watched[tr.nwatched++] = (watched){ranges[0], ranges[1], ranges[2], ranges[3]};
}

/* Whether a load of size bytes at a reads the guard bytes of a watched buffer. */
static int reads_guard(uint64_t a, uint32_t size)
{
    for (int i = 0; i < tr.nwatched; ++i) {
        const watched *w = &tr.watched[i];
        if (a + size > w->lo && a < w->hi)
            return a < w->in_lo || a + size > w->in_hi;
    }
    return 0;
}

/* Whether every active lane of r reads inside the used part of one watched buffer: most
 * records, and one pass over the lanes, where reads_guard's lane by lane looks through every
 * buffer. */
static int inside_one_buffer(const ta_record *r)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int l = 0; l < 32; ++l)
        if ((r->active >> l) & 1) {
            lo = r->addr[l] < lo ? r->addr[l] : lo;
            hi = r->addr[l] > hi ? r->addr[l] : hi;
        }
    hi += r->size;
    for (int i = 0; i < tr.nwatched; ++i)
        if (lo >= tr.watched[i].in_lo && hi <= tr.watched[i].in_hi)
            return 1;
    return 0;
}

/* Counts the load lanes of f's records that read guard bytes: after the launches, with the GPU
 * given up (host work; lab 01's stub traces about 900000 records). */
static void find_oob_reads(function_trace *f)
{
    for (size_t i = 0; tr.nwatched && i < f->n; ++i) {
        const ta_record *r = &f->records[i];
        if (r->is_store || !r->active || inside_one_buffer(r))
            continue;
        for (int l = 0; l < 32; ++l)
            if ((r->active >> l) & 1 && reads_guard(r->addr[l], r->size)) {
                if (!f->oob_reads)
                    f->oob_pc = r->pc;
                f->oob_reads++;
            }
    }
}

static void fail(const char *fmt, ...)
{
    if (tr.error[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tr.error, sizeof tr.error, fmt, ap);
    va_end(ap);
}

static const char *san_name(SanitizerResult r)
{
    const char *s = NULL;
    sanitizerGetResultString(r, &s);
    return s ? s : "unknown error";
}

#define SAN(call)                                                                                  \
    do {                                                                                           \
        SanitizerResult r_ = (call);                                                               \
        if (r_ != SANITIZER_SUCCESS)                                                               \
            fail("%s failed: %s", #call, san_name(r_));                                            \
    } while (0)

static const module_copy *module_of(CUmodule m)
{
    for (int i = 0; i < tr.nmodules; ++i)
        if (tr.modules[i].module == m)
            return &tr.modules[i];
    return NULL;
}

/* Writes the record (CL_TRACE_OUT) with everything traced, once, as the process ends (a child
 * killed leaves none; the grader uses the trace only from one that ended cleanly, and takes the
 * error of one that did not). Written after every launch, each launch analysed again what all
 * the launches before had traced: lab 06's eight steps of one kernel did so 36 times over. */
static void write_out(void)
{
    if (!tr.out)
        return;
    gl_phase("trace-run"); /* the rest of the child's work, after the last launch */
    wi_trace t = {.sample = tr.sample, .max_records = tr.max_records};
    static wi_trace_kernel kernels[MAX_FUNCTIONS]; /* 64 names of 4 KiB: not on the stack */
    memset(kernels, 0, sizeof kernels);
    t.kernels = kernels;
    for (int i = 0; i < tr.nfunctions; ++i) {
        function_trace *f = &tr.functions[i];
        wi_trace_kernel *tk = &kernels[t.nkernels];
        find_oob_reads(f);
        if (ta_analyze_weighted(f->name, f->records, f->weights, f->n, &tk->k) != 0) {
            fail("out of memory analysing '%s'", f->name);
            continue;
        }
        const module_copy *m = module_of(f->module);
        for (size_t j = 0; m && m->cubin && j < tk->k.nins; ++j) {
            ta_instruction *in = &tk->k.ins[j];
            tl_line_of(m->cubin, m->size, f->name, in->pc, in->file, sizeof in->file, &in->line);
        }
        tk->launches = f->launches;
        tk->sample = f->sample;
        tk->scale = 1.0; /* the tallies are weighted already: they stand for the whole run */
        tk->dropped = f->dropped;
        tk->oob_reads = f->oob_reads;
        if (m && m->cubin && f->oob_reads)
            tl_line_of(m->cubin, m->size, f->name, f->oob_pc, tk->oob_file, sizeof tk->oob_file,
                       &tk->oob_line);
        t.nkernels++;
    }
    gl_phase("trace-analyse");
    snprintf(t.error, sizeof t.error, "%s", tr.error);
    cJSON *json = wi_trace_to_json(&t);
    wi_write_file(tr.out, json);
    cJSON_Delete(json);
    for (size_t i = 0; i < t.nkernels; ++i)
        ta_kernel_free(&kernels[i].k);
    gl_phase("trace-write");
}

static void module_loaded(const Sanitizer_ResourceModuleData *m)
{
    /* Device code loaded before the lab's buffers were handed over is the grading child's own
     * (the inputs' kernels, fill.cu), whose launches are never traced: it is not patched (its
     * every global access instrumented, for nothing) and launch_begin leaves it alone. */
    if (!tr.watching)
        return;
    if (tr.nmodules == MAX_MODULES) {
        fail("more than %d modules were loaded; the rest were not traced", MAX_MODULES);
        return;
    }
    module_copy *c = &tr.modules[tr.nmodules++];
    c->module = m->module;
    c->cubin = malloc(m->cubinSize); /* for pc -> line; without it, no lines */
    c->size = c->cubin ? m->cubinSize : 0;
    if (c->cubin)
        memcpy(c->cubin, m->pCubin, m->cubinSize);
    if (tr.patched_context != m->context) {
        SAN(sanitizerAddPatchesFromFile(tr.patches, m->context));
        tr.patched_context = m->context;
    }
    SAN(sanitizerPatchInstructions(SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, m->module,
                                   "cl_on_global"));
    SAN(sanitizerPatchModule(m->module));
    gl_phase("trace-patch");
}

static function_trace *function_named(const char *name, CUmodule module)
{
    for (int i = 0; i < tr.nfunctions; ++i)
        if (tr.functions[i].module == module && !strcmp(tr.functions[i].name, name))
            return &tr.functions[i];
    if (tr.nfunctions == MAX_FUNCTIONS) {
        fail("more than %d different kernels were launched; the rest were not traced",
             MAX_FUNCTIONS);
        return NULL;
    }
    function_trace *f = &tr.functions[tr.nfunctions++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->module = module;
    return f;
}

/* A 64-bit mix: splitmix64's step (seeded.h). */
static uint64_t mix64(uint64_t x)
{
    return sd_mix64(x + SD_GAMMA);
}

/* Which warps the next launch samples: drawn from the run's key (the grader's, from the seed
 * and the submitted file) and the launch's place in the run, so that the same file and seed
 * trace the same warps, and a kernel that cannot know the key cannot know them. */
static uint32_t launch_key(void)
{
    return (uint32_t)(mix64(tr.key ^ mix64(++tr.launched)) >> 32);
}

static uint64_t random_u64(void)
{
    uint64_t key = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(&key, sizeof key, 1, f) != 1)
        key = (uint64_t)(uintptr_t)&key ^ (uint64_t)clock();
    if (f)
        fclose(f);
    return key;
}

static void launch_begin(const Sanitizer_LaunchData *l)
{
    tr.current = NULL;
    if (!tr.watching || !module_of(l->module))
        return; /* the grader's own set-up; its kernels' callback data stay NULL: no records */
    if (!tr.d_tracker) {
        SAN(sanitizerAlloc(l->context, (void **)&tr.d_tracker, sizeof(tr_tracker)));
        SAN(sanitizerAlloc(l->context, (void **)&tr.d_records,
                           (size_t)tr.max_records * sizeof(ta_record)));
        if (!tr.d_tracker || !tr.d_records)
            return;
    }
    function_trace *f = function_named(l->functionName ? l->functionName : "?", l->module);
    if (!f)
        return;
    uint64_t size = 0;
    SAN(sanitizerGetFunctionPcAndSize(l->module, f->name, &f->base, &size));
    /* Small grids are traced whole, so that no instruction goes unseen (unless the grader asked
     * for fewer warps, after a launch filled its buffer). */
    uint32_t wpb = (uint32_t)(((uint64_t)l->blockDim_x * l->blockDim_y * l->blockDim_z + 31) / 32);
    uint32_t blocks = l->gridDim_x * l->gridDim_y * l->gridDim_z;
    uint64_t warps = (uint64_t)blocks * wpb;
    uint32_t sample = warps < 4096 && tr.sample <= DEFAULT_SAMPLE ? 1 : tr.sample;
    tr_tracker h = {0, tr.max_records, sample, launch_key(), tr.d_records};
    /* Beside the edges, always traced, the hash picks about one warp in sample of the others,
     * rarely exactly: count them, so that each sampled record stands for exactly the warps it
     * was drawn among, not for the nominal rate. Kernels whose requests differ, mixed in one
     * total, otherwise move with the count: lab 03's reference solution (6008-warp sums of
     * 4-sector requests beside 192000 warps of 16-sector ones) then lands about 1% from the
     * counters, one standard deviation, against the engines' 2% bar, and once failed it on the
     * H200. */
    f->warps_per_block = wpb;
    f->blocks = blocks;
    f->weight = sample; /* beyond 16 M warps, the nominal rate will do */
    if (sample > 1 && warps <= (1u << 24)) {
        uint64_t picked = 0, others = 0;
        for (uint64_t w = 0; w < warps; ++w) {
            if (tr_edge((uint32_t)w, wpb, blocks))
                continue;
            others++;
            picked += tr_sampled((uint32_t)w, h.key, sample);
        }
        f->weight = picked ? (double)others / (double)picked : 1.0;
    }
    SAN(sanitizerMemcpyHostToDeviceAsync(tr.d_tracker, &h, sizeof h, l->hStream));
    SAN(sanitizerSetCallbackData(l->function, tr.d_tracker));
    f->sample = h.sample;
    tr.current = f;
    gl_phase("trace-begin"); /* since the step before: the child's own work, this set-up */
}

static void launch_end(const Sanitizer_LaunchData *l)
{
    function_trace *f = tr.current;
    tr.current = NULL;
    if (!f)
        return;
    SAN(sanitizerStreamSynchronize(l->hStream));
    gl_phase("trace-kernel"); /* the patched kernel's run */
    tr_tracker h;
    memset(&h, 0, sizeof h);
    SAN(sanitizerMemcpyDeviceToHost(&h, tr.d_tracker, sizeof h, l->hStream));
    uint32_t n = h.next < h.max ? h.next : h.max;
    f->dropped += h.next - n;
    f->launches++;
    if (f->n + n > f->cap) {
        size_t cap = f->cap ? f->cap : 1024;
        while (cap < f->n + n)
            cap *= 2;
        ta_record *p = realloc(f->records, cap * sizeof *p);
        double *w = p ? realloc(f->weights, cap * sizeof *w) : NULL;
        if (p)
            f->records = p;
        if (!w) {
            fail("out of host memory for %zu trace records", cap);
            return;
        }
        f->weights = w;
        f->cap = cap;
    }
    if (n)
        SAN(sanitizerMemcpyDeviceToHost(f->records + f->n, tr.d_records,
                                        (size_t)n * sizeof(ta_record), l->hStream));
    gl_phase("trace-copy"); /* its records copied back */
    for (uint32_t i = 0; i < n; ++i) {
        ta_record *r = &f->records[f->n + i];
        r->pc -= f->base;
        int sure = h.sample <= 1 || tr_edge(r->warp, f->warps_per_block, f->blocks);
        f->weights[f->n + i] = sure ? 1.0 : f->weight;
    }
    f->n += n;
    gl_phase("trace-weigh"); /* and weighed */
}

static void SANITIZERAPI on_event(void *userdata, Sanitizer_CallbackDomain domain,
                                  Sanitizer_CallbackId id, const void *data)
{
    (void)userdata;
    if (domain == SANITIZER_CB_DOMAIN_RESOURCE && id == SANITIZER_CBID_RESOURCE_MODULE_LOADED)
        module_loaded(data);
    else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && id == SANITIZER_CBID_LAUNCH_BEGIN)
        launch_begin(data);
    else if (domain == SANITIZER_CB_DOMAIN_LAUNCH && id == SANITIZER_CBID_LAUNCH_END)
        launch_end(data);
}

static uint32_t env_u32(const char *name, uint32_t fallback)
{
    const char *v = getenv(name);
    long x = v ? strtol(v, NULL, 10) : 0;
    return x > 0 ? (uint32_t)x : fallback;
}

int InitializeInjection(void)
{
    static int done;
    if (done)
        return 1;
    done = 1;
    gl_tag("tracer"); /* the library's own copy of gpulock.c: its steps in the timeline */
    gl_phase("start");
    tr.patches = getenv(WI_ENV_TRACE_PATCHES);
    tr.out = getenv(WI_ENV_TRACE_OUT);
    tr.sample = env_u32(WI_ENV_TRACE_SAMPLE, DEFAULT_SAMPLE);
    while (tr.sample & (tr.sample - 1)) /* a power of two (tr_sampled): the one below */
        tr.sample &= tr.sample - 1;
    tr.max_records = env_u32(WI_ENV_TRACE_MAX_RECORDS, 1u << 18);
    const char *key = getenv(WI_ENV_TRACE_KEY);
    tr.key = key && *key ? strtoull(key, NULL, 16) : random_u64();
    if (!tr.patches)
        fail("%s is not set", WI_ENV_TRACE_PATCHES);
    Sanitizer_SubscriberHandle handle;
    SAN(sanitizerSubscribe(&handle, on_event, NULL));
    SAN(sanitizerEnableDomain(1, handle, SANITIZER_CB_DOMAIN_RESOURCE));
    SAN(sanitizerEnableDomain(1, handle, SANITIZER_CB_DOMAIN_LAUNCH));
    atexit(write_out);
    return 1;
}
