/*
 * lab05_explore.c - lab 05's explore run (grade --explore 05): the lab's transpose and A^T B,
 * three ways each, at the graded sizes. For each: the time, and from the hardware counters
 * (when this machine lets the grader read them) the global loads' and stores' efficiency and the
 * shared-memory bank conflicts per shared load and store; and cuBLAS's SGEMM on the same A^T B
 * where libcublas is found (shown, never graded; checked against the padded kernel's product).
 * Prints a table; writes WORKDIR/explore.csv.
 */
#include <stdio.h>

#include "counters.h"
#include "cublas.h"
#include "cuda_check.h"
#include "lab05_data.h"
#include "timing.h"
#include "worker.h"

cudaError_t lab05_transpose_way(int way, const float *in, float *out, int rows, int cols);
cudaError_t lab05_matmul_way(int way, const float *a, const float *b, float *c, int m, int n,
                             int k);

typedef struct ex_ctx {
    int matmul, way;
    const float *a, *b, *t;
    float *c, *t_out;
    wk_cublas *blas; /* A^T B's way 3, where libcublas is found */
} ex_ctx;

static cudaError_t ex_work(void *ctx)
{
    ex_ctx *x = ctx;
    if (x->matmul && x->way == 3)
        return wk_cublas_sgemm(x->blas, 1, x->a, x->b, x->c, LAB05_M, LAB05_N, LAB05_K);
    if (x->matmul)
        return lab05_matmul_way(x->way, x->a, x->b, x->c, LAB05_M, LAB05_N, LAB05_K);
    return lab05_transpose_way(x->way, x->t, x->t_out, LAB05_ROWS, LAB05_COLS);
}

static void pct(char *buf, size_t size, double sectors, double bytes)
{
    if (sectors > 0)
        snprintf(buf, size, "%.1f%%", 100 * bytes / (32.0 * sectors));
    else
        snprintf(buf, size, "-");
}

static void per(char *buf, size_t size, double conflicts, double requests)
{
    if (requests > 0)
        snprintf(buf, size, "%.2f", conflicts / requests);
    else
        snprintf(buf, size, "-");
}

int lab05_explore(const wk_job *job)
{
    static const char *const names[2][4] = {
        {"transpose, naive (the stub)", "transpose, tiled 32 x 32", "transpose, tiled, padded"},
        {"A^T B, strided copy (the stub)", "A^T B, corner-turned", "A^T B, turned, padded",
         "A^T B, cuBLAS (not graded)"}};
    ex_ctx x = {0};
    size_t na = (size_t)LAB05_K * LAB05_M, nb = (size_t)LAB05_K * LAB05_N;
    size_t nc = (size_t)LAB05_M * LAB05_N, nt = (size_t)LAB05_ROWS * LAB05_COLS;
    CL_CUDA_CHECK(cudaMalloc((void **)&x.a, na * sizeof(float)));
    CL_CUDA_CHECK(cudaMalloc((void **)&x.b, nb * sizeof(float)));
    CL_CUDA_CHECK(cudaMalloc((void **)&x.c, nc * sizeof(float)));
    CL_CUDA_CHECK(cudaMalloc((void **)&x.t, nt * sizeof(float)));
    CL_CUDA_CHECK(cudaMalloc((void **)&x.t_out, nt * sizeof(float)));
    CL_CUDA_CHECK(cudaMemset((void *)x.a, 0x3f, na * sizeof(float)));
    CL_CUDA_CHECK(cudaMemset((void *)x.b, 0x3f, nb * sizeof(float)));
    CL_CUDA_CHECK(cudaMemset((void *)x.t, 0x3f, nt * sizeof(float)));
    tm_options opt = {.warmup = 2, .repeats = 15, .flush_bytes = 4 * job->dev.l2_bytes};
    FILE *csv = wk_explore_csv(job);
    fprintf(csv, "kernel,median_us,ld_efficiency,st_efficiency,shared_ld_conflicts_per_request,"
                 "shared_st_conflicts_per_request\n");
    printf("lab 05 explore on %s: transpose of %d x %d; A^T B with A %d x %d, B %d x %d\n",
           job->dev.name, LAB05_ROWS, LAB05_COLS, LAB05_K, LAB05_M, LAB05_K, LAB05_N);
    printf("%-31s %9s %8s %8s %14s %14s\n", "kernel", "time us", "ld eff", "st eff",
           "shared ld conf", "shared st conf");
    char blas_why[160] = "";
    double blas_diff = -1;
    if (wk_cublas_open(&x.blas, blas_why, sizeof blas_why) == 0) {
        /* The library's A^T B against the padded kernel's, before any timing. */
        float *mine = NULL;
        CL_CUDA_CHECK(cudaMalloc((void **)&mine, nc * sizeof(float)));
        x.matmul = 1;
        x.way = 2;
        CL_CUDA_CHECK(ex_work(&x));
        CL_CUDA_CHECK(cudaMemcpy(mine, x.c, nc * sizeof(float), cudaMemcpyDeviceToDevice));
        x.way = 3;
        CL_CUDA_CHECK(ex_work(&x));
        CL_CUDA_CHECK(cudaDeviceSynchronize());
        blas_diff = wk_relative_difference(x.c, mine, nc);
        cudaFree(mine);
    }
    int warned = 0;
    for (x.matmul = 0; x.matmul < 2; ++x.matmul)
        for (x.way = 0; x.way < (x.matmul && x.blas ? 4 : 3); ++x.way) {
            tm_result t;
            CL_CUDA_CHECK(tm_measure(ex_work, &x, &opt, &t));
            static wi_counters res;
            ct_profile(ex_work, &x, CT_SHARED, &res);
            char ld[32] = "-", st[32] = "-", shl[32] = "-", shs[32] = "-";
            wi_counter_kernel k = {0};
            if (res.status == WI_ENGINE_OK && res.nkernels == 1) {
                k = res.kernels[0];
                pct(ld, sizeof ld, k.v[WI_LD_SECTORS], k.v[WI_LD_BYTES]);
                pct(st, sizeof st, k.v[WI_ST_SECTORS], k.v[WI_ST_BYTES]);
                per(shl, sizeof shl, k.v[WI_SH_LD_CONFLICTS], k.v[WI_SH_LD_REQUESTS]);
                per(shs, sizeof shs, k.v[WI_SH_ST_CONFLICTS], k.v[WI_SH_ST_REQUESTS]);
            } else if (!warned++) {
                fprintf(stderr, "counters: %s\n", res.why);
            }
            printf("%-31s %9.1f %8s %8s %14s %14s\n", names[x.matmul][x.way], 1e3 * t.median_ms, ld,
                   st, shl, shs);
            fprintf(
                csv, "%s,%.1f,%.4f,%.4f,%.3f,%.3f\n", names[x.matmul][x.way], 1e3 * t.median_ms,
                k.v[WI_LD_SECTORS] > 0 ? k.v[WI_LD_BYTES] / (32 * k.v[WI_LD_SECTORS]) : -1,
                k.v[WI_ST_SECTORS] > 0 ? k.v[WI_ST_BYTES] / (32 * k.v[WI_ST_SECTORS]) : -1,
                k.v[WI_SH_LD_REQUESTS] > 0 ? k.v[WI_SH_LD_CONFLICTS] / k.v[WI_SH_LD_REQUESTS] : -1,
                k.v[WI_SH_ST_REQUESTS] > 0 ? k.v[WI_SH_ST_CONFLICTS] / k.v[WI_SH_ST_REQUESTS] : -1);
        }
    wk_cublas_note(x.blas, blas_why, "A^T B is the padded kernel's", blas_diff);
    wk_cublas_close(x.blas);
    fclose(csv);
    cudaFree((void *)x.a);
    cudaFree((void *)x.b);
    cudaFree(x.c);
    cudaFree((void *)x.t);
    cudaFree(x.t_out);
    return 0;
}
