/*
 * counters.c - see counters.h. The call order follows CUPTI's range-profiler sample: profiler
 * initialise -> device supported? -> chip name and counter availability -> host object with
 * the metrics -> config image -> enable on the context -> counter-data image -> set config
 * (auto range, kernel replay) -> start, one call of the work, stop -> decode -> evaluate.
 */
#define _POSIX_C_SOURCE 200809L
#include "counters.h"
#include "gpulock.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The CUPTI metric behind each counter of the wire's wi_counter, in its order. */
static const char *const ct_metric_names[WI_NCOUNTERS] = {
    "smsp__sass_inst_executed_op_global_ld.sum",
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "smsp__sass_data_bytes_mem_global_op_ld.sum",
    "smsp__sass_inst_executed_op_global_st.sum",
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_data_bytes_mem_global_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "dram__bytes_read.sum",
    "dram__bytes_write.sum",
};

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void set_why(wi_counters *res, wi_engine_status status, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    res->status = status;
    res->cupti_code = code;
    vsnprintf(res->why, sizeof res->why, fmt, ap);
    va_end(ap);
}

#ifndef CL_HAVE_CUPTI_RANGE_PROFILER

struct ct_session {
    int unused;
};

ct_session *ct_open(int level, wi_counters *res)
{
    (void)level;
    memset(res, 0, sizeof *res);
    set_why(res, WI_ENGINE_UNSUPPORTED, 0,
            "this grader was built with a CUDA toolkit whose CUPTI has no Range Profiler API "
            "(it needs CUDA 12.6 Update 2 or newer)");
    return NULL;
}

void ct_count(ct_session *s, tm_work work, void *ctx, wi_counters *res)
{
    (void)s;
    (void)work;
    (void)ctx;
    (void)res;
}

void ct_keep(ct_session *s)
{
    (void)s;
}

void ct_values(ct_session *s, wi_counters *res)
{
    (void)s;
    (void)res;
}

void ct_close(ct_session *s, wi_counters *res)
{
    (void)s;
    (void)res;
}

#else

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

struct ct_session {
    CUpti_Profiler_Host_Object *host;
    CUpti_RangeProfiler_Object *rp;
    uint8_t *avail, *config, *data;
    size_t avail_size, config_size, data_size;
    int initialized;
    size_t nmetrics; /* the global counters, then the shared-memory and the DRAM ones on request */
    CUcontext ctx;
    int ready;      /* the host's share was set up: ct_count may profile */
    int deferred;   /* ... but for the config image, which needs the counters' availability */
    int counted;    /* ct_count profiled: ct_close may evaluate */
    int keep;       /* ct_keep: the profiler stays enabled from one count to the next */
    size_t nranges; /* the kernels ct_count profiled, for ct_close to evaluate */
};
typedef struct ct_session session;

static const char *cupti_name(CUptiResult r)
{
    const char *s = NULL;
    cuptiGetResultString(r, &s);
    return s ? s : "unknown CUPTI error";
}

/* Records a failed CUPTI call; insufficient privileges is a state of the machine, not an error. */
static int failed(wi_counters *res, CUptiResult r, const char *call)
{
    if (r == CUPTI_SUCCESS)
        return 0;
    if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
        r == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES)
        set_why(res, WI_ENGINE_NO_PERMISSION, (int)r,
                "the driver lets only administrators read GPU performance counters (%s: %s)", call,
                cupti_name(r));
    else if (r == CUPTI_ERROR_NOT_SUPPORTED)
        set_why(res, WI_ENGINE_UNSUPPORTED, (int)r, "%s: %s", call, cupti_name(r));
    else
        set_why(res, WI_ENGINE_FAILED, (int)r, "%s failed: %s", call, cupti_name(r));
    return 1;
}

#define TRY(call)                                                                                  \
    do {                                                                                           \
        if (failed(res, (call), #call))                                                            \
            goto out;                                                                              \
    } while (0)

static int check_device(wi_counters *res, CUdevice dev)
{
    CUpti_Profiler_DeviceSupported_Params ds = {
        .structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
    ds.cuDevice = dev;
    ds.api = CUPTI_PROFILER_RANGE_PROFILING;
    if (failed(res, cuptiProfilerDeviceSupported(&ds), "cuptiProfilerDeviceSupported"))
        return -1;
    if (ds.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return 0;
    const char *what = ds.architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED
                           ? "this GPU architecture"
                       : ds.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "a virtual GPU (vGPU)"
                       : ds.wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED  ? "WSL"
                       : ds.confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED
                           ? "confidential computing mode"
                       : ds.cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "a CMP mining GPU"
                       : ds.sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED ? "SLI"
                                                                          : "this configuration";
    set_why(res, WI_ENGINE_UNSUPPORTED, CUPTI_ERROR_NOT_SUPPORTED, "CUPTI cannot profile on %s",
            what);
    return -1;
}

/* The profiler, and whether it can profile this device; its chip's name. No GPU work. */
static int open_profiler(session *s, wi_counters *res, CUdevice dev, int device)
{
    int rc = -1;
    CUpti_Profiler_Initialize_Params ip = {.structSize =
                                               CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    TRY(cuptiProfilerInitialize(&ip));
    s->initialized = 1;
    if (check_device(res, dev))
        goto out;

    CUpti_Device_GetChipName_Params cn = {.structSize =
                                              CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cn.deviceIndex = (size_t)device;
    TRY(cuptiDeviceGetChipName(&cn));
    snprintf(res->chip, sizeof res->chip, "%s", cn.pChipName);
    rc = 0;
out:
    return rc;
}

static void free_host(session *s)
{
    if (s->host) {
        CUpti_Profiler_Host_Deinitialize_Params d = {
            .structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
        d.pHostObject = s->host;
        cuptiProfilerHostDeinitialize(&d);
        s->host = NULL;
    }
    free(s->config);
    s->config = NULL;
}

/* The host's share: the metrics' config image for this chip, from its name alone (host work;
 * CUPTI accepts that for the chips it knew when it was released), or (available) also from
 * the counters' availability on this context, which CUPTI reads from the GPU: that query fails
 * with CUPTI_ERROR_HARDWARE_BUSY while another process profiles, so it is made only where the
 * GPU is held exclusively (ct_count). */
static int open_config(session *s, wi_counters *res, int available)
{
    int rc = -1;
    CUcontext cu_ctx = s->ctx;
    if (available) {
        CUpti_Profiler_GetCounterAvailability_Params ca = {
            .structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
        ca.ctx = cu_ctx;
        TRY(cuptiProfilerGetCounterAvailability(&ca));
        s->avail_size = ca.counterAvailabilityImageSize;
        free(s->avail);
        s->avail = calloc(1, s->avail_size);
        ca.pCounterAvailabilityImage = s->avail;
        TRY(cuptiProfilerGetCounterAvailability(&ca));
    }

    CUpti_Profiler_Host_Initialize_Params hi = {
        .structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = res->chip;
    hi.pCounterAvailabilityImage = available ? s->avail : NULL;
    TRY(cuptiProfilerHostInitialize(&hi));
    s->host = hi.pHostObject;

    CUpti_Profiler_Host_ConfigAddMetrics_Params am = {
        .structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    am.pHostObject = s->host;
    am.ppMetricNames = (const char **)ct_metric_names;
    am.numMetrics = s->nmetrics;
    TRY(cuptiProfilerHostConfigAddMetrics(&am));

    CUpti_Profiler_Host_GetConfigImageSize_Params cs = {
        .structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    cs.pHostObject = s->host;
    TRY(cuptiProfilerHostGetConfigImageSize(&cs));
    s->config_size = cs.configImageSize;
    s->config = calloc(1, s->config_size);
    CUpti_Profiler_Host_GetConfigImage_Params gi = {
        .structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    gi.pHostObject = s->host;
    gi.configImageSize = s->config_size;
    gi.pConfigImage = s->config;
    TRY(cuptiProfilerHostGetConfigImage(&gi));

    CUpti_Profiler_Host_GetNumOfPasses_Params np = {
        .structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    np.configImageSize = s->config_size;
    np.pConfigImage = s->config;
    TRY(cuptiProfilerHostGetNumOfPasses(&np));
    res->passes = (int)np.numOfPasses;

    rc = 0;
out:
    return rc;
}

/* A fresh counter-data image for the next count, and the profiler's configuration with it (on
 * a profiler that stays enabled, ct_keep: what a count after the first sets up). */
static int set_image(session *s, wi_counters *res)
{
    int rc = -1;
    free(s->data);
    s->data = NULL;
    CUpti_RangeProfiler_GetCounterDataSize_Params sz = {
        .structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    sz.pRangeProfilerObject = s->rp;
    sz.pMetricNames = (const char **)ct_metric_names;
    sz.numMetrics = s->nmetrics;
    sz.maxNumOfRanges = WI_MAX_KERNELS;
    sz.maxNumRangeTreeNodes = WI_MAX_KERNELS;
    TRY(cuptiRangeProfilerGetCounterDataSize(&sz));
    s->data_size = sz.counterDataSize;
    s->data = calloc(1, s->data_size);

    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
        .structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    ci.pRangeProfilerObject = s->rp;
    ci.pCounterData = s->data;
    ci.counterDataSize = s->data_size;
    TRY(cuptiRangeProfilerCounterDataImageInitialize(&ci));

    CUpti_RangeProfiler_SetConfig_Params sc = {
        .structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    sc.pRangeProfilerObject = s->rp;
    sc.configSize = s->config_size;
    sc.pConfig = s->config;
    sc.counterDataImageSize = s->data_size;
    sc.pCounterDataImage = s->data;
    sc.range = CUPTI_AutoRange;
    sc.replayMode = CUPTI_KernelReplay;
    sc.maxRangesPerPass = WI_MAX_KERNELS;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.passIndex = 0;
    sc.targetNestingLevel = 1;
    TRY(cuptiRangeProfilerSetConfig(&sc));
    rc = 0;
out:
    return rc;
}

/* The target's share: the profiler enabled on the context, with its counter-data image. */
static int open_target(session *s, wi_counters *res)
{
    int rc = -1;
    CUcontext cu_ctx = s->ctx;
    CUpti_RangeProfiler_Enable_Params en = {.structSize =
                                                CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = cu_ctx;
    TRY(cuptiRangeProfilerEnable(&en)); /* where a missing permission usually shows */
    s->rp = en.pRangeProfilerObject;
    rc = set_image(s, res);
out:
    return rc;
}

/* Disables the profiler on the context (where the target's share was set up). */
static void disable(session *s)
{
    if (!s->rp)
        return;
    CUpti_RangeProfiler_Disable_Params d = {.structSize =
                                                CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    d.pRangeProfilerObject = s->rp;
    cuptiRangeProfilerDisable(&d);
    s->rp = NULL;
}

static void close_session(session *s)
{
    disable(s);
    free_host(s);
    if (s->initialized) {
        CUpti_Profiler_DeInitialize_Params d = {.structSize =
                                                    CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
        cuptiProfilerDeInitialize(&d);
    }
    free(s->avail);
    free(s->data);
    free(s);
}

/* Runs the work once inside the profiler and decodes what it counted into the counter-data
 * image (the GPU's share; the values are worked out from the image by evaluate). */
static int measure(session *s, wi_counters *res, tm_work work, void *ctx)
{
    int rc = -1;
    CUpti_RangeProfiler_Start_Params st = {.structSize =
                                               CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    st.pRangeProfilerObject = s->rp;
    TRY(cuptiRangeProfilerStart(&st));
    gl_phase("profile-start");
    cudaError_t err = work(ctx);
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    gl_phase("profile-replay"); /* the work, replayed pass after pass */
    CUpti_RangeProfiler_Stop_Params sp = {.structSize =
                                              CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    sp.pRangeProfilerObject = s->rp;
    CUptiResult stop = cuptiRangeProfilerStop(&sp);
    gl_phase("profile-stop");
    if (err != cudaSuccess) {
        set_why(res, WI_ENGINE_FAILED, 0, "the lab's work failed under the profiler: %s (%s)",
                cudaGetErrorName(err), cudaGetErrorString(err));
        goto out;
    }
    TRY(stop);

    CUpti_RangeProfiler_DecodeData_Params dd = {
        .structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
    dd.pRangeProfilerObject = s->rp;
    TRY(cuptiRangeProfilerDecodeData(&dd));
    gl_phase("profile-decode");

    CUpti_RangeProfiler_GetCounterDataInfo_Params info = {
        .structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
    info.pCounterDataImage = s->data;
    info.counterDataImageSize = s->data_size;
    TRY(cuptiRangeProfilerGetCounterDataInfo(&info));
    if (dd.numOfRangeDropped > 0) {
        set_why(res, WI_ENGINE_FAILED, 0,
                "the work launched more than %d kernels; %zu were not profiled", WI_MAX_KERNELS,
                (size_t)dd.numOfRangeDropped);
        goto out;
    }
    s->nranges = info.numTotalRanges < WI_MAX_KERNELS ? info.numTotalRanges : WI_MAX_KERNELS;
    rc = 0;
out:
    return rc;
}

/* Every profiled kernel's name and values, from the counter-data image: host work only. */
static int evaluate(session *s, wi_counters *res)
{
    int rc = -1;
    for (size_t r = 0; r < s->nranges; ++r) {
        wi_counter_kernel *k = &res->kernels[r];
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params ri = {
            .structSize = CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
        ri.pCounterDataImage = s->data;
        ri.counterDataImageSize = s->data_size;
        ri.rangeIndex = r;
        ri.rangeDelimiter = "/";
        if (cuptiRangeProfilerCounterDataGetRangeInfo(&ri) == CUPTI_SUCCESS && ri.rangeName)
            snprintf(k->name, sizeof k->name, "%s", ri.rangeName);
        else
            snprintf(k->name, sizeof k->name, "kernel %zu", r);

        CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
            .structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
        ev.pHostObject = s->host;
        ev.pCounterDataImage = s->data;
        ev.counterDataImageSize = s->data_size;
        ev.rangeIndex = r;
        ev.ppMetricNames = (const char **)ct_metric_names;
        ev.numMetrics = s->nmetrics;
        ev.pMetricValues = k->v;
        TRY(cuptiProfilerHostEvaluateToGpuValues(&ev));
    }
    res->nkernels = (int)s->nranges;
    rc = 0;
out:
    return rc;
}

ct_session *ct_open(int level, wi_counters *res)
{
    memset(res, 0, sizeof *res);
    double t0 = now_ms();
    session *s = calloc(1, sizeof *s);
    if (!s) {
        set_why(res, WI_ENGINE_FAILED, 0, "out of host memory");
        return NULL;
    }
    s->nmetrics = level >= CT_DRAM     ? WI_NCOUNTERS
                  : level >= CT_SHARED ? WI_NSHARED_COUNTERS
                                       : WI_NGLOBAL_COUNTERS;
    int device = 0;
    CUdevice dev = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cudaFree(0); /* makes the primary context current */
    if (err != cudaSuccess) {
        set_why(res, WI_ENGINE_FAILED, 0, "no CUDA context: %s", cudaGetErrorName(err));
        return s;
    }
    /* The driver API through the runtime's entry points, so the worker does not link
     * libcuda and still starts (to say "no GPU") on a machine without a driver. */
    CUresult (*ctx_get_current)(CUcontext *) = NULL;
    CUresult (*device_get)(CUdevice *, int) = NULL;
    enum cudaDriverEntryPointQueryResult q1, q2;
    if (cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", (void **)&ctx_get_current, 12000,
                                         cudaEnableDefault, &q1) != cudaSuccess ||
        cudaGetDriverEntryPointByVersion("cuDeviceGet", (void **)&device_get, 12000,
                                         cudaEnableDefault, &q2) != cudaSuccess ||
        !ctx_get_current || !device_get || ctx_get_current(&s->ctx) != CUDA_SUCCESS ||
        device_get(&dev, device) != CUDA_SUCCESS) {
        set_why(res, WI_ENGINE_FAILED, 0, "cannot get the current CUDA context");
        return s;
    }
    if (open_profiler(s, res, dev, device) != 0) {
        res->setup_ms = now_ms() - t0;
        return s;
    }
    s->ready = 1;
    if (open_config(s, res, 0) != 0) {
        /* A chip CUPTI needs the availability for: asked for under the hold (ct_count). */
        free_host(s);
        char chip[sizeof res->chip];
        snprintf(chip, sizeof chip, "%s", res->chip);
        memset(res, 0, sizeof *res);
        snprintf(res->chip, sizeof res->chip, "%s", chip);
        s->deferred = 1;
    }
    res->setup_ms = now_ms() - t0;
    return s;
}

void ct_count(ct_session *s, tm_work work, void *ctx, wi_counters *res)
{
    if (!s || !s->ready)
        return;
    double t0 = now_ms();
    int ok = !s->deferred || open_config(s, res, 1) == 0;
    if (s->deferred)
        gl_phase("profile-config"); /* the timeline shows that it was made here, in the hold */
    if (ok)
        s->deferred = 0;
    ok = ok && (s->rp ? set_image(s, res) : open_target(s, res)) == 0;
    gl_phase("profile-target"); /* the profiler enabled on the context, its image set up */
    double t1 = now_ms();
    res->setup_ms += t1 - t0;
    s->counted = ok && measure(s, res, work, ctx) == 0;
    if (!s->keep || !s->counted)
        disable(s);
    res->measure_ms = now_ms() - t1;
}

void ct_keep(ct_session *s)
{
    if (s)
        s->keep = 1;
}

void ct_values(ct_session *s, wi_counters *res)
{
    if (!s)
        return;
    double t0 = now_ms();
    if (s->counted && evaluate(s, res) == 0)
        res->status = WI_ENGINE_OK;
    s->counted = 0;
    res->measure_ms += now_ms() - t0;
}

void ct_close(ct_session *s, wi_counters *res)
{
    if (!s)
        return;
    ct_values(s, res);
    close_session(s);
}

#endif

void ct_profile(tm_work work, void *ctx, int level, wi_counters *res)
{
    ct_session *s = ct_open(level, res);
    ct_count(s, work, ctx, res);
    ct_close(s, res);
}
