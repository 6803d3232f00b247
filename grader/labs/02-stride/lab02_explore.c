/*
 * lab02_explore.c - lab 02's explore run (grade --explore 02): efficiency and bandwidth of
 * reads `stride` 4-byte words apart, stride 1 to 64; the coalescing model's prediction beside
 * the hardware counters' measurement (when this machine lets the grader read them) and the
 * timing. Prints a table; writes WORKDIR/explore.csv.
 */
#include <stdio.h>

#include "coalesce.h"
#include "counters.h"
#include "cuda_check.h"
#include "timing.h"
#include "worker.h"

cudaError_t lab02_strided_copy(const float *in, float *out, size_t n, unsigned stride);

typedef struct stride_ctx {
    const float *in;
    float *out;
    size_t n;
    unsigned stride;
} stride_ctx;

static cudaError_t stride_work(void *ctx)
{
    stride_ctx *c = ctx;
    return lab02_strided_copy(c->in, c->out, c->n, c->stride);
}

int lab02_explore(const wk_job *job)
{
    static const unsigned strides[] = {1, 2, 3, 4, 5, 6, 8, 12, 16, 24, 32, 48, 64};
    const size_t n = (size_t)1 << 22; /* 16 MiB read and written per run */
    float *in = NULL, *out = NULL;
    CL_CUDA_CHECK(cudaMalloc((void **)&in, n * 64 * sizeof(float)));
    CL_CUDA_CHECK(cudaMalloc((void **)&out, n * sizeof(float)));
    CL_CUDA_CHECK(cudaMemset(in, 0, n * 64 * sizeof(float)));

    tm_options opt = {.warmup = 2, .repeats = 9, .flush_bytes = 4 * job->dev.l2_bytes};

    tm_result copy;
    CL_CUDA_CHECK(wk_time_copy(in, out, n * sizeof(float), &opt, &copy));
    double sol = 2.0 * n * sizeof(float) / (copy.median_ms * 1e-3);

    FILE *csv = wk_explore_csv(job);
    fprintf(csv, "stride,model_sectors_per_request,model_efficiency,counters_efficiency,"
                 "counters_sectors_per_request,median_ms,useful_gb_s,percent_of_copy\n");
    printf("lab 02 explore on %s: reads 'stride' words apart, writes consecutive; %.0f GB/s "
           "same-run copy\n",
           job->dev.name, sol / 1e9);
    printf("%-7s %-9s %-10s %-13s %-13s %-9s %-12s %s\n", "stride", "model", "model eff",
           "counters", "counters eff", "time ms", "useful GB/s", "% of copy");
    int counters_ok = 1;
    for (size_t i = 0; i < sizeof strides / sizeof strides[0]; ++i) {
        stride_ctx sc = {.in = in, .out = out, .n = n, .stride = strides[i]};
        tm_result t;
        CL_CUDA_CHECK(tm_measure(stride_work, &sc, &opt, &t));
        cl_request req;
        cl_request_strided(&req, 0, 0, 4 * (int64_t)strides[i], 4, 0xffffffffu);
        cl_cost cost;
        cl_request_cost(&req, &cost);
        cl_tally model = {0};
        cl_tally_add(&model, &cost);
        double ct_eff = -1, ct_spr = -1;
        if (counters_ok) {
            static wi_counters res;
            ct_profile(stride_work, &sc, CT_GLOBAL, &res);
            if (res.status == WI_ENGINE_OK && res.nkernels == 1 &&
                res.kernels[0].v[WI_LD_SECTORS] > 0) {
                ct_eff = res.kernels[0].v[WI_LD_BYTES] / (32.0 * res.kernels[0].v[WI_LD_SECTORS]);
                ct_spr = res.kernels[0].v[WI_LD_SECTORS] / res.kernels[0].v[WI_LD_REQUESTS];
            } else {
                counters_ok = 0; /* say it once, below */
                fprintf(stderr, "counters: %s\n", res.why);
            }
        }
        double useful = 2.0 * n * sizeof(float);
        double bw = useful / (t.median_ms * 1e-3);
        char ct_a[32] = "-", ct_b[32] = "-";
        if (ct_spr >= 0) {
            snprintf(ct_a, sizeof ct_a, "%.1f sect/req", ct_spr);
            snprintf(ct_b, sizeof ct_b, "%.1f", 100 * ct_eff);
        }
        printf("%-7u %-9u %-10.1f %-13s %-13s %-9.3f %-12.0f %.1f\n", strides[i], cost.sectors,
               100 * cl_tally_efficiency(&model), ct_a, ct_b, t.median_ms, bw / 1e9,
               100 * bw / sol);
        fprintf(csv, "%u,%u,%.4f,%.4f,%.2f,%.4f,%.1f,%.2f\n", strides[i], cost.sectors,
                cl_tally_efficiency(&model), ct_eff, ct_spr, t.median_ms, bw / 1e9, 100 * bw / sol);
    }
    fclose(csv);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
