// count_cost.cu - where the quarter-second of one CUPTI count goes (issue 12): a copy kernel,
// loaded from a fatbin as the grader's replays load a student's, counted with the counters
// engine's SASS metrics (CUPTI's range profiler, auto range, kernel replay), each step timed in
// milliseconds, three rounds in one process (the module loaded afresh each round, as
// count_after does). Variants: load the module before enabling the profiler (what the worker
// does), after it, or also launch the kernel once outside the range before the counted launch.
// EXTRA_MIB of device memory is allocated beside (what kernel replay might save and restore).
// Run by tests/gpu/count_cost.sh. A measurement, not a test.
//     count_cost FATBIN VARIANT EXTRA_MIB        (VARIANT: before, after, warm)
//     count_cost FATBIN sass [list]              (CUPTI's SASS metrics API instead; with
//                                                 COUNT_COST_BOTH=1 the module's second kernel
//                                                 is launched after the first, and
//                                                 COUNT_COST_LAZY=0 patches at enable)
//     count_cost FATBIN server SESSIONS [IDLE_S] (one enable, several sessions: server())
//     count_cost busy SECONDS                    (keeps a context's GPU work queued)
// Knobs of the range profiler's variants, from the environment: COUNT_COST_REPLAY=kernel (the
// worker's), user or application; COUNT_COST_METRICS=sass (the worker's six), one (the first of
// them) or hw (two hardware counters, no SASS patching); COUNT_COST_STARTS=N sessions (start,
// launch, stop, decode) a round within one enable, each start timed ("start k").
#include <cuda.h>
#include <cuda_runtime.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec * 1e-6;
}

#define CU(x)                                                                                      \
    do {                                                                                           \
        CUresult r_ = (x);                                                                         \
        if (r_ != CUDA_SUCCESS) {                                                                  \
            fprintf(stderr, "%s: %d\n", #x, (int)r_);                                              \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define CP(x)                                                                                      \
    do {                                                                                           \
        CUptiResult r_ = (x);                                                                      \
        if (r_ != CUPTI_SUCCESS) {                                                                 \
            const char *s_;                                                                        \
            cuptiGetResultString(r_, &s_);                                                         \
            fprintf(stderr, "%s: %s\n", #x, s_);                                                   \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static const char *hw_metrics[] = {
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
};
static const char *metrics[] = {
    "smsp__sass_inst_executed_op_global_ld.sum",
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "smsp__sass_data_bytes_mem_global_op_ld.sum",
    "smsp__sass_inst_executed_op_global_st.sum",
    "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_data_bytes_mem_global_op_st.sum",
};
enum { NM = sizeof metrics / sizeof metrics[0] };

__global__ void spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}

/* busy SECONDS: keeps this context's GPU work queued (a 20 ms kernel after another), as a trace
 * child's long instrumented kernels do, for SECONDS. */
static int busy(double seconds)
{
    double end = now_ms() + seconds * 1e3;
    while (now_ms() < end) {
        spin<<<132, 32>>>(20000000LL);
        cudaDeviceSynchronize();
    }
    return 0;
}

/* The same copy counted through CUPTI's SASS metrics API instead (instruction patching alone, no
 * range profiler), three rounds: every SASS metric name for this chip is printed first with
 * "list". */
static int sass(const char *fatbin, int list)
{
    CU(cuInit(0));
    CUdevice dev;
    CU(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    size_t n = (size_t)16 << 20;
    CUdeviceptr src, dst;
    CU(cuMemAlloc(&src, n * 4));
    CU(cuMemAlloc(&dst, n * 4));
    CUpti_Profiler_Initialize_Params ip = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CP(cuptiProfilerInitialize(&ip));
    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cn.deviceIndex = 0;
    CP(cuptiDeviceGetChipName(&cn));
    if (list) {
        CUpti_SassMetrics_GetNumOfMetrics_Params nm = {
            CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE};
        nm.pChipName = cn.pChipName;
        CP(cuptiSassMetricsGetNumOfMetrics(&nm));
        CUpti_SassMetrics_MetricDetails *d =
            (CUpti_SassMetrics_MetricDetails *)calloc(nm.numOfMetrics, sizeof *d);
        CUpti_SassMetrics_GetMetrics_Params gm = {CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE};
        gm.pChipName = cn.pChipName;
        gm.numOfMetrics = nm.numOfMetrics;
        gm.pMetricsList = d;
        CP(cuptiSassMetricsGetMetrics(&gm));
        for (size_t i = 0; i < nm.numOfMetrics; ++i)
            printf("sass metric %s\n", d[i].pMetricName);
    }
    const char *names[] = {"smsp__sass_inst_executed_op_global_ld",
                           "smsp__sass_inst_executed_op_global_st", "smsp__sass_sectors_mem_global",
                           "smsp__sass_sectors_mem_global_ideal"};
    CUpti_SassMetrics_Config cfg[4];
    int nc = 0;
    for (int i = 0; i < 4; ++i) {
        CUpti_SassMetrics_GetProperties_Params gp = {
            CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
        gp.pChipName = cn.pChipName;
        gp.pMetricName = names[i];
        if (cuptiSassMetricsGetProperties(&gp) != CUPTI_SUCCESS) {
            printf("no SASS metric %s\n", names[i]);
            continue;
        }
        cfg[nc].metricId = gp.metric.metricId;
        cfg[nc].outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
        ++nc;
    }
    if (!nc)
        return 1;
    CUpti_SassMetricsSetConfig_Params sc = {CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
    sc.numOfMetricConfig = nc;
    sc.pConfigs = cfg;
    sc.deviceIndex = 0;
    CP(cuptiSassMetricsSetConfig(&sc));
    printf("%-7s %5s %8s %8s %8s %8s %8s %8s %14s\n", "variant", "round", "load", "enable",
           "launch", "sync", "flush", "disable", "sums (loads, stores, sectors, ideal sectors)");
    for (int round = 1; round <= 3; ++round) {
        double ms[6], t = now_ms();
        CUmodule mod;
        CUfunction fn, second;
        CU(cuModuleLoad(&mod, fatbin));
        CU(cuModuleGetFunction(&fn, mod, "copy"));
        CU(cuModuleGetFunction(&second, mod, "copy_second"));
        ms[0] = now_ms() - t;
        t = now_ms();
        CUpti_SassMetricsEnable_Params en = {CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
        en.ctx = ctx;
        en.enableLazyPatching = getenv("COUNT_COST_LAZY") ? atoi(getenv("COUNT_COST_LAZY")) : 1;
        CP(cuptiSassMetricsEnable(&en));
        ms[1] = now_ms() - t;
        void *args[] = {&dst, &src, &n};
        t = now_ms();
        CU(cuLaunchKernel(fn, 1056, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
        if (getenv("COUNT_COST_BOTH"))
            CU(cuLaunchKernel(second, 1056, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
        ms[2] = now_ms() - t;
        t = now_ms();
        CU(cuCtxSynchronize());
        ms[3] = now_ms() - t;
        t = now_ms();
        CUpti_SassMetricsGetDataProperties_Params dp = {
            CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
        dp.ctx = ctx;
        CP(cuptiSassMetricsGetDataProperties(&dp));
        size_t nrec = dp.numOfPatchedInstructionRecords, ninst = dp.numOfInstances;
        CUpti_SassMetrics_Data *data =
            (CUpti_SassMetrics_Data *)calloc(nrec ? nrec : 1, sizeof *data);
        for (size_t r = 0; r < nrec; ++r) {
            data[r].structSize = sizeof data[r];
            data[r].pInstanceValues = (CUpti_SassMetrics_InstanceValue *)calloc(
                ninst * 4 + 4, sizeof(CUpti_SassMetrics_InstanceValue));
        }
        CUpti_SassMetricsFlushData_Params fd = {CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
        fd.ctx = ctx;
        fd.numOfPatchedInstructionRecords = nrec;
        fd.numOfInstances = ninst;
        fd.pMetricsData = data;
        CUptiResult fr = nrec ? cuptiSassMetricsFlushData(&fd) : CUPTI_SUCCESS;
        if (fr != CUPTI_SUCCESS) {
            const char *why;
            cuptiGetResultString(fr, &why);
            printf("round %d: cuptiSassMetricsFlushData of %zu records x %zu: %s\n", round, nrec,
                   ninst, why);
            nrec = 0;
        }
        ms[4] = now_ms() - t;
        unsigned long long sum[4] = {0, 0, 0, 0};
        /* Each record's values, up to what was allocated (CUPTI leaves the rest zero). */
        size_t of_copy = 0, of_second = 0, valued = 0;
        for (size_t r = 0; r < nrec; ++r) {
            const char *f = data[r].functionName ? data[r].functionName : "";
            of_copy += strcmp(f, "copy") == 0;
            of_second += strcmp(f, "copy_second") == 0;
            for (size_t k = 0; k < ninst * 4 + 4; ++k) {
                const CUpti_SassMetrics_InstanceValue *v = &data[r].pInstanceValues[k];
                valued += v->metricId != 0;
                for (int c = 0; c < nc; ++c)
                    if (v->metricId == cfg[c].metricId)
                        sum[c] += v->value;
            }
        }
        printf("round %d: records of copy %zu, of copy_second %zu; values naming a metric %zu\n",
               round, of_copy, of_second, valued);
        t = now_ms();
        CUpti_SassMetricsDisable_Params di = {CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
        di.ctx = ctx;
        CP(cuptiSassMetricsDisable(&di));
        ms[5] = now_ms() - t;
        printf("%-7s %5d %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f ld %llu st %llu sectors %llu ideal "
               "%llu (%zu records x %zu)\n",
               "sass", round, ms[0], ms[1], ms[2], ms[3], ms[4], ms[5], sum[0], sum[1], sum[2],
               sum[3], nrec, ninst);
        CU(cuModuleUnload(mod));
    }
    return 0;
}

/* The profiler's host share for metrics m[0..nm): CUPTI initialised, the chip's host object
 * with the metrics, and their config image (into *config, *config_size). */
static CUpti_Profiler_Host_Object *host_config(const char **m, int nm, uint8_t **config,
                                               size_t *config_size)
{
    CUpti_Profiler_Initialize_Params ip = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    CP(cuptiProfilerInitialize(&ip));
    CUpti_Device_GetChipName_Params cn = {CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    cn.deviceIndex = 0;
    CP(cuptiDeviceGetChipName(&cn));
    CUpti_Profiler_Host_Initialize_Params hi = {CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    hi.pChipName = cn.pChipName;
    CP(cuptiProfilerHostInitialize(&hi));
    CUpti_Profiler_Host_ConfigAddMetrics_Params am = {
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    am.pHostObject = hi.pHostObject;
    am.ppMetricNames = m;
    am.numMetrics = nm;
    CP(cuptiProfilerHostConfigAddMetrics(&am));
    CUpti_Profiler_Host_GetConfigImageSize_Params cs = {
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    cs.pHostObject = hi.pHostObject;
    CP(cuptiProfilerHostGetConfigImageSize(&cs));
    *config_size = cs.configImageSize;
    *config = (uint8_t *)calloc(1, cs.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params gi = {
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    gi.pHostObject = hi.pHostObject;
    gi.configImageSize = cs.configImageSize;
    gi.pConfigImage = *config;
    CP(cuptiProfilerHostGetConfigImage(&gi));
    return hi.pHostObject;
}

/* A fresh counter-data image of 4 ranges on the enabled profiler rp, and the profiler set up
 * with it (auto range, replay mode replay); the image's size into *size. */
static uint8_t *set_config(CUpti_RangeProfiler_Object *rp, const char **m, int nm,
                           const uint8_t *config, size_t config_size,
                           CUpti_ProfilerReplayMode replay, size_t *size)
{
    CUpti_RangeProfiler_GetCounterDataSize_Params sz = {
        CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
    sz.pRangeProfilerObject = rp;
    sz.pMetricNames = m;
    sz.numMetrics = nm;
    sz.maxNumOfRanges = 4;
    sz.maxNumRangeTreeNodes = 4;
    CP(cuptiRangeProfilerGetCounterDataSize(&sz));
    uint8_t *data = (uint8_t *)calloc(1, sz.counterDataSize);
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params ci = {
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    ci.pRangeProfilerObject = rp;
    ci.pCounterData = data;
    ci.counterDataSize = sz.counterDataSize;
    CP(cuptiRangeProfilerCounterDataImageInitialize(&ci));
    CUpti_RangeProfiler_SetConfig_Params sc = {CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
    sc.pRangeProfilerObject = rp;
    sc.configSize = config_size;
    sc.pConfig = config;
    sc.counterDataImageSize = sz.counterDataSize;
    sc.pCounterDataImage = data;
    sc.range = CUPTI_AutoRange;
    sc.replayMode = replay;
    sc.maxRangesPerPass = 4;
    sc.numNestingLevels = 1;
    sc.minNestingLevel = 1;
    sc.targetNestingLevel = 1;
    CP(cuptiRangeProfilerSetConfig(&sc));
    *size = sz.counterDataSize;
    return data;
}

/* The first range's values of metrics m[0..nm) into v. */
static void evaluate(CUpti_Profiler_Host_Object *host, uint8_t *data, size_t size, const char **m,
                     int nm, double *v)
{
    CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    ev.pHostObject = host;
    ev.pCounterDataImage = data;
    ev.counterDataImageSize = size;
    ev.rangeIndex = 0;
    ev.ppMetricNames = m;
    ev.numMetrics = nm;
    ev.pMetricValues = v;
    CP(cuptiProfilerHostEvaluateToGpuValues(&ev));
}

/* One process counting several sessions, as a counting server would (issue 12): the profiler
 * enabled once; each session loads the module afresh (its two kernels in turn), allocates
 * buffers of a different size, sets a fresh counter-data image up (SetConfig again, without
 * disabling), starts, launches, stops and decodes; its start timed and its counts checked
 * against the copy's (n / 32 load requests, n / 8 sectors). With IDLE_S, the profiler sits
 * enabled and stopped that long after the first session (another process may try to count). */
static int server(const char *fatbin, int sessions, double idle_s)
{
    CU(cuInit(0));
    CUdevice dev;
    CU(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    uint8_t *config;
    size_t config_size;
    CUpti_Profiler_Host_Object *host = host_config(metrics, NM, &config, &config_size);
    double t = now_ms();
    CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
    en.ctx = ctx;
    CP(cuptiRangeProfilerEnable(&en));
    printf("server: enable %.1f ms\n", now_ms() - t);
    printf("%7s %8s %9s %8s %8s %8s %8s %12s %12s %s\n", "session", "load", "setconfig", "start",
           "launch", "stop", "decode", "ld_requests", "ld_sectors", "as the copy's");
    for (int k = 1; k <= sessions; ++k) {
        size_t n = ((size_t)4 << 20) * (size_t)k;
        const char *name = k % 2 ? "copy" : "copy_second";
        double ms[6];
        t = now_ms();
        CUmodule mod;
        CUfunction fn;
        CU(cuModuleLoad(&mod, fatbin));
        CU(cuModuleGetFunction(&fn, mod, name));
        CUdeviceptr src, dst;
        CU(cuMemAlloc(&src, n * 4));
        CU(cuMemAlloc(&dst, n * 4));
        ms[0] = now_ms() - t;
        t = now_ms();
        size_t size;
        uint8_t *data = set_config(en.pRangeProfilerObject, metrics, NM, config, config_size,
                                   CUPTI_KernelReplay, &size);
        ms[1] = now_ms() - t;
        t = now_ms();
        CUpti_RangeProfiler_Start_Params st = {CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
        st.pRangeProfilerObject = en.pRangeProfilerObject;
        CP(cuptiRangeProfilerStart(&st));
        ms[2] = now_ms() - t;
        t = now_ms();
        void *args[] = {&dst, &src, &n};
        CU(cuLaunchKernel(fn, 1056, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
        CU(cuCtxSynchronize());
        ms[3] = now_ms() - t;
        t = now_ms();
        CUpti_RangeProfiler_Stop_Params sp = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
        sp.pRangeProfilerObject = en.pRangeProfilerObject;
        CP(cuptiRangeProfilerStop(&sp));
        ms[4] = now_ms() - t;
        t = now_ms();
        CUpti_RangeProfiler_DecodeData_Params dd = {
            CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
        dd.pRangeProfilerObject = en.pRangeProfilerObject;
        CP(cuptiRangeProfilerDecodeData(&dd));
        ms[5] = now_ms() - t;
        CUpti_RangeProfiler_GetCounterDataInfo_Params info = {
            CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
        info.pCounterDataImage = data;
        info.counterDataImageSize = size;
        CP(cuptiRangeProfilerGetCounterDataInfo(&info));
        double v[NM] = {0};
        evaluate(host, data, size, metrics, NM, v);
        int right = v[0] == (double)(n / 32) && v[1] == (double)(n / 8) && info.numTotalRanges == 1;
        printf("%7d %8.1f %9.1f %8.1f %8.1f %8.1f %8.1f %12.0f %12.0f %s (%s, %zu ranges)\n", k,
               ms[0], ms[1], ms[2], ms[3], ms[4], ms[5], v[0], v[1], right ? "yes" : "NO", name,
               (size_t)info.numTotalRanges);
        fflush(stdout);
        CU(cuMemFree(src));
        CU(cuMemFree(dst));
        CU(cuModuleUnload(mod));
        free(data);
        if (k == 1 && idle_s > 0) {
            printf("server: idle, enabled and stopped, %.1f s\n", idle_s);
            fflush(stdout);
            struct timespec ts = {(time_t)idle_s, 0};
            nanosleep(&ts, NULL);
        }
    }
    t = now_ms();
    CUpti_RangeProfiler_Disable_Params di = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    di.pRangeProfilerObject = en.pRangeProfilerObject;
    CP(cuptiRangeProfilerDisable(&di));
    printf("server: disable %.1f ms\n", now_ms() - t);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "busy") == 0)
        return busy(atof(argv[2]));
    if (argc >= 4 && strcmp(argv[2], "server") == 0)
        return server(argv[1], atoi(argv[3]), argc > 4 ? atof(argv[4]) : 0);
    if (argc >= 3 && strcmp(argv[2], "sass") == 0)
        return sass(argv[1], argc > 3 && strcmp(argv[3], "list") == 0);
    if (argc < 4) {
        fprintf(stderr, "usage: count_cost FATBIN before|after|warm EXTRA_MIB\n");
        return 2;
    }
    const char *variant = argv[2];
    const char *knob = getenv("COUNT_COST_METRICS");
    const char **mset = metrics;
    int nm = NM;
    if (knob && strcmp(knob, "one") == 0)
        nm = 1;
    else if (knob && strcmp(knob, "hw") == 0)
        mset = hw_metrics, nm = 2;
    knob = getenv("COUNT_COST_REPLAY");
    CUpti_ProfilerReplayMode replay = CUPTI_KernelReplay;
    if (knob && strcmp(knob, "user") == 0)
        replay = CUPTI_UserReplay;
    else if (knob && strcmp(knob, "application") == 0)
        replay = CUPTI_ApplicationReplay;
    int starts = getenv("COUNT_COST_STARTS") ? atoi(getenv("COUNT_COST_STARTS")) : 1;
    if (starts < 1)
        starts = 1;
    double t0 = now_ms();
    CU(cuInit(0));
    CUdevice dev;
    CU(cuDeviceGet(&dev, 0));
    CUcontext ctx;
    CU(cuDevicePrimaryCtxRetain(&ctx, dev));
    CU(cuCtxSetCurrent(ctx));
    size_t n = (size_t)16 << 20; /* floats: 64 MB a buffer */
    CUdeviceptr src, dst, extra = 0;
    CU(cuMemAlloc(&src, n * 4));
    CU(cuMemAlloc(&dst, n * 4));
    size_t extra_bytes = (size_t)atol(argv[3]) << 20;
    if (extra_bytes) {
        CU(cuMemAlloc(&extra, extra_bytes));
        CU(cuMemsetD8(extra, 1, extra_bytes));
    }
    CU(cuCtxSynchronize());
    printf("context and buffers %.1f ms\n", now_ms() - t0);

    double t = now_ms();
    uint8_t *config;
    size_t config_size;
    CUpti_Profiler_Host_Object *host = host_config(mset, nm, &config, &config_size);
    printf("profiler host set-up %.1f ms\n", now_ms() - t);

    printf("%-7s %5s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %12s\n", "variant", "round", "enable",
           "load", "warm", "start", "launch", "sync", "stop", "decode", "disable", "sum",
           "ld_sectors");
    for (int round = 1; round <= 3; ++round) {
        double ms[9] = {0};
        CUmodule mod = NULL;
        CUfunction fn;
        t = now_ms();
        if (strcmp(variant, "before") == 0) {
            CU(cuModuleLoad(&mod, argv[1]));
            CU(cuModuleGetFunction(&fn, mod, "copy"));
        }
        double t_load0 = now_ms() - t;
        t = now_ms();
        CUpti_RangeProfiler_Enable_Params en = {CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
        en.ctx = ctx;
        CP(cuptiRangeProfilerEnable(&en));
        size_t size;
        uint8_t *data =
            set_config(en.pRangeProfilerObject, mset, nm, config, config_size, replay, &size);
        ms[0] = now_ms() - t;
        t = now_ms();
        if (!mod) {
            CU(cuModuleLoad(&mod, argv[1]));
            CU(cuModuleGetFunction(&fn, mod, "copy"));
        }
        ms[1] = t_load0 + now_ms() - t;
        void *args[] = {&dst, &src, &n};
        t = now_ms();
        if (strcmp(variant, "warm") == 0) {
            CU(cuLaunchKernel(fn, 1056, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
            CU(cuCtxSynchronize());
        }
        ms[2] = now_ms() - t;
        for (int k = 0; k < starts; ++k) {
            double mk[5];
            t = now_ms();
            CUpti_RangeProfiler_Start_Params st = {CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
            st.pRangeProfilerObject = en.pRangeProfilerObject;
            CP(cuptiRangeProfilerStart(&st));
            mk[0] = now_ms() - t;
            t = now_ms();
            CU(cuLaunchKernel(fn, 1056, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
            mk[1] = now_ms() - t;
            t = now_ms();
            CU(cuCtxSynchronize());
            mk[2] = now_ms() - t;
            t = now_ms();
            CUpti_RangeProfiler_Stop_Params sp = {CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
            sp.pRangeProfilerObject = en.pRangeProfilerObject;
            CP(cuptiRangeProfilerStop(&sp));
            if (!sp.isAllPassSubmitted)
                fprintf(stderr, "not all passes submitted\n");
            mk[3] = now_ms() - t;
            t = now_ms();
            CUpti_RangeProfiler_DecodeData_Params dd = {
                CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
            dd.pRangeProfilerObject = en.pRangeProfilerObject;
            CP(cuptiRangeProfilerDecodeData(&dd));
            mk[4] = now_ms() - t;
            if (k == 0)
                for (int j = 0; j < 5; ++j)
                    ms[3 + j] = mk[j];
            else
                printf("  session %d: start %.1f launch %.1f sync %.1f stop %.1f decode %.1f\n",
                       k + 1, mk[0], mk[1], mk[2], mk[3], mk[4]);
        }
        t = now_ms();
        CUpti_RangeProfiler_Disable_Params di = {CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
        di.pRangeProfilerObject = en.pRangeProfilerObject;
        CP(cuptiRangeProfilerDisable(&di));
        ms[8] = now_ms() - t;
        double v[NM] = {0};
        evaluate(host, data, size, mset, nm, v);
        double sum = 0;
        for (int k = 0; k < 9; ++k)
            sum += ms[k];
        printf("%-7s %5d %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %12.0f\n",
               variant, round, ms[0], ms[1], ms[2], ms[3], ms[4], ms[5], ms[6], ms[7], ms[8], sum,
               v[1]);
        CU(cuModuleUnload(mod));
        free(data);
    }
    return 0;
}
