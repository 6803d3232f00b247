/* trace_analysis.c - see trace_analysis.h. */
#include "trace_analysis.h"

#include <stdlib.h>
#include <string.h>

static int by_pc(const void *a, const void *b)
{
    const ta_instruction *x = a, *y = b;
    if (x->pc != y->pc)
        return x->pc < y->pc ? -1 : 1;
    return x->is_store - y->is_store;
}

/* The instruction for (pc, is_store), added when new. Linear search: kernels have few. */
static ta_instruction *find(ta_kernel *k, size_t *cap, uint64_t pc, int is_store)
{
    for (size_t i = 0; i < k->nins; ++i)
        if (k->ins[i].pc == pc && k->ins[i].is_store == is_store)
            return &k->ins[i];
    if (k->nins == *cap) {
        size_t grown = *cap ? 2 * *cap : 16;
        ta_instruction *p = realloc(k->ins, grown * sizeof *p);
        if (!p)
            return NULL;
        k->ins = p;
        *cap = grown;
    }
    ta_instruction *in = &k->ins[k->nins++];
    memset(in, 0, sizeof *in);
    in->pc = pc;
    in->is_store = is_store;
    return in;
}

/* A tally of weighted requests, summed in double and rounded once at the end. */
typedef struct wtally {
    double requests, sectors, lines, unique_bytes, ideal_sectors;
} wtally;

static void wtally_add(wtally *t, const cl_cost *c, double w)
{
    t->requests += w;
    t->sectors += w * c->sectors;
    t->lines += w * c->lines;
    t->unique_bytes += w * c->unique_bytes;
    t->ideal_sectors += w * c->ideal_sectors;
}

static uint64_t rounded(double x)
{
    return x > 0 ? (uint64_t)(x + 0.5) : 0;
}

static cl_tally wtally_round(const wtally *t)
{
    cl_tally r = {rounded(t->requests), rounded(t->sectors), rounded(t->lines),
                  rounded(t->unique_bytes), rounded(t->ideal_sectors)};
    return r;
}

int ta_analyze_weighted(const char *name, const ta_record *recs, const double *weights, size_t n,
                        ta_kernel *k)
{
    memset(k, 0, sizeof *k);
    strncpy(k->name, name ? name : "", sizeof k->name - 1);
    size_t cap = 0;
    wtally *sums = NULL, kernel[2] = {{0}}; /* sums[i]: instruction i's; kernel: loads, stores */
    for (size_t r = 0; r < n; ++r) {
        const ta_record *rec = &recs[r];
        cl_request req;
        memcpy(req.addr, rec->addr, sizeof req.addr);
        req.active = rec->active;
        req.size = rec->size;
        cl_cost cost;
        if (cl_request_cost(&req, &cost) != 0) {
            k->invalid++;
            continue;
        }
        size_t had = k->nins;
        ta_instruction *in = find(k, &cap, rec->pc, rec->is_store != 0);
        wtally *grown = in && k->nins > had ? realloc(sums, cap * sizeof *sums) : sums;
        if (!in || !grown) {
            free(sums);
            ta_kernel_free(k);
            return -1;
        }
        sums = grown;
        size_t i = (size_t)(in - k->ins);
        if (k->nins > had)
            memset(&sums[i], 0, sizeof sums[i]);
        if (in->tally.requests == 0) {
            in->size = rec->size;
            in->sample = *rec;
            in->sample_waste = cost.sectors - cost.ideal_sectors;
        } else if (cost.sectors - cost.ideal_sectors > in->sample_waste) {
            in->sample = *rec;
            in->sample_waste = cost.sectors - cost.ideal_sectors;
        }
        in->tally.requests++; /* marks it seen; the weighted tally replaces it below */
        double w = weights ? weights[r] : 1.0;
        wtally_add(&sums[i], &cost, w);
        wtally_add(&kernel[rec->is_store ? 1 : 0], &cost, w);
        k->records++;
    }
    for (size_t i = 0; i < k->nins; ++i)
        k->ins[i].tally = wtally_round(&sums[i]);
    k->loads = wtally_round(&kernel[0]);
    k->stores = wtally_round(&kernel[1]);
    free(sums);
    if (k->nins > 1)
        qsort(k->ins, k->nins, sizeof *k->ins, by_pc);
    return 0;
}

int ta_analyze(const char *name, const ta_record *recs, size_t n, ta_kernel *k)
{
    return ta_analyze_weighted(name, recs, NULL, n, k);
}

void ta_kernel_free(ta_kernel *k)
{
    free(k->ins);
    k->ins = NULL;
    k->nins = 0;
}

const ta_instruction *ta_worst(const ta_kernel *k)
{
    const ta_instruction *worst = NULL;
    uint64_t most = 0;
    for (size_t i = 0; i < k->nins; ++i) {
        const cl_tally *t = &k->ins[i].tally;
        uint64_t waste = t->sectors - t->ideal_sectors;
        if (waste > most) {
            most = waste;
            worst = &k->ins[i];
        }
    }
    return worst;
}
