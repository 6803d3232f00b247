/*
 * tracer_shared.h - what the trace engine's host library (tracer.c) and its device patch
 * (patch.cu) share: the record buffer's control block, in device memory.
 */
#ifndef CL_TRACER_SHARED_H
#define CL_TRACER_SHARED_H

#include <stdint.h>

#include "trace_analysis.h"

typedef struct tr_tracker {
    uint32_t next;   /* records asked for so far; more than max means some were dropped */
    uint32_t max;    /* capacity of records */
    uint32_t sample; /* record one warp in sample (1: every warp) */
    uint32_t key;    /* which warps: new and unpredictable each launch (see patch.cu) */
    ta_record *records;
} tr_tracker;

#endif
