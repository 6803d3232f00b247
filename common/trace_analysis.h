/*
 * trace_analysis.h - from warp-level access records to per-instruction coalescing figures.
 *
 * Pure C, no GPU. The trace engine's patch writes one ta_record per sampled warp and global
 * memory instruction; this module groups the records by instruction (pc) and scores each one
 * with the coalescing model (coalesce.h): requests, sectors, lines, unique bytes, ideal
 * sectors, for loads and stores apart. It is also what the unit tests feed synthetic traces.
 */
#ifndef CL_TRACE_ANALYSIS_H
#define CL_TRACE_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "coalesce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One warp's execution of one global memory instruction, as the patch records it. The layout
 * is shared with the device patch (grader/trace/patch.cu): keep them in step. */
typedef struct ta_record {
    uint64_t pc;       /* offset of the instruction from the start of its function */
    uint32_t warp;     /* global warp index: block index x warps per block + warp in block */
    uint32_t active;   /* lanes that executed the access */
    uint32_t size;     /* bytes per lane */
    uint32_t is_store; /* 1 for a store, 0 for a load (atomics count as stores) */
    uint64_t addr[CL_WARP_SIZE];
} ta_record;

/* Everything measured about one instruction of one kernel. */
typedef struct ta_instruction {
    uint64_t pc;
    int is_store;
    uint32_t size; /* bytes per lane of its first record */
    cl_tally tally;
    ta_record sample;      /* the record that wasted the most sectors (ties: the first) */
    uint32_t sample_waste; /* sectors - ideal sectors of sample */
    char file[512];        /* source file and line, filled in by whoever knows them */
    unsigned line;
} ta_instruction;

/* The longest kernel name kept, its NUL included: a long template's mangled name runs to
 * hundreds of characters (wire.h's WI_MAX_KERNEL_NAME is the same). */
#define TA_MAX_NAME 4096

typedef struct ta_kernel {
    char name[TA_MAX_NAME];
    ta_instruction *ins; /* owned, nins entries, sorted by pc */
    size_t nins;
    cl_tally loads, stores; /* all of the kernel's load (store) instructions */
    uint64_t records;       /* records analysed */
    uint64_t invalid;       /* records the model rejected (bad size, no lane) */
} ta_kernel;

/* Analyses n records of one kernel into *k (named name). Returns 0, or -1 when out of memory.
 * Free with ta_kernel_free(). */
int ta_analyze(const char *name, const ta_record *recs, size_t n, ta_kernel *k);
/* The same where record r stands for weights[r] requests of its kind (a sampled warp for the
 * warps it was drawn among; 1 for one traced for certain): every tally is the weighted sum,
 * rounded to the nearest whole request, sector and byte, so that it estimates the whole run.
 * records still counts the records analysed. weights NULL: every weight 1 (ta_analyze). */
int ta_analyze_weighted(const char *name, const ta_record *recs, const double *weights, size_t n,
                        ta_kernel *k);
void ta_kernel_free(ta_kernel *k);

/* The instruction of k that wastes the most sectors in all (sectors - ideal), loads and stores
 * alike; NULL when k has none or none wastes any. */
const ta_instruction *ta_worst(const ta_kernel *k);

#ifdef __cplusplus
}
#endif

#endif
