/* labs.c - the table of labs (from labs/labs.def) and what every spec shares. See lab.h. */
#define _POSIX_C_SOURCE 200809L
#include "i18n.h"
#include "lab.h"
#include "salt.h"
#include "wire.h"

#include <ctype.h>
#include <pthread.h>
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

/* ---- references made once (lab_reference) ---- */

enum { REFS = 8, REF_EMPTY = 0, REF_MAKING, REF_MADE };

static struct {
    lab_ref_fn make;
    sd_seeds seeds;
    cl_shape shape;
    void *data;
    int state;
    unsigned long used; /* when it was last asked for */
} refs[REFS];
static unsigned long ref_clock;
static pthread_mutex_t refs_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t refs_made = PTHREAD_COND_INITIALIZER;

static int same_ref(int i, lab_ref_fn make, sd_seeds seeds, const cl_shape *shape)
{
    if (refs[i].state == REF_EMPTY || refs[i].make != make || refs[i].seeds.task != seeds.task ||
        refs[i].seeds.data != seeds.data)
        return 0;
    for (int d = 0; d < CL_SHAPE_DIMS; ++d)
        if (refs[i].shape.d[d] != shape->d[d])
            return 0;
    return 1;
}

const void *lab_reference(lab_ref_fn make, sd_seeds seeds, const cl_shape *shape)
{
    pthread_mutex_lock(&refs_mu);
    for (;;) {
        int found = -1;
        for (int i = 0; i < REFS && found < 0; ++i)
            if (same_ref(i, make, seeds, shape))
                found = i;
        if (found < 0)
            break;
        if (refs[found].state == REF_MADE) {
            refs[found].used = ++ref_clock;
            void *data = refs[found].data;
            pthread_mutex_unlock(&refs_mu);
            return data;
        }
        pthread_cond_wait(&refs_made, &refs_mu); /* another thread makes it */
    }
    /* A free entry, else the one asked for longest ago that is not being made. */
    int slot = -1;
    for (int i = 0; i < REFS; ++i)
        if (refs[i].state != REF_MAKING &&
            (slot < 0 || refs[i].state == REF_EMPTY ||
             (refs[slot].state != REF_EMPTY && refs[i].used < refs[slot].used)))
            slot = i;
    if (slot < 0) { /* every one being made: this one is the caller's alone, never freed */
        pthread_mutex_unlock(&refs_mu);
        return make(seeds, shape);
    }
    free(refs[slot].data);
    refs[slot].make = make;
    refs[slot].seeds = seeds;
    refs[slot].shape = *shape;
    refs[slot].data = NULL;
    refs[slot].state = REF_MAKING;
    pthread_mutex_unlock(&refs_mu);
    void *data = make(seeds, shape);
    pthread_mutex_lock(&refs_mu);
    refs[slot].data = data;
    refs[slot].state = data ? REF_MADE : REF_EMPTY;
    refs[slot].used = ++ref_clock;
    pthread_cond_broadcast(&refs_made);
    pthread_mutex_unlock(&refs_mu);
    return data;
}

void lab_forget_references(void)
{
    pthread_mutex_lock(&refs_mu);
    for (int i = 0; i < REFS; ++i)
        if (refs[i].state == REF_MADE) {
            free(refs[i].data);
            memset(&refs[i], 0, sizeof refs[i]);
        }
    pthread_mutex_unlock(&refs_mu);
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

static uint32_t poison = SL_DEFAULT_POISON;

void lab_set_poison(uint32_t p)
{
    poison = p ? p : SL_DEFAULT_POISON;
}

uint32_t lab_poison(void)
{
    return poison;
}

void lab_compare(lab_check *out, FILE *details, const char *name, const float *got,
                 const float *want, size_t rows, size_t cols, cmp_tolerance tol)
{
    cmp_result res;
    cmp_floats(got, want, rows, cols, tol, &res);
    size_t unwritten = cmp_count_bits(got, rows * cols, poison); /* the child's poison */
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
