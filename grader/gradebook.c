/* gradebook.c - see gradebook.h. libcsv quotes on the way out and parses on the way back. */
#define _GNU_SOURCE
#include "gradebook.h"

#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const gb_columns[] = {"student",   "lab",    "verdict", "correctness",
                                  "loads",     "stores", "speed",   "score",
                                  "max_score", "engine", "seconds", "reason"};
const size_t gb_ncolumns = sizeof gb_columns / sizeof gb_columns[0];

static int field(FILE *f, const char *text, int last)
{
    int ok = csv_fwrite(f, text ? text : "", text ? strlen(text) : 0) == 0;
    return ok && fputc(last ? '\n' : ',', f) != EOF ? 0 : -1;
}

/* A field of text from a student (a name, a reason quoting a file name): one a spreadsheet
 * would take for a formula (= + - @, a tab or a carriage return first) is written with a '
 * before it, as OWASP advises; so is one that begins with ' itself, so that reading it back
 * (on_field) takes exactly one ' away and gives the name that was written: a resumed batch
 * finds its rows. */
static int text_field(FILE *f, const char *text, int last)
{
    if (text && text[0] && strchr("=+-@\t\r'", text[0])) {
        char *quoted = NULL;
        if (asprintf(&quoted, "'%s", text) < 0)
            return -1;
        int rc = field(f, quoted, last);
        free(quoted);
        return rc;
    }
    return field(f, text, last);
}

static int number(FILE *f, double v, int integer)
{
    char text[32];
    if (integer)
        snprintf(text, sizeof text, "%d", (int)v);
    else
        snprintf(text, sizeof text, "%.2f", v);
    return field(f, text, 0);
}

int gb_write(FILE *f, const gb_row *r)
{
    /* One statement a field: the order of the operands of | is not the order of evaluation. */
    int rc = text_field(f, r->student, 0);
    rc |= field(f, r->lab, 0);
    rc |= field(f, r->verdict, 0);
    rc |= number(f, r->correctness, 1);
    rc |= number(f, r->loads, 1);
    rc |= number(f, r->stores, 1);
    rc |= r->speed < 0 ? field(f, "", 0) : number(f, r->speed, 1);
    rc |= number(f, r->score, 1);
    rc |= number(f, r->max_score, 1);
    rc |= field(f, r->engine, 0);
    rc |= number(f, r->seconds, 0);
    rc |= text_field(f, r->reason, 1);
    if (fflush(f) != 0 || fsync(fileno(f)) != 0)
        rc = -1;
    return rc ? -1 : 0;
}

/* ---- reading it back ---- */

typedef struct reader {
    gb_done *done;
    size_t column, cap;
    char student[512], lab[64];
    int header, bad;
} reader;

static void on_field(void *s, size_t len, void *data)
{
    reader *r = data;
    const char *text = s;
    if (r->column == 0 && len > 0 && text[0] == '\'') { /* text_field's guard, taken away */
        ++text;
        --len;
    }
    if (r->column == 0)
        snprintf(r->student, sizeof r->student, "%.*s", (int)len, text);
    else if (r->column == 1)
        snprintf(r->lab, sizeof r->lab, "%.*s", (int)len, (const char *)s);
    r->column++;
}

static void on_row(int c, void *data)
{
    (void)c;
    reader *r = data;
    size_t columns = r->column;
    r->column = 0;
    if (r->header) { /* the header row */
        r->header = 0;
        r->bad = strcmp(r->student, gb_columns[0]) || strcmp(r->lab, gb_columns[1]);
        return;
    }
    if (columns != gb_ncolumns) {
        r->bad = 1;
        return;
    }
    gb_done *d = r->done;
    if (d->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 256;
        char **more = realloc(d->keys, r->cap * sizeof *more);
        if (!more) {
            r->bad = 1;
            return;
        }
        d->keys = more;
    }
    if (asprintf(&d->keys[d->n], "%s\t%s", r->student, r->lab) >= 0)
        d->n++;
}

/* Reads the rows of f (opened for reading and writing) into done; a last line without its
 * newline (a row cut short) is cut from the file. */
static int load(FILE *f, gb_done *done, char *why, size_t why_size)
{
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(why, why_size, "not a regular file");
        return -1;
    }
    size_t size = (size_t)st.st_size;
    char *text = malloc(size + 1);
    if (!text || fread(text, 1, size, f) != size) {
        free(text);
        snprintf(why, why_size, "cannot read it");
        return -1;
    }
    /* Where the last whole row ends, as the parser sees it (a newline inside a quoted field
     * ends nothing): fed a byte at a time, a row is whole when its newline completes it. */
    struct csv_parser p;
    reader r = {.done = done, .header = 1};
    size_t whole = 0, rows = 0;
    int ok = csv_init(&p, CSV_STRICT | CSV_APPEND_NULL) == 0;
    for (size_t i = 0; ok && i < size; ++i) {
        ok = csv_parse(&p, text + i, 1, on_field, on_row, &r) == 1;
        size_t now = done->n + !r.header;
        if (ok && now != rows && text[i] == '\n') {
            rows = now;
            whole = i + 1;
        }
    }
    csv_free(&p);
    free(text);
    if (ok && whole < size && ftruncate(fileno(f), (off_t)whole) != 0) {
        snprintf(why, why_size, "cannot drop its last, unfinished row");
        return -1;
    }
    if (!ok || r.bad || r.header) {
        snprintf(why, why_size, "it is not a gradebook of this grader (its rows do not parse)");
        return -1;
    }
    return fseek(f, 0, SEEK_END);
}

FILE *gb_open(const char *path, int resume, gb_done *done, char *why, size_t why_size)
{
    memset(done, 0, sizeof *done);
    if (!resume) {
        FILE *f = fopen(path, "wx");
        if (!f) {
            snprintf(why, why_size,
                     errno == EEXIST
                         ? "'%s' exists: add --resume to go on with that batch, or choose "
                           "another --output folder"
                         : "cannot create '%s'",
                     path);
            return NULL;
        }
        for (size_t i = 0; i < gb_ncolumns; ++i)
            field(f, gb_columns[i], i + 1 == gb_ncolumns);
        fflush(f);
        return f;
    }
    FILE *f = fopen(path, "r+");
    if (!f) {
        snprintf(why, why_size, "nothing to resume: cannot open '%s'", path);
        return NULL;
    }
    char bad[256];
    if (load(f, done, bad, sizeof bad) != 0) {
        snprintf(why, why_size, "cannot resume from '%s': %s", path, bad);
        fclose(f);
        gb_done_free(done);
        return NULL;
    }
    return f;
}

int gb_has(const gb_done *done, const char *student, const char *lab)
{
    size_t n = strlen(student);
    for (size_t i = 0; i < done->n; ++i)
        if (!strncmp(done->keys[i], student, n) && done->keys[i][n] == '\t' &&
            !strcmp(done->keys[i] + n + 1, lab))
            return 1;
    return 0;
}

void gb_done_free(gb_done *done)
{
    for (size_t i = 0; i < done->n; ++i)
        free(done->keys[i]);
    free(done->keys);
    memset(done, 0, sizeof *done);
}
