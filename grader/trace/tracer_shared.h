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

/* Which other warps a launch traces: warp w (its index in the grid) when tr_mix(w ^ key) %
 * sample is 0. A hash, so that the choice does not alias with periodic patterns (every 2nd
 * block, the same warp of every block); the host counts the warps a key picks (tracer.c), so
 * that each record stands for exactly the warps it was drawn among, however many the hash
 * picked. */
TR_BOTH uint32_t tr_mix(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* Whether warp w (its index in the grid) of a launch of blocks blocks, warps_per_block warps
 * each, is one the trace always records, sampled or not: the first and the last warp of every
 * block (the last one partial where the block is not a multiple of 32 threads) and every warp
 * of the grid's first and last block. Work confined to one block, to its edges or to the last
 * tile cannot escape the trace. */
TR_BOTH int tr_edge_of(uint32_t block, uint32_t in_block, uint32_t warps_per_block, uint32_t blocks)
{
    return in_block == 0 || in_block == warps_per_block - 1 || block == 0 || block == blocks - 1;
}

/* The same for warp w of the grid (the host's view; the patch, which has the block and the
 * warp in it at hand, asks tr_edge_of and divides by nothing). */
TR_BOTH int tr_edge(uint32_t w, uint32_t warps_per_block, uint32_t blocks)
{
    return tr_edge_of(w / warps_per_block, w % warps_per_block, warps_per_block, blocks);
}

/* Whether the key picks warp w among the others, one in sample (a power of two: a mask, not a
 * division, in the patch that runs at every access of every thread). */
TR_BOTH int tr_sampled(uint32_t w, uint32_t key, uint32_t sample)
{
    return (tr_mix(w ^ key) & (sample - 1)) == 0;
}

typedef struct tr_tracker {
    uint32_t next;   /* records asked for so far; more than max means some were dropped */
    uint32_t max;    /* capacity of records */
    uint32_t sample; /* record one warp in sample (1: every warp), beside every tr_edge warp */
    uint32_t key;    /* which of the others: drawn from the seed and the device code, per launch */
    ta_record *records;
} tr_tracker;

#endif
