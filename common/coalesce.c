/*
 * coalesce.c - the coalescing model: sectors, lines and unique bytes of one warp request.
 *
 * Build and test: gcc -std=c11 -Icommon tests/unit/test_coalesce.c common/coalesce.c
 *                 $(pkg-config --cflags --libs cmocka) -lm && ./a.out
 *
 * Every lane of one request accesses the same number of bytes, so sorting the lanes by start
 * address also sorts them by end address. One sort of at most 32 starts then gives the union of
 * the byte ranges as disjoint, ascending segments, and sectors, lines and unique bytes all fall
 * out of one walk over those segments. No allocation, so the trace engine can run it over
 * millions of requests.
 */
#include "coalesce.h"

#include <string.h>

static int valid_size(uint32_t size)
{
    return size == 1 || size == 2 || size == 4 || size == 8 || size == 16;
}

static uint32_t popcount32(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    v = (v + (v >> 4)) & 0x0F0F0F0Fu;
    return (v * 0x01010101u) >> 24;
}

/* Insertion sort: the lanes of a coalesced request arrive already sorted, which makes this
 * linear in the common case and at most a few hundred moves for a random gather. */
static void sort_starts(uint64_t *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint64_t key = v[i];
        uint32_t j = i;
        while (j > 0 && v[j - 1] > key) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = key;
    }
}

/* The last byte of an access, clipped at the top of the address space rather than wrapping. */
static uint64_t last_byte(uint64_t start, uint32_t size)
{
    uint64_t span = (uint64_t)size - 1;
    return start > UINT64_MAX - span ? UINT64_MAX : start + span;
}

/* Counts the distinct (1 << shift)-byte units of a sequence of ascending, disjoint segments,
 * one segment per call; a unit shared with an earlier segment is counted once. */
typedef struct unit_counter {
    unsigned shift;
    int seen; /* whether last_unit is valid */
    uint64_t last_unit;
    uint32_t count;
} unit_counter;

static void count_units(unit_counter *uc, uint64_t first, uint64_t last)
{
    uint64_t fu = first >> uc->shift;
    uint64_t lu = last >> uc->shift;

    if (uc->seen) {
        if (lu <= uc->last_unit)
            return;
        if (fu <= uc->last_unit)
            fu = uc->last_unit + 1;
    }
    uc->count += (uint32_t)(lu - fu + 1);
    uc->last_unit = lu;
    uc->seen = 1;
}

static void add_segment(unit_counter *sectors, unit_counter *lines, uint32_t *bytes, uint64_t first,
                        uint64_t last)
{
    count_units(sectors, first, last);
    count_units(lines, first, last);
    *bytes += (uint32_t)(last - first + 1);
}

int cl_request_cost(const cl_request *req, cl_cost *out)
{
    uint64_t starts[CL_WARP_SIZE];
    uint32_t n = 0;

    if (!out)
        return -1;
    memset(out, 0, sizeof(*out));
    if (!req || !valid_size(req->size) || req->active == 0)
        return -1;

    for (uint32_t l = 0; l < CL_WARP_SIZE; l++)
        if (req->active & (UINT32_C(1) << l))
            starts[n++] = req->addr[l];
    sort_starts(starts, n);

    unit_counter sectors = {5, 0, 0, 0};
    unit_counter lines = {7, 0, 0, 0};
    uint32_t bytes = 0;
    uint64_t seg_first = starts[0];
    uint64_t seg_last = last_byte(starts[0], req->size);

    for (uint32_t i = 1; i < n; i++) {
        uint64_t first = starts[i];
        uint64_t last = last_byte(first, req->size);
        /* Touching or overlapping the current segment: extend it. Ends ascend with the
         * starts, so the new end is never the smaller. */
        if (seg_last == UINT64_MAX || first <= seg_last + 1) {
            seg_last = last;
            continue;
        }
        add_segment(&sectors, &lines, &bytes, seg_first, seg_last);
        seg_first = first;
        seg_last = last;
    }
    add_segment(&sectors, &lines, &bytes, seg_first, seg_last);

    out->sectors = sectors.count;
    out->lines = lines.count;
    out->unique_bytes = bytes;
    /* At least one lane is active and every size is at least 1, so this is never 0: the
     * max(1, ...) of the definition holds without a clause of its own. */
    out->ideal_sectors = (bytes + CL_SECTOR_BYTES - 1) / CL_SECTOR_BYTES;
    out->active_lanes = popcount32(req->active);
    return 0;
}

void cl_tally_add(cl_tally *t, const cl_cost *c)
{
    t->requests++;
    t->sectors += c->sectors;
    t->lines += c->lines;
    t->unique_bytes += c->unique_bytes;
    t->ideal_sectors += c->ideal_sectors;
}

void cl_tally_merge(cl_tally *into, const cl_tally *from)
{
    into->requests += from->requests;
    into->sectors += from->sectors;
    into->lines += from->lines;
    into->unique_bytes += from->unique_bytes;
    into->ideal_sectors += from->ideal_sectors;
}

double cl_tally_efficiency(const cl_tally *t)
{
    if (t->requests == 0 || t->sectors == 0)
        return 0.0;
    return (double)t->ideal_sectors / (double)t->sectors;
}

double cl_tally_bytes_per_sector(const cl_tally *t)
{
    if (t->requests == 0 || t->sectors == 0)
        return 0.0;
    return (double)t->unique_bytes / ((double)CL_SECTOR_BYTES * (double)t->sectors);
}

double cl_tally_sectors_per_request(const cl_tally *t)
{
    if (t->requests == 0)
        return 0.0;
    return (double)t->sectors / (double)t->requests;
}

void cl_request_strided(cl_request *req, uint64_t base, int64_t offset, int64_t stride_bytes,
                        uint32_t size, uint32_t active)
{
    /* Unsigned arithmetic wraps modulo 2^64, which is the two's-complement sum of the signed
     * offset and stride without the undefined behaviour of signed overflow. */
    uint64_t start = base + (uint64_t)offset;

    for (uint32_t l = 0; l < CL_WARP_SIZE; l++)
        req->addr[l] = start + (uint64_t)l * (uint64_t)stride_bytes;
    req->active = active;
    req->size = size;
}

int cl_request_misaligned(const cl_request *req)
{
    for (int l = 0; l < CL_WARP_SIZE; l++)
        if ((req->active >> l) & 1u && req->size && req->addr[l] % req->size)
            return l;
    return -1;
}
