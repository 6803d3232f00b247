/*
 * coalesce.h - the coalescing model: what one warp-level memory request costs.
 *
 * Pure C, no GPU. Given the 32 lane addresses of one warp instruction, the access size and the
 * active mask, it counts the 32-byte sectors and 128-byte lines the request touches, the distinct
 * bytes it asked for, and the fewest sectors that could have carried those bytes. Tallies sum
 * requests per instruction or per kernel. The trace engine, the explore runs, the model command
 * and the unit tests all use this one definition:
 *
 *   ideal sectors = max(1, ceil(unique bytes / 32))          for one request
 *   efficiency    = sum(ideal sectors) / sum(actual sectors)  over many requests
 *
 * A broadcast (all lanes read one word) therefore costs 1 sector of 1 ideal: 100%. Nsight
 * Compute's "average data bytes per sector" figure divides unique bytes by 32 x sectors instead,
 * and calls the same broadcast 12.5%; cl_tally_bytes_per_sector() gives that figure too.
 */
#ifndef CL_COALESCE_H
#define CL_COALESCE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CL_WARP_SIZE 32
#define CL_SECTOR_BYTES 32
#define CL_LINE_BYTES 128

/* One warp-level request: lane l's access covers bytes [addr[l], addr[l] + size) when bit l
 * of active is set; inactive lanes' addresses are ignored. */
typedef struct cl_request {
    uint64_t addr[CL_WARP_SIZE];
    uint32_t active;
    uint32_t size; /* bytes per lane: 1, 2, 4, 8 or 16 */
} cl_request;

/* The cost of one request. */
typedef struct cl_cost {
    uint32_t sectors;       /* distinct 32-byte sectors touched */
    uint32_t lines;         /* distinct 128-byte lines touched */
    uint32_t unique_bytes;  /* distinct bytes requested, counted once however many lanes ask */
    uint32_t ideal_sectors; /* max(1, ceil(unique_bytes / 32)) */
    uint32_t active_lanes;  /* popcount(active) */
} cl_cost;

/* Computes the cost of req into *out. Returns 0, or -1 (and leaves *out zeroed) when size is
 * not 1, 2, 4, 8 or 16 or no lane is active. An access that straddles a sector boundary
 * counts every sector it touches. */
int cl_request_cost(const cl_request *req, cl_cost *out);

/* Sums of costs over many requests (one instruction, one kernel, loads or stores). */
typedef struct cl_tally {
    uint64_t requests;
    uint64_t sectors;
    uint64_t lines;
    uint64_t unique_bytes;
    uint64_t ideal_sectors;
} cl_tally;

void cl_tally_add(cl_tally *t, const cl_cost *c);
void cl_tally_merge(cl_tally *into, const cl_tally *from);

/* Broadcast-aware efficiency in [0, 1]: ideal_sectors / sectors; 0 when no request. */
double cl_tally_efficiency(const cl_tally *t);
/* Nsight Compute's figure in [0, 1]: unique_bytes / (32 x sectors); 0 when no request. */
double cl_tally_bytes_per_sector(const cl_tally *t);
/* Mean sectors per request; 0 when no request. */
double cl_tally_sectors_per_request(const cl_tally *t);

/* Fills req with a regular pattern: lane l (active when bit l of active is set) accesses
 * base + offset + l * stride_bytes with accesses of size bytes. The model command and the
 * tests describe patterns this way. */
void cl_request_strided(cl_request *req, uint64_t base, int64_t offset, int64_t stride_bytes,
                        uint32_t size, uint32_t active);

/* The first active lane whose address is not a multiple of the access size (the GPU faults
 * on such a load or store: "misaligned address"), or -1 when every lane is aligned. */
int cl_request_misaligned(const cl_request *req);

#ifdef __cplusplus
}
#endif

#endif
