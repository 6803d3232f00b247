/*
 * lab07_explore.c - lab 07's explore run (grade --explore 07): the lab's pixel adjustment on
 * images 3999 rows high and 992 to 1024 floats wide, rows packed and rows pitched
 * (cudaMallocPitch). For each: the model's prediction of the loads' sectors per request and
 * efficiency, the hardware counters' measurement (when this machine lets the grader read
 * them), and the time. Prints a table; writes WORKDIR/explore.csv.
 */
#include <stdio.h>

#include "coalesce.h"
#include "counters.h"
#include "cuda_check.h"
#include "timing.h"
#include "worker.h"

cudaError_t lab07_rows(const float *in, float *out, size_t pitch, int width, int height);

typedef struct rows_ctx {
    const float *in;
    float *out;
    size_t pitch;
    int width, height;
} rows_ctx;

static cudaError_t rows_work(void *ctx)
{
    rows_ctx *x = ctx;
    return lab07_rows(x->in, x->out, x->pitch, x->width, x->height);
}

/* What the model predicts for the loads of the whole image: every warp of every row. */
static cl_tally model(size_t pitch, int width, int height)
{
    cl_tally t = {0};
    for (int r = 0; r < height; ++r)
        for (int c0 = 0; c0 < width; c0 += 32) {
            int lanes = width - c0 < 32 ? width - c0 : 32;
            cl_request req;
            uint32_t active = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
            cl_request_strided(&req, 0, (int64_t)(r * pitch + 4 * (size_t)c0), 4, 4, active);
            cl_cost cost;
            cl_request_cost(&req, &cost);
            cl_tally_add(&t, &cost);
        }
    return t;
}

int lab07_explore(const wk_job *job)
{
    static const int widths[] = {992, 993, 996, 1000, 1001, 1002, 1004, 1008, 1016, 1023, 1024};
    const int height = 3999;
    tm_options opt = {.warmup = 2, .repeats = 9, .flush_bytes = 4 * job->dev.l2_bytes};
    FILE *csv = wk_explore_csv(job);
    fprintf(csv, "width,layout,pitch_bytes,model_sectors_per_request,model_efficiency,"
                 "counters_sectors_per_request,counters_efficiency,median_us\n");
    printf("lab 07 explore on %s: out = clamp(in * 1.5 - 0.1), %d rows, packed and pitched\n",
           job->dev.name, height);
    printf("%-6s %-8s %-6s %-22s %-22s %s\n", "width", "layout", "pitch", "model sec/req  eff",
           "counters sec/req  eff", "time us");
    int warned = 0;
    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; ++i) {
        for (int pitched = 0; pitched < 2; ++pitched) {
            int w = widths[i];
            rows_ctx x = {.width = w, .height = height};
            if (pitched) {
                CL_CUDA_CHECK(cudaMallocPitch((void **)&x.in, &x.pitch, w * sizeof(float), height));
                size_t p2;
                CL_CUDA_CHECK(cudaMallocPitch((void **)&x.out, &p2, w * sizeof(float), height));
            } else {
                x.pitch = w * sizeof(float);
                CL_CUDA_CHECK(cudaMalloc((void **)&x.in, x.pitch * height));
                CL_CUDA_CHECK(cudaMalloc((void **)&x.out, x.pitch * height));
            }
            CL_CUDA_CHECK(cudaMemset((void *)x.in, 0, x.pitch * height));
            tm_result t;
            CL_CUDA_CHECK(tm_measure(rows_work, &x, &opt, &t));
            static wi_counters res;
            ct_profile(rows_work, &x, CT_GLOBAL, &res);
            cl_tally m = model(x.pitch, w, height);
            double spr = -1, eff = -1;
            if (res.status == WI_ENGINE_OK && res.nkernels == 1 &&
                res.kernels[0].v[WI_LD_SECTORS] > 0) {
                spr = res.kernels[0].v[WI_LD_SECTORS] / res.kernels[0].v[WI_LD_REQUESTS];
                eff = res.kernels[0].v[WI_LD_BYTES] / (32.0 * res.kernels[0].v[WI_LD_SECTORS]);
            } else if (!warned++) {
                fprintf(stderr, "counters: %s\n", res.why);
            }
            char measured[64] = "-";
            if (spr >= 0)
                snprintf(measured, sizeof measured, "%5.2f  %5.1f%%", spr, 100 * eff);
            printf("%-6d %-8s %-6zu %5.2f  %5.1f%%          %-22s %.1f\n", w,
                   pitched ? "pitched" : "packed", x.pitch, cl_tally_sectors_per_request(&m),
                   100 * cl_tally_efficiency(&m), measured, 1e3 * t.median_ms);
            fprintf(csv, "%d,%s,%zu,%.4f,%.4f,%.4f,%.4f,%.1f\n", w, pitched ? "pitched" : "packed",
                    x.pitch, cl_tally_sectors_per_request(&m), cl_tally_efficiency(&m), spr, eff,
                    1e3 * t.median_ms);
            cudaFree((void *)x.in);
            cudaFree(x.out);
        }
    }
    fclose(csv);
    return 0;
}
