/*
 * lab01_explore.c - lab 01's explore run (grade --explore 01): bandwidth against the number of
 * contiguous bytes each group of lanes reads in one warp request, 4 B to 512 B, with the
 * coalescing model's prediction beside each measurement. Prints a table; writes
 * WORKDIR/explore.csv. Then, by the counters, how many bytes the DRAM reads for each sector a
 * sparse read touches at each L2 fetch granularity, and the bandwidth of a whole read in chunks
 * taken in order or shuffled (both printed only).
 */
#include <stdio.h>
#include <stdlib.h>

#include "coalesce.h"
#include "counters.h"
#include "cuda_check.h"
#include "timing.h"
#include "worker.h"

cudaError_t lab01_read_runs(const void *base, size_t requests, unsigned elem_bytes,
                            unsigned run_bytes, size_t run_spacing, float *sink);
cudaError_t lab01_read_chunks(const void *base, size_t bytes, unsigned chunk_bytes, int shuffled,
                              float *sink);

typedef struct point {
    unsigned run_bytes, elem_bytes;
    size_t spacing; /* distance between the starts of two runs */
} point;

typedef struct runs_ctx {
    const void *base;
    size_t requests;
    point p;
    float *sink;
} runs_ctx;

static cudaError_t runs_work(void *ctx)
{
    runs_ctx *c = ctx;
    return lab01_read_runs(c->base, c->requests, c->p.elem_bytes, c->p.run_bytes, c->p.spacing,
                           c->sink);
}

/* The model's view of one request of point p: lanes in groups of run_bytes / elem_bytes. */
static cl_cost predict(point p)
{
    cl_request req = {.active = 0xffffffffu, .size = p.elem_bytes};
    unsigned lanes_per_run = p.run_bytes / p.elem_bytes;
    for (unsigned l = 0; l < 32; ++l)
        req.addr[l] =
            (uint64_t)(l / lanes_per_run) * p.spacing + (l % lanes_per_run) * p.elem_bytes;
    cl_cost c;
    cl_request_cost(&req, &c);
    return c;
}

/* How many bytes the DRAM reads for each 32-byte sector that a sparse read touches, at this
 * GPU's default L2 fetch granularity and at each one a program may ask for
 * (cudaLimitMaxL2FetchGranularity: 32, 64, 128 bytes). The kernel is the first row's, one float
 * per 256 bytes over the footprint: no fetch can bring a sector that another lane then uses, so
 * every byte beyond 32 a sector is fetched for nothing. */
static void fetch_granularity(char *base, float *sink, size_t footprint)
{
    size_t standard = 0;
    CL_CUDA_CHECK(cudaDeviceGetLimit(&standard, cudaLimitMaxL2FetchGranularity));
    printf(
        "\nDRAM bytes read per sector touched (the counters), one float per 256 bytes of 1 GiB:\n");
    printf("%-24s %-14s %-18s %s\n", "L2 fetch granularity", "DRAM read MB", "sectors touched M",
           "bytes a sector");
    const size_t limits[] = {standard, 32, 64, 128};
    const point p = {4, 4, 256};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; ++i) {
        CL_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, limits[i]));
        runs_ctx rc = {
            .base = base, .requests = footprint / (32 * p.spacing), .p = p, .sink = sink};
        static wi_counters res;
        ct_profile(runs_work, &rc, CT_DRAM, &res);
        if (res.status != WI_ENGINE_OK || res.nkernels < 1) {
            printf("(not measured: %s)\n", res.why[0] ? res.why : "no kernel was profiled");
            break;
        }
        double dram = res.kernels[0].v[WI_DRAM_READ_BYTES],
               sectors = res.kernels[0].v[WI_LD_SECTORS];
        char label[48];
        snprintf(label, sizeof label, i == 0 ? "%zu B (this GPU's default)" : "%zu B", limits[i]);
        printf("%-24s %-14.1f %-18.2f %.1f\n", label, dram / 1e6, sectors / 1e6,
               sectors > 0 ? dram / sectors : 0.0);
    }
    CL_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, standard));
}

typedef struct chunks_ctx {
    const void *base;
    size_t bytes;
    unsigned chunk_bytes;
    int shuffled;
    float *sink;
} chunks_ctx;

static cudaError_t chunks_work(void *ctx)
{
    chunks_ctx *c = ctx;
    return lab01_read_chunks(c->base, c->bytes, c->chunk_bytes, c->shuffled, c->sink);
}

/* DRAM rows: the whole footprint read once, every sector whole, in chunks taken in address order
 * or in a shuffled order. The bytes and sectors are the same in every row; what changes is how
 * many bytes in a row the DRAM delivers from one place before the next access lands elsewhere
 * (one of its rows, a "page", opened for each). */
static void dram_rows(char *base, float *sink, size_t footprint, const tm_options *opt, double sol)
{
    static const unsigned chunk[] = {128, 256, 512, 1024, 2048, 4096, 8192, 65536};
    printf("\nThe whole 1 GiB read once in chunks, in order and shuffled (same bytes, same "
           "sectors):\n");
    printf("%-12s %-9s %-10s %-12s %s\n", "chunk bytes", "order", "time ms", "GB/s", "% of copy");
    for (size_t i = 0; i < sizeof chunk / sizeof chunk[0]; ++i)
        for (int shuffled = 0; shuffled < 2; ++shuffled) {
            chunks_ctx cc = {base, footprint, chunk[i], shuffled, sink};
            tm_result t;
            CL_CUDA_CHECK(tm_measure(chunks_work, &cc, opt, &t));
            double bw = (double)footprint / (t.median_ms * 1e-3);
            printf("%-12u %-9s %-10.3f %-12.0f %.1f\n", chunk[i],
                   shuffled ? "shuffled" : "in order", t.median_ms, bw / 1e9, 100 * bw / sol);
        }
}

int lab01_explore(const wk_job *job)
{
    /* Runs start 256 bytes apart (512 and 1024 for the widest), so no two runs share a sector
     * or a line. The last two rows, whose spacing equals the run, read everything: the dense cases
     * (lab01_spec.c's plot relies on this order). */
    static const point points[] = {
        {4, 4, 256},   {8, 4, 256},   {16, 4, 256},    {32, 4, 256},  {64, 4, 256},
        {128, 4, 256}, {256, 8, 512}, {512, 16, 1024}, {128, 4, 128}, {512, 16, 512},
    };
    const size_t footprint = (size_t)1 << 30;
    char *base = NULL;
    float *sink = NULL;
    CL_CUDA_CHECK(cudaMalloc((void **)&base, footprint));
    CL_CUDA_CHECK(cudaMalloc((void **)&sink, sizeof(float)));
    CL_CUDA_CHECK(cudaMemset(base, 0, footprint)); /* zeros: the sum never reaches 1234.5 */

    tm_options opt = {.warmup = 2, .repeats = 9, .flush_bytes = 4 * job->dev.l2_bytes};
    const size_t half = footprint / 2;
    void *dst = NULL;
    CL_CUDA_CHECK(cudaMalloc(&dst, half));
    tm_result copy;
    CL_CUDA_CHECK(wk_time_copy(base, dst, half, &opt, &copy));
    double sol = 2.0 * half / (copy.median_ms * 1e-3);
    cudaFree(dst);

    FILE *csv = wk_explore_csv(job);
    fprintf(csv, "run_bytes,elem_bytes,spacing_bytes,sectors_per_request,model_efficiency,"
                 "nsight_bytes_per_sector,median_ms,useful_gb_s,percent_of_copy\n");
    printf("lab 01 explore on %s: %.0f GB/s same-run copy (read + write), 1 GiB footprint\n",
           job->dev.name, sol / 1e9);
    printf("%-10s %-6s %-9s %-10s %-11s %-10s %-12s %s\n", "run bytes", "elem", "spacing",
           "sect/req", "model eff", "time ms", "useful GB/s", "% of copy");
    for (size_t i = 0; i < sizeof points / sizeof points[0]; ++i) {
        point p = points[i];
        unsigned runs_per_request = 32 / (p.run_bytes / p.elem_bytes);
        runs_ctx rc = {.base = base,
                       .requests = footprint / (runs_per_request * p.spacing),
                       .p = p,
                       .sink = sink};
        tm_result t;
        CL_CUDA_CHECK(tm_measure(runs_work, &rc, &opt, &t));
        cl_cost c = predict(p);
        cl_tally tally = {0};
        cl_tally_add(&tally, &c);
        double useful = (double)rc.requests * 32 * p.elem_bytes;
        double bw = useful / (t.median_ms * 1e-3);
        printf("%-10u %-6u %-9zu %-10u %-11.1f %-10.3f %-12.0f %.1f\n", p.run_bytes, p.elem_bytes,
               p.spacing, c.sectors, 100 * cl_tally_efficiency(&tally), t.median_ms, bw / 1e9,
               100 * bw / sol);
        fprintf(csv, "%u,%u,%zu,%u,%.4f,%.4f,%.4f,%.1f,%.2f\n", p.run_bytes, p.elem_bytes,
                p.spacing, c.sectors, cl_tally_efficiency(&tally),
                cl_tally_bytes_per_sector(&tally), t.median_ms, bw / 1e9, 100 * bw / sol);
    }
    fclose(csv);
    fetch_granularity(base, sink, footprint);
    dram_rows(base, sink, footprint, &opt, sol);
    cudaFree(base);
    cudaFree(sink);
    return 0;
}
