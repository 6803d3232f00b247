/*
 * gradebook.h - the CSV gradebook of a batch: one row per student and lab, written with libcsv
 * and flushed to disk as each is graded, so that an interrupted batch loses no finished row and
 * `grade --submissions DIR --resume` grades only what has no row yet.
 */
#ifndef CL_GRADEBOOK_H
#define CL_GRADEBOOK_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gb_row {
    const char *student, *lab;
    const char *verdict; /* PASS, FAIL, NOT GRADED, MISSING (no file), REFUSED (a bad file) */
    int correctness, loads, stores, speed; /* the parts' points; speed -1 where there is none */
    int score, max_score;
    const char *engine; /* trace, counters or none */
    double seconds;     /* the lab's grading time */
    const char *reason;
} gb_row;

/* The columns, in order, as the header row names them. */
extern const char *const gb_columns[];
extern const size_t gb_ncolumns;

/* The (student, lab) pairs a gradebook already holds. */
typedef struct gb_done {
    char **keys; /* "student\tlab" */
    size_t n;
} gb_done;

/* Opens path for a batch: a new gradebook (it must not exist) with its header, or, to resume,
 * the existing one, whose rows are read into *done (a last row cut short by a kill is dropped
 * from the file). NULL with why on failure. */
FILE *gb_open(const char *path, int resume, gb_done *done, char *why, size_t why_size);

/* Appends one row and flushes it to disk; 0, or -1. */
int gb_write(FILE *f, const gb_row *row);

int gb_has(const gb_done *done, const char *student, const char *lab);
void gb_done_free(gb_done *done);

#ifdef __cplusplus
}
#endif

#endif
