/*
 * counters.h - the counters engine: what Nsight Compute would count for one run of a lab's
 * work, read in process through CUPTI's Range Profiler and Profiler Host APIs (CUDA 12.6
 * Update 2 or newer), with automatic ranges (one per kernel) and kernel replay.
 *
 * It reads, per kernel: global load and store instructions executed (warp-level requests), the
 * 32-byte sectors they touched, and the bytes they asked for; and shared-memory load and store
 * instructions with their bank conflicts; and, for the explore runs, the DRAM's bytes.
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

/* What ct_profile reads: the global counters; also the four shared-memory ones; also the
 * DRAM's bytes read and written. Each level can cost more passes; what is not read stays 0. */
enum { CT_GLOBAL, CT_SHARED, CT_DRAM };

/* Profiles one call of work (which launches one or more kernels) and fills *res with the
 * counters of level (CT_GLOBAL, CT_SHARED, CT_DRAM). The current CUDA device must already be
 * selected. Never exits. */
void ct_profile(tm_work work, void *ctx, int level, wi_counters *res);

/* ct_profile in its three steps, for a caller that holds the GPU exclusively for the middle one
 * only: ct_open sets the host's share up (the metrics' config image for this chip; no GPU
 * work), ct_count profiles one call of work, ct_close works the values out from what was
 * counted (host work again) and frees the session. Each step after a failed one does nothing;
 * *res says what failed. ct_open may return NULL (then the others do nothing). */
typedef struct ct_session ct_session;
ct_session *ct_open(int level, wi_counters *res);
void ct_count(ct_session *s, tm_work work, void *ctx, wi_counters *res);
void ct_close(ct_session *s, wi_counters *res);

/* For a process that counts one lab after another (the counting server, worker.c serve): after
 * ct_keep, ct_count leaves the profiler enabled on the context, and the next ct_count only sets
 * a fresh counter-data image up. CUPTI's first start on an enabled profiler takes 0.14 s alone
 * and 0.3-0.8 s beside other contexts' work; every start after it, well under a millisecond
 * (tests/gpu/count_cost.sh's server variant). The hardware stays reserved until ct_close: no
 * other process can count meanwhile (CUPTI_ERROR_HARDWARE_BUSY). ct_values works the values of
 * the last count out into *res and keeps the session. */
void ct_keep(ct_session *s);
void ct_values(ct_session *s, wi_counters *res);

#ifdef __cplusplus
}
#endif

#endif
