/* warpfig.c - see warpfig.h. */
#include "warpfig.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SECTORS (CL_WARP_SIZE * 2) /* an access of at most 16 B touches at most 2 */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The distinct sectors (as sector numbers, address / 32) req touches, sorted; returns count. */
static int touched_sectors(const cl_request *req, uint64_t *sectors)
{
    int n = 0;
    for (int l = 0; l < CL_WARP_SIZE; ++l) {
        if (!((req->active >> l) & 1))
            continue;
        uint64_t first = req->addr[l] / CL_SECTOR_BYTES;
        uint64_t last = (req->addr[l] + req->size - 1) / CL_SECTOR_BYTES;
        for (uint64_t s = first; s <= last; ++s) {
            int seen = 0;
            for (int i = 0; i < n && !seen; ++i)
                seen = sectors[i] == s;
            if (!seen && n < MAX_SECTORS)
                sectors[n++] = s;
        }
    }
    qsort(sectors, (size_t)n, sizeof *sectors, cmp_u64);
    return n;
}

/* Whether any active lane asks for byte b. */
static int byte_used(const cl_request *req, uint64_t b)
{
    for (int l = 0; l < CL_WARP_SIZE; ++l)
        if (((req->active >> l) & 1) && b >= req->addr[l] && b < req->addr[l] + req->size)
            return 1;
    return 0;
}

/* One figure being written: the request, the sectors it touches, and the first line's address
 * (every offset shown is from there). */
typedef struct figure {
    FILE *out;
    const cl_request *req;
    uint64_t sectors[MAX_SECTORS];
    int ns;
    uint64_t base;
} figure;

static int active(const figure *f, int lane)
{
    return (f->req->active >> lane) & 1;
}

/* Lanes: one row, each with its offset. */
static void lane_row(const figure *f)
{
    fprintf(f->out, "  { rank=same;\n");
    for (int l = 0; l < CL_WARP_SIZE; ++l)
        if (active(f, l))
            fprintf(f->out,
                    "    lane%d [label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\">"
                    "<TR><TD BGCOLOR=\"#fdd9b5\">%d</TD></TR><TR><TD><FONT POINT-SIZE=\"8\">"
                    "+%" PRIu64 "</FONT></TD></TR></TABLE>>];\n",
                    l, l, f->req->addr[l] - f->base);
    fprintf(f->out, "  }\n");
}

/* Sectors: 8 cells of 4 bytes, shaded where a lane asked for any of them. */
static void sector_row(const figure *f)
{
    fprintf(f->out, "  { rank=same;\n");
    for (int i = 0; i < f->ns; ++i) {
        uint64_t start = f->sectors[i] * CL_SECTOR_BYTES;
        fprintf(f->out,
                "    s%d [label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" CELLSPACING=\"0\"><TR>"
                "<TD COLSPAN=\"8\"><FONT POINT-SIZE=\"8\">sector +%" PRIu64 "</FONT></TD></TR><TR>",
                i, start - f->base);
        for (int w = 0; w < 8; ++w) {
            int used = 0;
            for (int b = 0; b < 4; ++b)
                used |= byte_used(f->req, start + 4 * (uint64_t)w + (uint64_t)b);
            fprintf(f->out, "<TD WIDTH=\"7\" BGCOLOR=\"%s\"> </TD>", used ? "#7fb3e6" : "white");
        }
        fprintf(f->out, "</TR></TABLE>>];\n");
    }
    fprintf(f->out, "  }\n");
}

/* Lines: one node per touched line, with its four sector slots. */
static void line_row(const figure *f)
{
    fprintf(f->out, "  { rank=same;\n");
    uint64_t last_line = UINT64_MAX;
    for (int i = 0; i < f->ns; ++i) {
        uint64_t line = f->sectors[i] * CL_SECTOR_BYTES / CL_LINE_BYTES;
        if (line == last_line)
            continue;
        last_line = line;
        fprintf(
            f->out,
            "    line%" PRIu64 " [label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" "
            "CELLSPACING=\"0\"><TR><TD COLSPAN=\"4\" BGCOLOR=\"#eeeeee\">128-byte line +%" PRIu64
            "</TD></TR><TR>",
            line, line * CL_LINE_BYTES - f->base);
        for (int k = 0; k < 4; ++k) {
            uint64_t s = line * 4 + (uint64_t)k;
            int touched = 0;
            for (int j = 0; j < f->ns && !touched; ++j)
                touched = f->sectors[j] == s;
            fprintf(f->out, "<TD WIDTH=\"14\" BGCOLOR=\"%s\"> </TD>",
                    touched ? "#7fb3e6" : "#dddddd");
        }
        fprintf(f->out, "</TR></TABLE>>];\n");
    }
    fprintf(f->out, "  }\n");
}

/* Invisible chains keep each row in address order, left to right. */
static void row_order(const figure *f)
{
    int prev = -1;
    for (int l = 0; l < CL_WARP_SIZE; ++l) {
        if (!active(f, l))
            continue;
        if (prev >= 0)
            fprintf(f->out, "  lane%d -> lane%d [style=invis];\n", prev, l);
        prev = l;
    }
    for (int i = 1; i < f->ns; ++i)
        fprintf(f->out, "  s%d -> s%d [style=invis];\n", i - 1, i);
    uint64_t prev_line = UINT64_MAX;
    for (int i = 0; i < f->ns; ++i) {
        uint64_t line = f->sectors[i] * CL_SECTOR_BYTES / CL_LINE_BYTES;
        if (prev_line != UINT64_MAX && line != prev_line)
            fprintf(f->out, "  line%" PRIu64 " -> line%" PRIu64 " [style=invis];\n", prev_line,
                    line);
        prev_line = line;
    }
}

/* Edges: lane -> every sector its access touches; sector -> its line. */
static void edges(const figure *f)
{
    const cl_request *req = f->req;
    for (int l = 0; l < CL_WARP_SIZE; ++l) {
        if (!active(f, l))
            continue;
        for (int i = 0; i < f->ns; ++i) {
            uint64_t lo = f->sectors[i] * CL_SECTOR_BYTES;
            if (req->addr[l] < lo + CL_SECTOR_BYTES && req->addr[l] + req->size > lo)
                fprintf(f->out, "  lane%d -> s%d;\n", l, i);
        }
    }
    for (int i = 0; i < f->ns; ++i)
        fprintf(f->out, "  s%d -> line%" PRIu64 " [color=\"#888888\"];\n", i,
                f->sectors[i] * CL_SECTOR_BYTES / CL_LINE_BYTES);
}

int wf_write_dot(FILE *out, const cl_request *req, const char *title)
{
    cl_cost cost;
    if (cl_request_cost(req, &cost) != 0)
        return -1;
    figure f = {.out = out, .req = req};
    f.ns = touched_sectors(req, f.sectors);
    f.base = f.sectors[0] * CL_SECTOR_BYTES / CL_LINE_BYTES * CL_LINE_BYTES;
    fprintf(out, "// %s\n// render: dot -Tsvg FILE.dot -o FILE.svg\n", title);
    fprintf(out, "digraph warp {\n  rankdir=TB; nodesep=0.05; ranksep=0.9;\n"
                 "  node [shape=plaintext, fontname=\"Helvetica\", fontsize=10];\n"
                 "  edge [color=\"#e07b00\", arrowsize=0.4, penwidth=0.8];\n");
    fprintf(out,
            "  label=<<B>%s</B><BR/>%u lanes x %u B: %u sectors touched where %u would carry "
            "the %u bytes asked for: %.1f%% efficient; %u lines>;\n  labelloc=t;\n",
            title, cost.active_lanes, req->size, cost.sectors, cost.ideal_sectors,
            cost.unique_bytes, 100.0 * cost.ideal_sectors / cost.sectors, cost.lines);
    lane_row(&f);
    sector_row(&f);
    line_row(&f);
    row_order(&f);
    edges(&f);
    fprintf(out, "}\n");
    return 0;
}
