/*
 * tracer_shared.h - what the trace engine's host library (tracer.c) and its device patch
 * (patch.cu) share: the record buffer's control block, in device memory.
 */
#ifndef CL_TRACER_SHARED_H
#define CL_TRACER_SHARED_H

#include <stdint.h>

#include "trace_analysis.h"

#ifdef __CUDACC__
#define TR_BOTH __host__ __device__ __forceinline__
#else
#define TR_BOTH static inline
#endif

/* Which warps a launch traces: warp w (its index in the grid) when tr_mix(w ^ key) % sample is
 * 0. A hash, so that the choice does not alias with periodic patterns (every 2nd block, the
 * same warp of every block); the host counts the warps a key picks (tracer.c), so that each
 * launch's records stand for exactly the warps they sample, however many the hash picked. */
TR_BOTH uint32_t tr_mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

typedef struct tr_tracker {
    uint32_t next;   /* records asked for so far; more than max means some were dropped */
    uint32_t max;    /* capacity of records */
    uint32_t sample; /* record one warp in sample (1: every warp) */
    uint32_t key;    /* which warps: new and unpredictable each launch (see patch.cu) */
    ta_record *records;
} tr_tracker;

#endif
