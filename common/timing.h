/*
 * timing.h - event timing of GPU work, the way a benchmark should do it.
 *
 * tm_measure() runs the work a few times to warm up, then times each repeat with CUDA events
 * and reports the median. Before every timed repeat it overwrites a buffer larger than the L2
 * cache (outside the timed region), so no repeat reads what the previous one left in L2. Each
 * repeat is queued behind a gate (a one-thread kernel the host opens once the start event, the
 * work and the stop event are all queued), so that the GPU runs them back to back whatever the
 * host does meanwhile: with other processes busy on the CPU, a host that paused between the
 * start event and the launch would otherwise time its own pause.
 */
#ifndef CL_TIMING_H
#define CL_TIMING_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The work to time: launches kernels on the default stream, returns their launch status. */
typedef cudaError_t (*tm_work)(void *ctx);

typedef struct tm_options {
    int warmup;         /* untimed runs first (>= 0) */
    int repeats;        /* timed runs (>= 1) */
    size_t flush_bytes; /* L2 flush buffer size; 0 disables the flush */
    /* Wait for the whole device (every stream) before the stop event, so that work launched on
     * another stream is timed too; adds the host's synchronisation latency (microseconds). */
    int sync_device;
    /* Optional: called before every run, warm-up or timed, outside the timed region (a
     * replay reloads its module there, so that no run sees the state of the one before). */
    tm_work before;
    void *before_ctx;
} tm_options;

typedef struct tm_result {
    double median_ms;
    double min_ms;
    double max_ms;
    int repeats;
} tm_result;

/* Times work as above. Returns cudaSuccess, or the first CUDA error (from the work or the
 * timing itself) without exiting. */
cudaError_t tm_measure(tm_work work, void *ctx, const tm_options *opt, tm_result *res);

/* Queues the gate on the default stream: it holds the stream until *open_on_device (the device's
 * view of mapped host memory) is nonzero, or limit_s seconds have passed (timing_gate.cu). */
cudaError_t tm_gate_close(const volatile int *open_on_device, double limit_s);

/* Median of n doubles (sorts a copy); 0 when n == 0. Pure C. */
double tm_median(const double *v, int n);

#ifdef __cplusplus
}
#endif

#endif
