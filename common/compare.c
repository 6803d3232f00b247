/*
 * compare.c - tolerant comparison of a computed array against its reference.
 *
 * Build and test: gcc -std=c11 -Icommon tests/unit/test_compare.c common/compare.c
 *                 $(pkg-config --cflags --libs cmocka) -lm && ./a.out
 */
#include "compare.h"

#include <math.h>
#include <string.h>

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

size_t cmp_floats(const float *got, const float *want, size_t rows, size_t cols, cmp_tolerance tol,
                  cmp_result *res)
{
    cmp_result local;
    size_t n = rows * cols;

    if (!res)
        res = &local;
    memset(res, 0, sizeof(*res));

    for (size_t i = 0; i < n; i++) {
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
    return res->mismatches;
}

void cmp_describe(FILE *out, const char *name, const cmp_result *res, size_t cols,
                  cmp_tolerance tol)
{
    if (res->mismatches == 0)
        return;
    fprintf(out, "'%s': %zu of %zu elements differ (tolerance %g + %g x |want|)\n", name,
            res->mismatches, res->checked, tol.abs, tol.rel);
    for (size_t i = 0; i < res->shown; i++) {
        const cmp_mismatch *m = &res->first[i];
        if (cols > 1)
            fprintf(out, "  %s[%zu][%zu]: got %g, want %g\n", name, m->row, m->col, (double)m->got,
                    (double)m->want);
        else
            fprintf(out, "  %s[%zu]: got %g, want %g\n", name, m->index, (double)m->got,
                    (double)m->want);
    }
    if (res->mismatches > res->shown)
        fprintf(out, "  ... and %zu more\n", res->mismatches - res->shown);
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
