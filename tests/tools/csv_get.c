/*
 * csv_get.c - reads a batch's gradebook for the shell tests:
 *     csv-get gradebook.csv STUDENT LAB COLUMN    the value (exit 1 when there is no such row)
 *     csv-get gradebook.csv --rows                the number of rows below the header
 *     csv-get gradebook.csv --keys                "student lab verdict score", one row a line
 * Parsed with libcsv, as the grader writes it.
 */
#define _GNU_SOURCE
#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLUMNS 32

static char *header[MAX_COLUMNS], *row[MAX_COLUMNS];
static size_t ncolumns, column, rows;
static int in_header = 1, found;
static const char *want_student, *want_lab, *want_column, *mode;

static void on_field(void *s, size_t len, void *data)
{
    (void)data;
    if (column < MAX_COLUMNS) {
        char **slot = in_header ? &header[column] : &row[column];
        free(*slot);
        *slot = strndup(s, len);
    }
    column++;
}

static const char *value(const char *name)
{
    for (size_t i = 0; i < ncolumns && i < MAX_COLUMNS; ++i)
        if (header[i] && !strcmp(header[i], name))
            return row[i] ? row[i] : "";
    return NULL;
}

static void on_row(int c, void *data)
{
    (void)c;
    (void)data;
    if (in_header) {
        in_header = 0;
        ncolumns = column;
        column = 0;
        return;
    }
    column = 0;
    rows++;
    if (mode && !strcmp(mode, "--keys")) {
        printf("%s %s %s %s\n", value("student"), value("lab"), value("verdict"), value("score"));
    } else if (!mode && !strcmp(value("student"), want_student) &&
               !strcmp(value("lab"), want_lab)) {
        const char *v = value(want_column);
        if (v) {
            printf("%s\n", v);
            found = 1;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc == 3 && (!strcmp(argv[2], "--rows") || !strcmp(argv[2], "--keys"))) {
        mode = argv[2];
    } else if (argc == 5) {
        want_student = argv[2], want_lab = argv[3], want_column = argv[4];
    } else {
        fprintf(stderr, "usage: csv-get FILE STUDENT LAB COLUMN | FILE --rows | FILE --keys\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "csv-get: cannot read '%s'\n", argv[1]);
        return 2;
    }
    struct csv_parser p;
    csv_init(&p, CSV_APPEND_NULL);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (csv_parse(&p, buf, n, on_field, on_row, NULL) != n) {
            fprintf(stderr, "csv-get: '%s' does not parse\n", argv[1]);
            return 2;
        }
    csv_fini(&p, on_field, on_row, NULL);
    csv_free(&p);
    fclose(f);
    if (mode && !strcmp(mode, "--rows"))
        printf("%zu\n", rows);
    return mode || found ? 0 : 1;
}
