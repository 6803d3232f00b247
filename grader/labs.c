/* labs.c - the table of labs (from labs/labs.def) and what every spec shares. See lab.h. */
#define _POSIX_C_SOURCE 200809L
#include "i18n.h"
#include "lab.h"
#include "wire.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The table, made from the registry (labs/labs.def): labNN_spec for every row. */
#define CL_LAB(nn, slug) extern const lab_spec lab##nn##_spec;
#include "labs/labs.def"
#undef CL_LAB

const lab_spec *const lab_table[] = {
#define CL_LAB(nn, slug) &lab##nn##_spec,
#include "labs/labs.def"
#undef CL_LAB
};
const size_t lab_count = sizeof lab_table / sizeof lab_table[0];

const lab_spec *lab_find(const char *name)
{
    char *end = NULL;
    long number = isdigit((unsigned char)name[0]) ? strtol(name, &end, 10) : -1;
    for (size_t i = 0; i < lab_count; ++i) {
        const lab_spec *s = lab_table[i];
        if (end && *end == '\0' && number == strtol(s->id, NULL, 10))
            return s;
        if (!strcmp(name, s->slug))
            return s;
        char full[64];
        snprintf(full, sizeof full, "%s-%s", s->id, s->slug);
        if (!strcmp(name, full))
            return s;
    }
    return NULL;
}

void *lab_load_output(const char *workdir, const char *name, size_t bytes, char *why,
                      size_t why_size)
{
    char path[4096], bad[512];
    snprintf(path, sizeof path, "%s/%s.bin", workdir, name);
    size_t size = 0;
    /* A regular file of this size only: no link followed, no pipe waited on. */
    void *buf = wi_read_bytes(path, bytes, &size, bad, sizeof bad);
    if (!buf) {
        struct stat st;
        if (lstat(path, &st) != 0)
            snprintf(why, why_size, _("the kernel's run saved no '%s'"), name);
        else if (S_ISREG(st.st_mode))
            snprintf(why, why_size, _("'%s' holds %lld bytes, expected %zu"), name,
                     (long long)st.st_size, bytes);
        else
            snprintf(why, why_size, _("'%s' is not a regular file"), name);
        return NULL;
    }
    if (size != bytes) {
        snprintf(why, why_size, _("'%s' holds %zu bytes, expected %zu"), name, size, bytes);
        free(buf);
        return NULL;
    }
    return buf;
}

void lab_compare(lab_check *out, FILE *details, const char *name, const float *got,
                 const float *want, size_t rows, size_t cols, cmp_tolerance tol)
{
    cmp_result res;
    cmp_floats(got, want, rows, cols, tol, &res);
    size_t unwritten = cmp_count_bits(got, rows * cols, 0xffffffffu); /* the child's poison */
    out->checked += res.checked;
    out->mismatches += res.mismatches;
    out->unwritten += unwritten;
    if (details) {
        cmp_describe(details, name, &res, cols, tol);
        if (unwritten)
            fprintf(details, _("%zu of them were never written (they still hold the poison NaN)\n"),
                    unwritten);
    }
}
