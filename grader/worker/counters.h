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
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Profiles one call of work (which launches one or more kernels) and fills *res; with_shared
 * also reads the four shared-memory counters (else they stay 0), which can cost more passes.
 * The current CUDA device must already be selected. Never exits. */
void ct_profile(tm_work work, void *ctx, int with_shared, wi_counters *res);

#ifdef __cplusplus
}
#endif

#endif
