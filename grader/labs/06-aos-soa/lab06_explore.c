/*
 * lab06_explore.c - lab 06's explore run (grade --explore 06): one time step of 4194304
 * particles in three layouts, reading 6 of the 8 fields and then all 8. For each: the time,
 * the useful bandwidth (the fields the step reads and writes, the same bytes in every layout),
 * and the loads' and stores' efficiency as the hardware counters measure them (when this
 * machine lets the grader read them). Prints a table; writes WORKDIR/explore.csv.
 */
#include <stdio.h>

#include "counters.h"
#include "cuda_check.h"
#include "timing.h"
#include "worker.h"

cudaError_t lab06_layout_step(int way, int fields, float *p, int n);

typedef struct step_ctx {
    int way, fields, n;
    float *p;
} step_ctx;

static cudaError_t step_work(void *ctx)
{
    step_ctx *x = ctx;
    return lab06_layout_step(x->way, x->fields, x->p, x->n);
}

static void cell(char *buf, size_t size, double sectors, double bytes)
{
    if (sectors > 0)
        snprintf(buf, size, "%.1f%%", 100 * bytes / (32.0 * sectors));
    else
        snprintf(buf, size, "-");
}

int lab06_explore(const wk_job *job)
{
    static const char *const layouts[] = {"AoS (structures)", "SoA (arrays)",
                                          "AoSoA (32-particle tiles)"};
    const int n = 1 << 22;
    float *p = NULL;
    CL_CUDA_CHECK(cudaMalloc((void **)&p, (size_t)n * 8 * sizeof(float)));
    /* Every byte 0x3f: every float 0.747, so no mass is zero in the 8-field step. */
    CL_CUDA_CHECK(cudaMemset(p, 0x3f, (size_t)n * 8 * sizeof(float)));
    tm_options opt = {.warmup = 2, .repeats = 15, .flush_bytes = 4 * job->dev.l2_bytes};
    FILE *csv = wk_explore_csv(job);
    fprintf(csv, "layout,fields_read,median_us,useful_gb_s,ld_efficiency,st_efficiency\n");
    printf("lab 06 explore on %s: one step of %d particles (%.0f MB as structures)\n",
           job->dev.name, n, n * 32.0 / 1e6);
    printf("%-27s %-7s %9s %12s %8s %8s\n", "layout", "fields", "time us", "useful GB/s", "ld eff",
           "st eff");
    int warned = 0;
    for (int fields = 6; fields <= 8; fields += 2) {
        for (int way = 0; way < 3; ++way) {
            step_ctx x = {.way = way, .fields = fields, .n = n, .p = p};
            tm_result t;
            CL_CUDA_CHECK(tm_measure(step_work, &x, &opt, &t));
            static wi_counters res;
            ct_profile(step_work, &x, CT_GLOBAL, &res);
            char ld[32] = "-", st[32] = "-";
            double lde = -1, ste = -1;
            if (res.status == WI_ENGINE_OK && res.nkernels == 1) {
                const wi_counter_kernel *k = &res.kernels[0];
                cell(ld, sizeof ld, k->v[WI_LD_SECTORS], k->v[WI_LD_BYTES]);
                cell(st, sizeof st, k->v[WI_ST_SECTORS], k->v[WI_ST_BYTES]);
                lde =
                    k->v[WI_LD_SECTORS] > 0 ? k->v[WI_LD_BYTES] / (32.0 * k->v[WI_LD_SECTORS]) : -1;
                ste =
                    k->v[WI_ST_SECTORS] > 0 ? k->v[WI_ST_BYTES] / (32.0 * k->v[WI_ST_SECTORS]) : -1;
            } else if (!warned++) {
                fprintf(stderr, "counters: %s\n", res.why);
            }
            /* 6 fields: 6 read, 4 written; 8 fields: 8 read, 6 written. */
            double useful = (double)n * sizeof(float) * (fields == 6 ? 10 : 14);
            double gbs = useful / (t.median_ms * 1e-3) / 1e9;
            printf("%-27s %-7d %9.1f %12.0f %8s %8s\n", layouts[way], fields, 1e3 * t.median_ms,
                   gbs, ld, st);
            fprintf(csv, "%s,%d,%.1f,%.1f,%.4f,%.4f\n", layouts[way], fields, 1e3 * t.median_ms,
                    gbs, lde, ste);
        }
    }
    fclose(csv);
    cudaFree(p);
    return 0;
}
