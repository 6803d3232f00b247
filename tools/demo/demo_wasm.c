/*
 * demo_wasm.c - the coalescing model (common/coalesce.c) for the workbook's live demo
 * (handouts/demo/): what the page calls, compiled with coalesce.c to WebAssembly by
 * tools/demo/build.sh. The page draws; every number it shows is computed here, by the same
 * code as 'grade --model' and the trace engine.
 */
#include <stddef.h>
#include <stdint.h>

#include "coalesce.h"

#define EXPORT(name) __attribute__((export_name(#name)))

void *memset(void *s, int c, size_t n)
{
    unsigned char *p = s;
    while (n--)
        *p++ = (unsigned char)c;
    return s;
}

static cl_request req;
static cl_cost cost;
static uint32_t list[CL_WARP_SIZE]; /* dm_list's addresses, written by the page */
static uint64_t base_sector;        /* the first sector of the lowest line touched */

/* Costs req: 0; -1 when it is no request (a size other than 1, 2, 4, 8, 16, or no lane);
 * 100 + lane when that lane is misaligned for its size (the GPU faults: grade --model refuses
 * it alike). */
static int costed(void)
{
    int lane = cl_request_misaligned(&req);
    if (lane >= 0)
        return 100 + lane;
    if (cl_request_cost(&req, &cost) != 0)
        return -1;
    uint64_t low = UINT64_MAX;
    for (int l = 0; l < CL_WARP_SIZE; l++)
        if ((req.active >> l) & 1u && req.addr[l] < low)
            low = req.addr[l];
    base_sector = low / CL_LINE_BYTES * (CL_LINE_BYTES / CL_SECTOR_BYTES);
    return 0;
}

/* Lane l at offset + l * stride bytes past a 128-byte boundary, as grade --model places it. */
EXPORT(dm_strided) int dm_strided(int32_t offset, int32_t stride, uint32_t size, uint32_t active)
{
    cl_request_strided(&req, (uint64_t)1 << 40, offset, stride, size, active);
    return costed();
}

/* Where the page writes up to 32 lane addresses for dm_list. */
EXPORT(dm_list_buffer) uint32_t *dm_list_buffer(void)
{
    return list;
}

/* The lanes of the active mask at the addresses of dm_list_buffer (lane by lane). */
EXPORT(dm_list) int dm_list(uint32_t active, uint32_t size)
{
    for (uint32_t l = 0; l < CL_WARP_SIZE; l++)
        req.addr[l] = list[l];
    req.active = active;
    req.size = size;
    return costed();
}

EXPORT(dm_sectors) uint32_t dm_sectors(void)
{
    return cost.sectors;
}
EXPORT(dm_lines) uint32_t dm_lines(void)
{
    return cost.lines;
}
EXPORT(dm_unique_bytes) uint32_t dm_unique_bytes(void)
{
    return cost.unique_bytes;
}
EXPORT(dm_ideal_sectors) uint32_t dm_ideal_sectors(void)
{
    return cost.ideal_sectors;
}
EXPORT(dm_active_lanes) uint32_t dm_active_lanes(void)
{
    return cost.active_lanes;
}

static cl_tally one(void)
{
    cl_tally t = {0};
    cl_tally_add(&t, &cost);
    return t;
}

EXPORT(dm_efficiency) double dm_efficiency(void)
{
    cl_tally t = one();
    return cl_tally_efficiency(&t);
}

EXPORT(dm_bytes_per_sector) double dm_bytes_per_sector(void)
{
    cl_tally t = one();
    return cl_tally_bytes_per_sector(&t);
}

/* For the picture: lane l's first and last sector, counted from the first sector of the lowest
 * line the request touches (-1 for an inactive lane), and how many sectors make a line. */
EXPORT(dm_lane_first_sector) int32_t dm_lane_first_sector(int32_t l)
{
    if (l < 0 || l >= CL_WARP_SIZE || !((req.active >> l) & 1u))
        return -1;
    return (int32_t)(req.addr[l] / CL_SECTOR_BYTES - base_sector);
}

EXPORT(dm_lane_last_sector) int32_t dm_lane_last_sector(int32_t l)
{
    if (l < 0 || l >= CL_WARP_SIZE || !((req.active >> l) & 1u))
        return -1;
    return (int32_t)((req.addr[l] + req.size - 1) / CL_SECTOR_BYTES - base_sector);
}

EXPORT(dm_sectors_per_line) int32_t dm_sectors_per_line(void)
{
    return CL_LINE_BYTES / CL_SECTOR_BYTES;
}
