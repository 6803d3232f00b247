/*
 * lab04_explore.c - lab 04's explore run (grade --explore 04): the lab's product five ways,
 * each timed, with the speed-up over the naive kernel with x on the columns (the speed gate's
 * baseline) and the loads' and stores' sectors per request and efficiency as the hardware
 * counters measure them (Nsight Compute's definition: a broadcast load counts 4 useful bytes
 * of its 32-byte sector), and cuBLAS's SGEMM on the same matrices where libcublas is found
 * (shown, never graded; checked against the tiled kernel's product). Prints a table; writes
 * WORKDIR/explore.csv.
 */
#include <stdio.h>
#include <stdlib.h>

#include "counters.h"
#include "cublas.h"
#include "cuda_check.h"
#include "lab04_data.h"
#include "timing.h"
#include "worker.h"

cudaError_t lab04_naive(int x_on_columns, const float *a, const float *b, float *c, int m, int n,
                        int k);
cudaError_t lab04_tiled(int tile, const float *a, const float *b, float *c, int m, int n, int k);
cudaError_t lab04_tiled_coarse(const float *a, const float *b, float *c, int m, int n, int k);

typedef struct mm_ctx {
    int way;
    const float *a, *b;
    float *c;
    wk_cublas *blas; /* way 5, where libcublas is found */
} mm_ctx;

#define WAYS 5 /* the project's own kernels; way WAYS is cuBLAS */

static cudaError_t mm_work(void *ctx)
{
    mm_ctx *x = ctx;
    const int m = LAB04_M, n = LAB04_N, k = LAB04_K;
    switch (x->way) {
    case 0:
        return lab04_naive(0, x->a, x->b, x->c, m, n, k);
    case 1:
        return lab04_naive(1, x->a, x->b, x->c, m, n, k);
    case 2:
        return lab04_tiled(16, x->a, x->b, x->c, m, n, k);
    case 3:
        return lab04_tiled(32, x->a, x->b, x->c, m, n, k);
    case 4:
        return lab04_tiled_coarse(x->a, x->b, x->c, m, n, k);
    default:
        return wk_cublas_sgemm(x->blas, 0, x->a, x->b, x->c, m, n, k);
    }
}

/* "12.3" and "45.6%" from a kernel's counters, or "-" when there are none. */
static void cell(char *spr, char *eff, size_t size, double requests, double sectors, double bytes)
{
    if (requests > 0 && sectors > 0) {
        snprintf(spr, size, "%.1f", sectors / requests);
        snprintf(eff, size, "%.1f%%", 100 * bytes / (32.0 * sectors));
    } else {
        snprintf(spr, size, "-");
        snprintf(eff, size, "-");
    }
}

int lab04_explore(const wk_job *job)
{
    static const char *const ways[] = {"naive, x on rows (the stub)",
                                       "naive, x on columns (baseline)",
                                       "tiled 16 x 16",
                                       "tiled 32 x 32 (the solution)",
                                       "tiled 32 x 32, 4 outputs a thread",
                                       "cuBLAS SGEMM (not graded)"};
    const int m = LAB04_M, n = LAB04_N, k = LAB04_K;
    size_t a_bytes = (size_t)m * k * sizeof(float), b_bytes = (size_t)k * n * sizeof(float);
    float *ha = malloc(a_bytes), *hb = malloc(b_bytes);
    if (!ha || !hb) {
        fprintf(stderr, "out of host memory\n");
        return CL_EXIT_IO;
    }
    lab04_fill(job->data_seed, ha, hb, m, n, k);
    mm_ctx x = {0};
    CL_CUDA_CHECK(cudaMalloc((void **)&x.a, a_bytes));
    CL_CUDA_CHECK(cudaMalloc((void **)&x.b, b_bytes));
    CL_CUDA_CHECK(cudaMalloc((void **)&x.c, (size_t)m * n * sizeof(float)));
    CL_CUDA_CHECK(cudaMemcpy((void *)x.a, ha, a_bytes, cudaMemcpyHostToDevice));
    CL_CUDA_CHECK(cudaMemcpy((void *)x.b, hb, b_bytes, cudaMemcpyHostToDevice));
    free(ha);
    free(hb);
    tm_options opt = {.warmup = 2, .repeats = 15, .flush_bytes = 4 * job->dev.l2_bytes};

    FILE *csv = wk_explore_csv(job);
    fprintf(csv, "way,median_us,gflop_s,speedup_vs_naive_x_on_columns,ld_sectors_per_request,"
                 "ld_efficiency_nsight,st_sectors_per_request,st_efficiency_nsight\n");
    double flop = 2.0 * m * n * k;
    printf("lab 04 explore on %s: C = A B, %d x %d times %d x %d (%.1f GFLOP)\n", job->dev.name, m,
           k, k, n, flop / 1e9);
    printf("%-32s %9s %8s %8s %10s %9s %10s %9s\n", "kernel", "time us", "GFLOP/s", "speed-up",
           "ld sec/req", "ld eff", "st sec/req", "st eff");
    double base_ms = 0;
    tm_result t[WAYS + 1];
    char blas_why[160] = "";
    double blas_diff = -1;
    int ways_run = WAYS;
    if (wk_cublas_open(&x.blas, blas_why, sizeof blas_why) == 0) {
        /* The library's product against the solution's tiled kernel's, before any timing. */
        float *mine = NULL;
        size_t c_count = (size_t)m * n;
        CL_CUDA_CHECK(cudaMalloc((void **)&mine, c_count * sizeof(float)));
        x.way = 3;
        CL_CUDA_CHECK(mm_work(&x));
        CL_CUDA_CHECK(cudaMemcpy(mine, x.c, c_count * sizeof(float), cudaMemcpyDeviceToDevice));
        x.way = WAYS;
        CL_CUDA_CHECK(mm_work(&x));
        CL_CUDA_CHECK(cudaDeviceSynchronize());
        blas_diff = wk_relative_difference(x.c, mine, c_count);
        cudaFree(mine);
        ways_run = WAYS + 1;
    }
    for (int w = 0; w < ways_run; ++w) {
        x.way = w;
        CL_CUDA_CHECK(tm_measure(mm_work, &x, &opt, &t[w]));
        if (w == 1)
            base_ms = t[w].median_ms;
    }
    for (int w = 0; w < ways_run; ++w) {
        x.way = w;
        static wi_counters res;
        ct_profile(mm_work, &x, CT_GLOBAL, &res);
        char lspr[32], leff[32], sspr[32], seff[32];
        int have = res.status == WI_ENGINE_OK && res.nkernels == 1;
        const wi_counter_kernel *kc = &res.kernels[0];
        cell(lspr, leff, sizeof lspr, have ? kc->v[WI_LD_REQUESTS] : 0, kc->v[WI_LD_SECTORS],
             kc->v[WI_LD_BYTES]);
        cell(sspr, seff, sizeof sspr, have ? kc->v[WI_ST_REQUESTS] : 0, kc->v[WI_ST_SECTORS],
             kc->v[WI_ST_BYTES]);
        double speedup = base_ms / t[w].median_ms;
        printf("%-32s %9.0f %8.0f %7.2fx %10s %9s %10s %9s\n", ways[w], 1e3 * t[w].median_ms,
               flop / (t[w].median_ms * 1e-3) / 1e9, speedup, lspr, leff, sspr, seff);
        fprintf(
            csv, "%s,%.1f,%.1f,%.3f,%.2f,%.4f,%.2f,%.4f\n", ways[w], 1e3 * t[w].median_ms,
            flop / (t[w].median_ms * 1e-3) / 1e9, speedup,
            have && kc->v[WI_LD_REQUESTS] > 0 ? kc->v[WI_LD_SECTORS] / kc->v[WI_LD_REQUESTS] : -1,
            have && kc->v[WI_LD_SECTORS] > 0 ? kc->v[WI_LD_BYTES] / (32.0 * kc->v[WI_LD_SECTORS])
                                             : -1,
            have && kc->v[WI_ST_REQUESTS] > 0 ? kc->v[WI_ST_SECTORS] / kc->v[WI_ST_REQUESTS] : -1,
            have && kc->v[WI_ST_SECTORS] > 0 ? kc->v[WI_ST_BYTES] / (32.0 * kc->v[WI_ST_SECTORS])
                                             : -1);
        if (res.status != WI_ENGINE_OK && w == 0)
            fprintf(stderr, "counters: %s\n", res.why);
    }
    printf("speed-up: the time of the naive kernel with x on the columns (%.0f us, the speed "
           "gate's baseline) over each kernel's time\n",
           1e3 * base_ms);
    wk_cublas_note(x.blas, blas_why, "product is the tiled kernel's", blas_diff);
    wk_cublas_close(x.blas);
    fclose(csv);
    cudaFree((void *)x.a);
    cudaFree((void *)x.b);
    cudaFree(x.c);
    return 0;
}
