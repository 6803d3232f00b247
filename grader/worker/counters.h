/*
 * counters.h - the counters engine: what Nsight Compute would count for one run of a lab's
 * work, read in process through CUPTI's Range Profiler and Profiler Host APIs (CUDA 12.6
 * Update 2 or newer), with automatic ranges (one per kernel) and kernel replay.
 *
 * It reads, per kernel: global load and store instructions executed (warp-level requests), the
 * 32-byte sectors they touched, and the bytes they asked for; and shared-memory load and store
 * instructions with their bank conflicts.
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
    /* shared memory: warp-level load and store instructions, and the bank conflicts they met
     * (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum, ..._st.sum) */
    double sh_ld_requests, sh_st_requests, sh_ld_conflicts, sh_st_conflicts;
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

/* The metric names, in ct_kernel's field order (global ld: requests, sectors, bytes; st: ...;
 * then shared ld and st requests, shared ld and st bank conflicts). */
#define CT_NMETRICS 10
extern const char *const ct_metric_names[CT_NMETRICS];

/* Profiles one call of work (which launches one or more kernels) and fills *res; with_shared
 * also reads the four shared-memory counters (else they stay 0), which can cost more passes.
 * The current CUDA device must already be selected. Never exits. */
void ct_profile(tm_work work, void *ctx, int with_shared, ct_result *res);

#ifdef __cplusplus
}
#endif

#endif
