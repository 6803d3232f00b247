/*
 * compare.c - tolerant comparison of a computed array against its reference.
 *
 * Build and test: gcc -std=c11 -Icommon tests/unit/test_compare.c common/compare.c
 *                 $(pkg-config --cflags --libs cmocka) -lm && ./a.out
 */
#include "i18n.h"
#include "compare.h"

#include <math.h>
#include <string.h>

#include "parallel.h"

/* Whether got matches want within tol; *abs_err is set only when both are finite. A NaN in
 * got never passes, not even against a NaN in want: a kernel that wrote NaN where the reference
 * has NaN most likely never wrote at all. An infinity passes only against the identical
 * infinity, and a finite value never matches a non-finite want (the tolerance rel x |want|
 * would otherwise be infinite). */
static int element_passes(float got, float want, cmp_tolerance tol, double *abs_err)
{
    if (isnan(got))
        return 0;
    if (isinf(got))
        return got == want;
    if (!isfinite(want))
        return 0;
    *abs_err = fabs((double)got - (double)want);
    return *abs_err <= tol.abs + tol.rel * fabs((double)want);
}

/* One part of a comparison: elements [begin, end) into parts[part]. */
typedef struct compare_job {
    const float *got, *want;
    size_t cols;
    cmp_tolerance tol;
    cmp_result parts[CL_PARALLEL_THREADS];
} compare_job;

static void compare_part(void *ctx, size_t part, size_t begin, size_t end)
{
    compare_job *j = ctx;
    const float *got = j->got, *want = j->want;
    const size_t cols = j->cols;
    const cmp_tolerance tol = j->tol;
    cmp_result *res = &j->parts[part];
    memset(res, 0, sizeof(*res));
    for (size_t i = begin; i < end; i++) {
        double err = 0.0;
        int pass = element_passes(got[i], want[i], tol, &err);

        if (err > res->max_abs_err)
            res->max_abs_err = err;
        res->checked++;
        if (pass)
            continue;
        if (res->shown < CMP_MAX_SHOWN) {
            cmp_mismatch *m = &res->first[res->shown++];
            m->index = i;
            m->row = i / cols;
            m->col = i % cols;
            m->got = got[i];
            m->want = want[i];
        }
        res->mismatches++;
    }
}

size_t cmp_floats(const float *got, const float *want, size_t rows, size_t cols, cmp_tolerance tol,
                  cmp_result *res)
{
    cmp_result local;
    if (!res)
        res = &local;
    memset(res, 0, sizeof(*res));
    /* Parts in order, merged in order: the same counts and the same first mismatches as one
     * pass over the array. */
    compare_job job = {.got = got, .want = want, .cols = cols, .tol = tol};
    size_t parts = cl_parallel_for(rows * cols, (size_t)1 << 20, compare_part, &job);
    for (size_t k = 0; k < parts; ++k) {
        const cmp_result *p = &job.parts[k];
        res->checked += p->checked;
        res->mismatches += p->mismatches;
        if (p->max_abs_err > res->max_abs_err)
            res->max_abs_err = p->max_abs_err;
        for (size_t s = 0; s < p->shown && res->shown < CMP_MAX_SHOWN; ++s)
            res->first[res->shown++] = p->first[s];
    }
    return res->mismatches;
}

void cmp_describe(FILE *out, const char *name, const cmp_result *res, size_t cols,
                  cmp_tolerance tol)
{
    if (res->mismatches == 0)
        return;
    fprintf(out, _("'%s': %zu of %zu elements differ (tolerance %g + %g x |want|)\n"), name,
            res->mismatches, res->checked, tol.abs, tol.rel);
    for (size_t i = 0; i < res->shown; i++) {
        const cmp_mismatch *m = &res->first[i];
        if (cols > 1)
            fprintf(out, _("  %s[%zu][%zu]: got %g, want %g\n"), name, m->row, m->col,
                    (double)m->got, (double)m->want);
        else
            fprintf(out, _("  %s[%zu]: got %g, want %g\n"), name, m->index, (double)m->got,
                    (double)m->want);
    }
    if (res->mismatches > res->shown)
        fprintf(out, _("  ... and %zu more\n"), res->mismatches - res->shown);
}

size_t cmp_count_bits(const float *x, size_t n, uint32_t bits)
{
    size_t count = 0;
    for (size_t i = 0; i < n; ++i) {
        uint32_t b;
        memcpy(&b, &x[i], sizeof b);
        count += b == bits;
    }
    return count;
}
