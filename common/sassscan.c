/* sassscan.c - see sassscan.h. */
#include "sassscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the unmeasured instructions are, in CUDA's words. */
static const char cp_async[] = "cp.async (__pipeline_memcpy_async, cuda::memcpy_async)";
static const char bulk[] = "a bulk copy (cp.async.bulk, or its reduction or prefetch)";
static const char tma[] = "the tensor memory accelerator (cp.async.bulk.tensor)";
static const char texture[] = "a texture fetch (tex1Dfetch, tex2D, ...)";
static const char surface[] = "a surface access (surf2Dread, surf2Dwrite, ...)";
static const char multimem[] = "a multimem access (multimem.ld_reduce)";

/* Every opcode that is not SS_OTHER, by its name before the first '.'. TEXS, TLDS and TLD4S
 * are the older GPUs' short forms of the texture fetches. */
static const struct {
    const char *base;
    ss_class cls;
    const char *what; /* for SS_UNMEASURED */
} opcodes[] = {
    {"LDG", SS_GLOBAL_LOAD, NULL},
    {"STG", SS_GLOBAL_STORE, NULL},
    {"ATOMG", SS_GLOBAL_ATOMIC, NULL},
    {"REDG", SS_GLOBAL_ATOMIC, NULL},
    {"LD", SS_GENERIC, NULL},
    {"ST", SS_GENERIC, NULL},
    {"ATOM", SS_GENERIC, NULL},
    {"RED", SS_GENERIC, NULL},
    {"LDGSTS", SS_UNMEASURED, cp_async},
    {"UBLKCP", SS_UNMEASURED, bulk},
    {"UBLKRED", SS_UNMEASURED, bulk},
    {"UBLKPF", SS_UNMEASURED, bulk},
    {"UTMALDG", SS_UNMEASURED, tma},
    {"UTMASTG", SS_UNMEASURED, tma},
    {"UTMAPF", SS_UNMEASURED, tma},
    {"UTMAREDG", SS_UNMEASURED, tma},
    {"UTMACCTL", SS_UNMEASURED, tma},
    {"TEX", SS_UNMEASURED, texture},
    {"TLD", SS_UNMEASURED, texture},
    {"TLD4", SS_UNMEASURED, texture},
    {"TMML", SS_UNMEASURED, texture},
    {"TXD", SS_UNMEASURED, texture},
    {"TXQ", SS_UNMEASURED, texture},
    {"TEXS", SS_UNMEASURED, texture},
    {"TLDS", SS_UNMEASURED, texture},
    {"TLD4S", SS_UNMEASURED, texture},
    {"SULD", SS_UNMEASURED, surface},
    {"SUST", SS_UNMEASURED, surface},
    {"SUATOM", SS_UNMEASURED, surface},
    {"SURED", SS_UNMEASURED, surface},
    {"SUQUERY", SS_UNMEASURED, surface},
    {"LDGMC", SS_UNMEASURED, multimem},
};

#define N_OPCODES (sizeof opcodes / sizeof opcodes[0])

/* The row of opcodes for the opcode op (its modifiers included), or -1 for SS_OTHER. */
static int opcode_row(const char *op)
{
    size_t base = strcspn(op, ".");
    for (size_t i = 0; i < N_OPCODES; ++i)
        if (strlen(opcodes[i].base) == base && !strncmp(op, opcodes[i].base, base))
            return (int)i;
    return -1;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static int is_upper(char c)
{
    return c >= 'A' && c <= 'Z';
}

static int is_word(char c)
{
    return is_upper(c) || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static const char *skip_blanks(const char *p, const char *end)
{
    while (p < end && is_blank(*p))
        ++p;
    return p;
}

static char *copy_of(const char *p, size_t n)
{
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, p, n);
        s[n] = '\0';
    }
    return s;
}

/* Whether the line [p, end) starts with the text word. */
static int starts(const char *p, const char *end, const char *word)
{
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && !memcmp(p, word, n);
}

/* A function's name on the line [p, end), blanks skipped already: cuobjdump's "Function :
 * NAME" or nvdisasm's ".section .text.NAME,...". *n is its length; NULL when the line is
 * neither (or names nothing). */
static const char *heading(const char *p, const char *end, size_t *n)
{
    const char *name = NULL;
    if (starts(p, end, "Function")) {
        p = skip_blanks(p + strlen("Function"), end);
        if (p == end || *p != ':')
            return NULL;
        name = skip_blanks(p + 1, end);
        const char *last = end;
        while (last > name && is_blank(last[-1]))
            --last;
        *n = (size_t)(last - name);
    } else if (starts(p, end, ".section")) {
        p = skip_blanks(p + strlen(".section"), end);
        if (!starts(p, end, ".text."))
            return NULL;
        name = p + strlen(".text.");
        *n = 0;
        while (name + *n < end && name[*n] != ',' && !is_blank(name[*n]))
            ++*n;
    }
    return name && *n ? name : NULL;
}

/* An instruction on the line [p, end), blanks skipped already: its offset in hex between
 * comment marks, an optional predicate ("@P0", "@!PT"), then the opcode, whose start and
 * length it returns with *pc;
 * NULL when the line is none (an encoding's line, a label, a directive). */
static const char *instruction(const char *p, const char *end, unsigned long *pc, size_t *n)
{
    if (!starts(p, end, "/*"))
        return NULL;
    p += 2;
    unsigned long value = 0;
    int digits = 0;
    for (int d; p < end && (d = hex_value(*p)) >= 0; ++p, ++digits) {
        if (value > (unsigned long)-1 / 16)
            return NULL;
        value = value * 16 + (unsigned long)d;
    }
    if (!digits || !starts(p, end, "*/"))
        return NULL;
    p = skip_blanks(p + 2, end);
    if (p < end && *p == '{') /* an instruction group's opening, where a GPU has them */
        p = skip_blanks(p + 1, end);
    if (p < end && *p == '@') {
        while (p < end && !is_blank(*p))
            ++p;
        p = skip_blanks(p, end);
    }
    if (p == end || !is_upper(*p))
        return NULL;
    *n = 0;
    while (p + *n < end && is_word(p[*n]))
        ++*n;
    *pc = value;
    return p;
}

/* Growable arrays: *items holds *count of *cap, each size bytes; -1 when memory runs out. */
static int grow(void **items, size_t *cap, size_t count, size_t size)
{
    if (count < *cap)
        return 0;
    size_t more = *cap ? *cap * 2 : 16;
    void *p = more < ((size_t)-1) / size ? realloc(*items, more * size) : NULL;
    if (!p)
        return -1;
    *items = p;
    *cap = more;
    return 0;
}

typedef struct parser {
    ss_listing *l;
    size_t functions_cap, code_cap; /* of l->functions, and of the last function's code */
} parser;

static int add_function(parser *ps, const char *name, size_t n)
{
    ss_listing *l = ps->l;
    if (grow((void **)&l->functions, &ps->functions_cap, l->count, sizeof *l->functions) != 0)
        return -1;
    ss_function *f = &l->functions[l->count];
    memset(f, 0, sizeof *f);
    if (!(f->name = copy_of(name, n)))
        return -1;
    l->count++;
    ps->code_cap = 0;
    return 0;
}

static int add_instruction(parser *ps, unsigned long pc, const char *op, size_t n)
{
    ss_listing *l = ps->l;
    if (!l->count && add_function(ps, "", 0) != 0) /* code before any function's heading */
        return -1;
    ss_function *f = &l->functions[l->count - 1];
    if (grow((void **)&f->code, &ps->code_cap, f->count, sizeof *f->code) != 0)
        return -1;
    ss_instruction *in = &f->code[f->count];
    if (!(in->opcode = copy_of(op, n)))
        return -1;
    int row = opcode_row(in->opcode);
    in->pc = pc;
    in->cls = row < 0 ? SS_OTHER : opcodes[row].cls;
    l->per_class[in->cls]++;
    f->count++;
    return 0;
}

static int by_pc(const void *a, const void *b)
{
    const ss_instruction *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* Puts every function's code in order of pc, where the text had it otherwise. */
static void order(ss_listing *l)
{
    for (size_t i = 0; i < l->count; ++i) {
        ss_function *f = &l->functions[i];
        for (size_t j = 1; j < f->count; ++j)
            if (f->code[j].pc < f->code[j - 1].pc) {
                qsort(f->code, f->count, sizeof *f->code, by_pc);
                break;
            }
    }
}

ss_listing *ss_parse(const char *text, size_t size)
{
    parser ps = {.l = calloc(1, sizeof(ss_listing))};
    if (!ps.l)
        return NULL;
    const char *p = text ? text : "", *end = p + (text ? size : 0);
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *s = skip_blanks(p, eol), *word;
        size_t n = 0;
        unsigned long pc = 0;
        int rc = 0;
        if ((word = heading(s, eol, &n)))
            rc = add_function(&ps, word, n);
        else if ((word = instruction(s, eol, &pc, &n)))
            rc = add_instruction(&ps, pc, word, n);
        if (rc != 0) {
            ss_free(ps.l);
            return NULL;
        }
        p = eol + (eol < end);
    }
    order(ps.l);
    return ps.l;
}

void ss_free(ss_listing *listing)
{
    if (!listing)
        return;
    for (size_t i = 0; i < listing->count; ++i) {
        ss_function *f = &listing->functions[i];
        for (size_t j = 0; j < f->count; ++j)
            free(f->code[j].opcode);
        free(f->code);
        free(f->name);
    }
    free(listing->functions);
    free(listing);
}

int ss_class_at(const ss_listing *listing, const char *function, unsigned long pc)
{
    if (!listing || !function)
        return -1;
    for (size_t i = 0; i < listing->count; ++i) {
        const ss_function *f = &listing->functions[i];
        if (strcmp(f->name, function))
            continue;
        size_t lo = 0, hi = f->count;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (f->code[mid].pc < pc)
                lo = mid + 1;
            else
                hi = mid;
        }
        return lo < f->count && f->code[lo].pc == pc ? (int)f->code[lo].cls : -1;
    }
    return -1;
}

size_t ss_count(const ss_listing *listing, ss_class cls)
{
    return listing && (int)cls >= 0 && cls < SS_CLASSES ? listing->per_class[cls] : 0;
}

int ss_refusal(const ss_listing *listing, char *why, size_t why_size)
{
    for (size_t i = 0; listing && i < listing->count; ++i) {
        const ss_function *f = &listing->functions[i];
        for (size_t j = 0; j < f->count; ++j) {
            const ss_instruction *in = &f->code[j];
            if (in->cls != SS_UNMEASURED)
                continue;
            /* A long name is cut, so that the advice at the end still fits. */
            int named = f->name[0] != '\0', cut = strlen(f->name) > 160;
            snprintf(why, why_size,
                     "its device code uses %s, which moves global memory where the grader "
                     "cannot measure it: the SASS the GPU runs has %.40s at 0x%04lx %s%.150s%s%s; "
                     "use ordinary loads and stores instead",
                     opcodes[opcode_row(in->opcode)].what, in->opcode, in->pc,
                     named ? "in '" : "outside any function", f->name, cut ? "..." : "",
                     named ? "'" : "");
            return 1;
        }
    }
    return 0;
}
