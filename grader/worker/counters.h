/*
 * counters.h - the counters engine: what Nsight Compute would count for one run of a lab's
 * work, read in process through CUPTI's Range Profiler and Profiler Host APIs (CUDA 12.6
 * Update 2 or newer), with automatic ranges (one per kernel) and kernel replay.
 *
 * One pass reads six counters per kernel: global load and store instructions executed
 * (warp-level requests), the 32-byte sectors they touched, and the bytes they asked for.
 * Reading counters needs permission (admin-only by default on Linux and Windows); without it
 * the engine says so, it does not fail the student.
 */
#ifndef CL_COUNTERS_H
#define CL_COUNTERS_H

#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CT_MAX_KERNELS 16

typedef enum ct_status {
    CT_OK,
    CT_NO_PERMISSION, /* the driver restricts counters to administrators */
    CT_UNSUPPORTED,   /* this build, GPU or platform cannot profile (why says which) */
    CT_FAILED         /* CUPTI or the work failed (why says where) */
} ct_status;

typedef struct ct_kernel {
    char name[256];
    double ld_requests, ld_sectors, ld_bytes; /* smsp__sass_inst_executed_op_global_ld.sum, ... */
    double st_requests, st_sectors, st_bytes;
} ct_kernel;

typedef struct ct_result {
    ct_status status;
    int cupti_code; /* the CUptiResult behind a failure, 0 otherwise */
    char why[512];
    char chip[64];
    int passes;
    int nkernels;
    ct_kernel kernels[CT_MAX_KERNELS];
    double setup_ms, measure_ms;
} ct_result;

/* The six metric names, in ct_kernel's field order (ld: requests, sectors, bytes; st: ...). */
extern const char *const ct_metric_names[6];

/* Profiles one call of work (which launches one or more kernels) and fills *res. The current
 * CUDA device must already be selected. Never exits. */
void ct_profile(tm_work work, void *ctx, ct_result *res);

#ifdef __cplusplus
}
#endif

#endif
