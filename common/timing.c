/* timing.c - see timing.h. */
#include "timing.h"

#include <cuda_runtime_api.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double tm_median(const double *v, int n)
{
    if (n <= 0)
        return 0.0;
    double *copy = malloc((size_t)n * sizeof *copy);
    if (!copy)
        return v[0];
    memcpy(copy, v, (size_t)n * sizeof *copy);
    qsort(copy, (size_t)n, sizeof *copy, cmp_double);
    double m = n % 2 ? copy[n / 2] : 0.5 * (copy[n / 2 - 1] + copy[n / 2]);
    free(copy);
    return m;
}

/* A gate's limit: longer than any host pause worth hiding, short enough that a gate nobody opens
 * (work that synchronizes inside) costs little. */
#define GATE_LIMIT_S 0.05

cudaError_t tm_measure(tm_work work, void *ctx, const tm_options *opt, tm_result *res)
{
    memset(res, 0, sizeof *res);
    int repeats = opt->repeats > 0 ? opt->repeats : 1;
    double *ms = calloc((size_t)repeats, sizeof *ms);
    void *flush = NULL;
    volatile int *open = NULL, *open_dev = NULL;
    cudaEvent_t start = NULL, stop = NULL;
    cudaError_t err = ms ? cudaSuccess : cudaErrorMemoryAllocation;
    if (err == cudaSuccess && opt->flush_bytes)
        err = cudaMalloc(&flush, opt->flush_bytes);
    if (err == cudaSuccess)
        err = cudaHostAlloc((void **)&open, sizeof *open, cudaHostAllocMapped);
    if (err == cudaSuccess)
        err = cudaHostGetDevicePointer((void **)&open_dev, (void *)open, 0);
    if (err == cudaSuccess)
        err = cudaEventCreate(&start);
    if (err == cudaSuccess)
        err = cudaEventCreate(&stop);
    for (int i = 0; err == cudaSuccess && i < opt->warmup; ++i) {
        if (opt->before)
            err = opt->before(opt->before_ctx);
        if (err == cudaSuccess)
            err = work(ctx);
    }
    for (int i = 0; err == cudaSuccess && i < repeats; ++i) {
        if (opt->before)
            err = opt->before(opt->before_ctx);
        if (err == cudaSuccess && flush)
            err = cudaMemsetAsync(flush, i & 0xff, opt->flush_bytes, 0);
        *open = 0;
        if (err == cudaSuccess)
            err = tm_gate_close(open_dev, GATE_LIMIT_S);
        if (err == cudaSuccess)
            err = cudaEventRecord(start, 0);
        if (err == cudaSuccess)
            err = work(ctx);
        if (opt->sync_device)
            *open = 1; /* the synchronization waits for the work: the gate opens first */
        if (err == cudaSuccess && opt->sync_device)
            err = cudaDeviceSynchronize();
        if (err == cudaSuccess)
            err = cudaEventRecord(stop, 0);
        *open = 1;
        if (err == cudaSuccess)
            err = cudaEventSynchronize(stop);
        float t = 0.0f;
        if (err == cudaSuccess)
            err = cudaEventElapsedTime(&t, start, stop);
        ms[i] = t;
    }
    if (open)
        *open = 1; /* a gate left closed by an error opens */
    if (err == cudaSuccess)
        err = cudaDeviceSynchronize();
    if (err == cudaSuccess) {
        res->repeats = repeats;
        res->median_ms = tm_median(ms, repeats);
        res->min_ms = res->max_ms = ms[0];
        for (int i = 1; i < repeats; ++i) {
            if (ms[i] < res->min_ms)
                res->min_ms = ms[i];
            if (ms[i] > res->max_ms)
                res->max_ms = ms[i];
        }
    }
    if (start)
        cudaEventDestroy(start);
    if (stop)
        cudaEventDestroy(stop);
    cudaFree(flush);
    if (open)
        cudaFreeHost((void *)open);
    free(ms);
    return err;
}
