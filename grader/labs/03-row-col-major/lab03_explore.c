/*
 * lab03_explore.c - lab 03's explore run (grade --explore 03): sums of a 4096 x 4096
 * row-major matrix three ways, each timed, with its load efficiency and sectors per request
 * as the hardware counters measure them (when this machine lets the grader read them).
 * Prints a table; writes WORKDIR/explore.csv.
 */
#include <stdio.h>

#include "counters.h"
#include "cuda_check.h"
#include "timing.h"
#include "worker.h"

cudaError_t lab03_sums(int way, const float *a, float *out, int rows, int cols);

typedef struct sums_ctx {
    int way;
    const float *a;
    float *out;
    int rows, cols;
} sums_ctx;

static cudaError_t sums_work(void *ctx)
{
    sums_ctx *c = ctx;
    return lab03_sums(c->way, c->a, c->out, c->rows, c->cols);
}

int lab03_explore(const wk_job *job)
{
    static const char *const ways[] = {"row sums, thread per row", "column sums, thread per column",
                                       "row sums, warp per row"};
    const int side = 4096;
    float *a = NULL, *out = NULL;
    size_t bytes = (size_t)side * side * sizeof(float);
    CL_CUDA_CHECK(cudaMalloc((void **)&a, bytes));
    CL_CUDA_CHECK(cudaMalloc((void **)&out, side * sizeof(float)));
    CL_CUDA_CHECK(cudaMemset(a, 0, bytes));
    tm_options opt = {.warmup = 2, .repeats = 9, .flush_bytes = 4 * job->dev.l2_bytes};

    FILE *csv = wk_explore_csv(job);
    fprintf(csv, "way,median_us,gb_s,counters_sectors_per_request,counters_efficiency\n");
    printf("lab 03 explore on %s: sums of a %d x %d row-major matrix (%.0f MB)\n", job->dev.name,
           side, side, bytes / 1e6);
    printf("%-32s %-10s %-8s %-14s %s\n", "mapping", "time us", "GB/s", "sectors/req",
           "efficiency");
    for (int w = 0; w < 3; ++w) {
        sums_ctx sc = {.way = w, .a = a, .out = out, .rows = side, .cols = side};
        tm_result t;
        CL_CUDA_CHECK(tm_measure(sums_work, &sc, &opt, &t));
        static wi_counters res;
        ct_profile(sums_work, &sc, CT_GLOBAL, &res);
        double spr = -1, eff = -1;
        if (res.status == WI_ENGINE_OK && res.nkernels == 1 &&
            res.kernels[0].v[WI_LD_REQUESTS] > 0) {
            spr = res.kernels[0].v[WI_LD_SECTORS] / res.kernels[0].v[WI_LD_REQUESTS];
            eff = res.kernels[0].v[WI_LD_BYTES] / (32.0 * res.kernels[0].v[WI_LD_SECTORS]);
        }
        double gbs = bytes / (t.median_ms * 1e-3) / 1e9;
        char a1[32] = "-", a2[32] = "-";
        if (spr >= 0) {
            snprintf(a1, sizeof a1, "%.1f", spr);
            snprintf(a2, sizeof a2, "%.1f%%", 100 * eff);
        }
        printf("%-32s %-10.0f %-8.0f %-14s %s\n", ways[w], 1e3 * t.median_ms, gbs, a1, a2);
        fprintf(csv, "%s,%.1f,%.1f,%.2f,%.4f\n", ways[w], 1e3 * t.median_ms, gbs, spr, eff);
        if (res.status != WI_ENGINE_OK && w == 0)
            fprintf(stderr, "counters: %s\n", res.why);
    }
    fclose(csv);
    cudaFree(a);
    cudaFree(out);
    return 0;
}
