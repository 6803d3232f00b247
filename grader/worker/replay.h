/*
 * replay.h - the replayer: the student's recorded launches, memsets and device-to-device
 * copies run again, in their order, in a process that never loaded the student's host code.
 * Only the device code is loaded (the fatbin nvcc made from the same kernel.cu), with the
 * driver API, and every pointer of the record is moved to the same place in this process's
 * buffers (relocate.h). A replay can be repeated; reloading the module between repeats gives
 * every one fresh __device__ variables, so no replay can tell it was not the first.
 */
#ifndef CL_REPLAY_H
#define CL_REPLAY_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#include "relocate.h"
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct rp_replay rp_replay;

/* Loads the device code in image_path and prepares rec's operations on the nb buffers b (in
 * the record's order, of the record's sizes): every launched kernel is found and given the
 * shared-memory attributes it was launched with (its dynamic shared memory limit, at least what
 * its launches ask for, and its carveout), again each time the module is reloaded. Returns the
 * replayer, or NULL with why (no such kernel in the device code, an attribute the driver
 * refuses, buffers that do not match, a driver without what is needed). The current device's
 * primary context must be current (the runtime's). */
rp_replay *rp_open(const char *image_path, const wi_record *rec, const rl_buffer *b, uint32_t nb,
                   char *why, size_t why_size);

/* Runs every operation once, in order, on the default stream; returns the first failure's
 * status. On a failure, also prints which operation failed and the call and error that said so.
 * ctx is the replayer (a tm_work). */
cudaError_t rp_run(void *ctx);

/* Waits for the device, unloads the module and loads it again: fresh __device__ state. ctx is
 * the replayer. */
cudaError_t rp_reload(void *ctx);

void rp_close(rp_replay *r);

/* Puts r aside with its module still loaded, among kept's (at most RP_MAX_KEPT; where it is
 * full, r is closed as rp_close does); rp_unload_kept closes them all. For the counting server
 * (worker.c serve), whose CUPTI profiler stays enabled from one lab's count to the next: no
 * module is unloaded while it is (a grading child never does that: it counts once, then
 * disables). Whether unloading under it was what made the server miss two of lab 06's kernels
 * once is not known: with modules unloaded or kept, the next 48 counts were all whole
 * (tests/gpu/RESULTS.md, sixteenth session). */
enum { RP_MAX_KEPT = 64 };
typedef struct rp_kept {
    rp_replay *replay[RP_MAX_KEPT];
    unsigned n;
} rp_kept;
void rp_close_keeping(rp_replay *r, rp_kept *kept);
void rp_unload_kept(rp_kept *kept);

#ifdef __cplusplus
}
#endif

#endif
