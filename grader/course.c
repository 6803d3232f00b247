/* course.c - see course.h. libyaml loads the file into a document of nodes, each with where it
 * starts; every check below names that place. */
#define _GNU_SOURCE /* O_CLOEXEC, fdopen */
#include "course.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <yaml.h>

typedef struct ctx {
    yaml_document_t *doc;
    const char *path;
    char *why;
    size_t why_size;
} ctx;

static int fail_at(ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
    int used = snprintf(c->why, c->why_size, "%s:%zu:%zu: ", c->path,
                        n ? n->start_mark.line + 1 : 1, n ? n->start_mark.column + 1 : 1);
    va_list ap;
    va_start(ap, fmt);
    if (used >= 0 && (size_t)used < c->why_size)
        vsnprintf(c->why + used, c->why_size - (size_t)used, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static yaml_node_t *node(ctx *c, int index)
{
    return yaml_document_get_node(c->doc, index);
}

/* A mapping's pairs, each key a plain name that is one of known (NULL-terminated) and given
 * once; calls each(c, key, value, data) for every pair. */
typedef int (*pair_fn)(ctx *c, const char *key, yaml_node_t *k, yaml_node_t *v, void *data);

static int each_pair(ctx *c, yaml_node_t *map, const char *what, const char *const *known,
                     pair_fn each, void *data)
{
    if (!map || map->type != YAML_MAPPING_NODE)
        return fail_at(c, map, "%s must be a mapping of names to values", what);
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
         ++p) {
        yaml_node_t *k = node(c, p->key), *v = node(c, p->value);
        const char *key = scalar(k);
        if (!key)
            return fail_at(c, k, "a key of %s must be a name", what);
        int ok = known == NULL;
        for (int i = 0; known && known[i]; ++i)
            ok |= !strcmp(key, known[i]);
        if (!ok) {
            char list[256] = "";
            for (int i = 0; known[i]; ++i)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "",
                         known[i]);
            return fail_at(c, k, "unknown key '%.60s' in %s (known: %s)", key, what, list);
        }
        for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; ++q)
            if (!strcmp(scalar(node(c, q->key)), key))
                return fail_at(c, k, "'%.60s' is given twice in %s", key, what);
        if (each(c, key, k, v, data) != 0)
            return -1;
    }
    return 0;
}

static int number(ctx *c, yaml_node_t *n, const char *what, double lo, double hi, double *out)
{
    const char *s = scalar(n);
    char *end = NULL;
    errno = 0;
    double x = s ? strtod(s, &end) : NAN;
    if (!s || end == s || *end || errno || !(x >= lo && x <= hi))
        return fail_at(c, n, "%s must be a number from %g to %g, not '%.40s'", what, lo, hi,
                       s ? s : "(not a number)");
    *out = x;
    return 0;
}

/* ---- one lab ---- */

typedef struct lab_ctx {
    lab_spec *spec;
    unsigned *set;
} lab_ctx;

static const char *const part_names[] = {"correctness", "loads", "stores", "speed", NULL};

static int points_pair(ctx *c, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
    lab_spec *s = ((lab_ctx *)data)->spec;
    if (!strcmp(key, "speed") && s->points_speed <= 0)
        return fail_at(c, k, "lab %s has no speed part to give points to", s->id);
    double x;
    char what[64];
    snprintf(what, sizeof what, "lab %s's %s points", s->id, key);
    if (number(c, v, what, 0, 1000, &x) != 0)
        return -1;
    if (x != floor(x))
        return fail_at(c, v, "%s must be a whole number, not %g", what, x);
    int *field = !strcmp(key, "correctness") ? &s->points_correct
                 : !strcmp(key, "loads")     ? &s->points_load
                 : !strcmp(key, "stores")    ? &s->points_store
                                             : &s->points_speed;
    *field = (int)x;
    return 0;
}

/* Refuses a threshold the stub reaches (where it falls short of the solution) or one above what
 * the solution reaches. */
static int in_measured_range(ctx *c, yaml_node_t *v, const char *what, double x, double stub,
                             double solution, const char *unit_fmt, const char *failing)
{
    char a[32], b[32], t[32];
    snprintf(a, sizeof a, unit_fmt, stub);
    snprintf(b, sizeof b, unit_fmt, solution);
    snprintf(t, sizeof t, unit_fmt, x);
    if (solution > 0 && stub < solution && x <= stub)
        return fail_at(c, v,
                       "%s %s is at or below what %s reaches (%s): it would pass; choose one "
                       "above %s and at most %s (the reference solution's)",
                       what, t, failing, a, a, b);
    if (solution > 0 && x > solution)
        return fail_at(c, v,
                       "%s %s is above what the lab's reference solution reaches (%s): no "
                       "solution could pass; choose one above %s and at most %s",
                       what, t, b, a, b);
    return 0;
}

static int thresholds_pair(ctx *c, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
    (void)k;
    lab_spec *s = ((lab_ctx *)data)->spec;
    int loads = !strcmp(key, "loads");
    char what[64];
    snprintf(what, sizeof what, "lab %s's %s threshold", s->id, key);
    double x;
    if (number(c, v, what, 0, 1, &x) != 0 ||
        in_measured_range(c, v, what, x, loads ? s->measured.stub_load : s->measured.stub_store,
                          loads ? s->measured.solution_load : s->measured.solution_store, "%.3g",
                          "the lab's stub") != 0)
        return -1;
    *(loads ? &s->min_load_eff : &s->min_store_eff) = x;
    return 0;
}

static int visibility_pair(ctx *c, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
    lab_spec *s = ((lab_ctx *)data)->spec;
    static const char *const kinds[] = {"visible", "hidden", "after_due_date", "after_published"};
    if (!strcmp(key, "speed") && s->points_speed <= 0)
        return fail_at(c, k, "lab %s has no speed part to set the visibility of", s->id);
    const char *x = scalar(v);
    for (size_t i = 0; x && i < sizeof kinds / sizeof kinds[0]; ++i)
        if (!strcmp(x, kinds[i])) {
            for (int p = 0; part_names[p]; ++p)
                if (!strcmp(key, part_names[p]))
                    s->visibility[p] = kinds[i];
            return 0;
        }
    return fail_at(c, v,
                   "lab %s's %s visibility must be visible, hidden, after_due_date or "
                   "after_published, not '%.40s'",
                   s->id, key, x ? x : "(not a name)");
}

static int lab_pair(ctx *c, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
    (void)k;
    lab_ctx *l = data;
    lab_spec *s = l->spec;
    static const char *const parts[] = {"correctness", "loads", "stores", "speed", NULL};
    static const char *const kinds[] = {"loads", "stores", NULL};
    if (!strcmp(key, "points")) {
        *l->set |= CO_SET_POINTS;
        return each_pair(c, v, "points", parts, points_pair, l);
    }
    if (!strcmp(key, "thresholds")) {
        *l->set |= CO_SET_THRESHOLDS;
        return each_pair(c, v, "thresholds", kinds, thresholds_pair, l);
    }
    if (!strcmp(key, "visibility")) {
        *l->set |= CO_SET_VISIBILITY;
        return each_pair(c, v, "visibility", parts, visibility_pair, l);
    }
    /* min_speedup */
    if (s->points_speed <= 0)
        return fail_at(c, k, "lab %s has no speed gate to set min_speedup of", s->id);
    char what[64];
    snprintf(what, sizeof what, "lab %s's min_speedup", s->id);
    double x;
    if (number(c, v, what, 0.01, 1000, &x) != 0 ||
        in_measured_range(c, v, what, x, s->measured.stub_speedup, s->measured.solution_speedup,
                          "%.2fx", "the coalesced naive kernel the gate must fail") != 0)
        return -1;
    s->min_speedup = x;
    *l->set |= CO_SET_SPEEDUP;
    return 0;
}

static int labs_pair(ctx *c, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
    co_course *course = data;
    const lab_spec *spec = lab_find(key);
    if (!spec)
        return fail_at(c, k, "no lab '%.40s' (grade --list names them)", key);
    for (size_t i = 0; i < course->nlabs; ++i)
        if (!strcmp(course->labs[i].id, spec->id))
            return fail_at(c, k, "lab %s is given twice", spec->id);
    if (course->nlabs == CO_MAX_LABS)
        return fail_at(c, k, "at most %d labs", CO_MAX_LABS);
    size_t i = course->nlabs++;
    course->labs[i] = *spec;
    if (v->type == YAML_SCALAR_NODE && !*scalar(v))
        return 0; /* "01:" alone: the lab as it is */
    static const char *const keys[] = {"points", "thresholds", "min_speedup", "visibility", NULL};
    lab_ctx l = {&course->labs[i], &course->set[i]};
    char what[32];
    snprintf(what, sizeof what, "lab %s", spec->id);
    if (each_pair(c, v, what, keys, lab_pair, &l) != 0)
        return -1;
    const lab_spec *s = &course->labs[i];
    int total = s->points_correct + s->points_load + s->points_store +
                (s->points_speed > 0 ? s->points_speed : 0);
    if (total <= 0) /* every grade of it would be 0/0: a PASS for anything */
        return fail_at(c, k, "lab %s gives no points: its parts add up to 0", s->id);
    return 0;
}

static int top_pair(ctx *c, const char *key, yaml_node_t *k, yaml_node_t *v, void *data)
{
    (void)k;
    co_course *course = data;
    if (!strcmp(key, "course")) {
        if (!scalar(v))
            return fail_at(c, v, "course must be a name");
        snprintf(course->name, sizeof course->name, "%s", scalar(v));
        return 0;
    }
    if (!strcmp(key, "timeout"))
        return number(c, v, "timeout", 1, 86400, &course->timeout_s);
    return each_pair(c, v, "labs", NULL, labs_pair, course);
}

int co_load(const char *path, co_course *course, char *why, size_t why_size)
{
    memset(course, 0, sizeof *course);
    /* Opened without waiting (a FIFO, a device would hang the grader), read only when it is a
     * regular file of a course file's size. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        snprintf(why, why_size, "cannot read the course file '%s': %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode) || st.st_size > CO_MAX_FILE_BYTES) {
        snprintf(why, why_size, "the course file '%s' is %s", path,
                 S_ISREG(st.st_mode) ? "over 1 MiB" : "not a regular file");
        close(fd);
        return -1;
    }
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        snprintf(why, why_size, "cannot read the course file '%s': %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_file(&parser, f);
    ctx c = {&doc, path, why, why_size};
    int rc = -1;
    if (!yaml_parser_load(&parser, &doc)) {
        snprintf(why, why_size, "%s:%zu:%zu: %s", path, parser.problem_mark.line + 1,
                 parser.problem_mark.column + 1, parser.problem ? parser.problem : "not YAML");
        yaml_parser_delete(&parser);
        fclose(f);
        return -1;
    }
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    static const char *const keys[] = {"course", "timeout", "labs", NULL};
    if (!root)
        fail_at(&c, NULL, "the course file is empty");
    else if (each_pair(&c, root, "the course file", keys, top_pair, course) == 0) {
        if (!course->nlabs)
            fail_at(&c, root, "the course file names no labs (a 'labs:' mapping)");
        else
            rc = 0;
    }
    /* A second document (after a second '---') would be dropped unread: refused instead. */
    yaml_document_t more;
    if (rc == 0 && yaml_parser_load(&parser, &more)) {
        yaml_node_t *second = yaml_document_get_root_node(&more);
        if (second) {
            ctx c2 = {&more, path, why, why_size};
            fail_at(&c2, second,
                    "the course file holds a second YAML document: one course a file, one "
                    "document");
            rc = -1;
        }
        yaml_document_delete(&more);
    } else if (rc == 0) {
        snprintf(why, why_size, "%s:%zu:%zu: %s", path, parser.problem_mark.line + 1,
                 parser.problem_mark.column + 1, parser.problem ? parser.problem : "not YAML");
        rc = -1;
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    fclose(f);
    return rc;
}

void co_print(FILE *out, const co_course *c)
{
    fprintf(out, "course %s%s", c->name[0] ? c->name : "(no name)", c->timeout_s ? "" : "\n");
    if (c->timeout_s)
        fprintf(out, ", each run of a kernel within %.0f s\n", c->timeout_s);
    fprintf(out, "%-4s %-20s %-23s %-17s %-9s %s\n", "lab", "", "points", "thresholds", "speed-up",
            "set by the course");
    fprintf(out, "%-4s %-20s %-23s %-17s %-9s\n", "", "", "corr/loads/stores/speed", "loads/stores",
            "at least");
    fprintf(out, "(measured: what the lab's stub and reference solution reached on an H200, "
                 "loads/stores as graded)\n");
    for (size_t i = 0; i < c->nlabs; ++i) {
        const lab_spec *s = &c->labs[i];
        char points[32], speed[16] = "-", set[96] = "", thresholds[32];
        snprintf(points, sizeof points, "%d/%d/%d/%s", s->points_correct, s->points_load,
                 s->points_store, s->points_speed > 0 ? "" : "-");
        if (s->points_speed > 0) {
            snprintf(points + strlen(points), sizeof points - strlen(points), "%d",
                     s->points_speed);
            snprintf(speed, sizeof speed, "%.2fx", s->min_speedup);
        }
        snprintf(thresholds, sizeof thresholds, "%.0f%%/%.0f%%", 100 * s->min_load_eff,
                 100 * s->min_store_eff);
        static const char *const names[] = {"points", "thresholds", "speed-up", "visibility"};
        for (int b = 0; b < 4; ++b)
            if (c->set[i] & (1u << b))
                snprintf(set + strlen(set), sizeof set - strlen(set), "%s%s", set[0] ? ", " : "",
                         names[b]);
        fprintf(out, "%-4s %-20s %-23s %-17s %-9s %s\n", s->id, s->slug, points, thresholds, speed,
                set[0] ? set : "nothing (the lab's own)");
        /* What the thresholds were set between (lab_spec.measured). */
        char measured[160];
        int n = snprintf(measured, sizeof measured, "stub %.1f%%/%.1f%%, solution %.1f%%/%.1f%%",
                         100 * s->measured.stub_load, 100 * s->measured.stub_store,
                         100 * s->measured.solution_load, 100 * s->measured.solution_store);
        if (s->points_speed > 0 && n > 0 && (size_t)n < sizeof measured)
            snprintf(measured + n, sizeof measured - (size_t)n, ", speed-up %.2fx/%.2fx",
                     s->measured.stub_speedup, s->measured.solution_speedup);
        fprintf(out, "%-25s measured: %s\n", "", measured);
        if (c->set[i] & CO_SET_VISIBILITY) {
            fprintf(out, "%-25s visibility:", "");
            for (int p = 0; p < 4; ++p)
                if (s->visibility[p])
                    fprintf(out, " %s %s", part_names[p], s->visibility[p]);
            fputc('\n', out);
        }
    }
}
