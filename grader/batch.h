/*
 * batch.h - grading a folder of submissions (grade --submissions DIR): intake.c reads them,
 * each student's labs are graded with gr_grade_lab, one after another or several side by side
 * (every submission in children of its own, so a crash, hang or hostile file costs that
 * submission only), and gradebook.c writes a row as each is done. Beside the gradebook, one
 * Markdown feedback file per student holds the text report of each of its labs.
 *
 *     OUT/gradebook.csv          student, lab, verdict, points per part, score, engine, reason
 *     OUT/feedback/STUDENT.md    the text report of every lab of STUDENT
 *     OUT/results/STUDENT.json   the same as Gradescope's results.json (a test per part)
 */
#ifndef CL_BATCH_H
#define CL_BATCH_H

#include <stdio.h>

#include "grade.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bt_options {
    const char *submissions;     /* the folder of submissions */
    const char *out;             /* where the gradebook and feedback go */
    int resume;                  /* go on with the gradebook in out, grading what it lacks */
    const lab_spec *const *labs; /* the labs to grade in each submission */
    size_t nlabs;
    const char *workdir;    /* the session's work folder: each lab graded below it, then removed */
    int keep;               /* keep each lab's work folder */
    unsigned shard, shards; /* shards > 0: only the submissions (sorted by name) whose index
                             * modulo shards is shard */
    /* > 1 (and no shards): one worker per GPU, each a share of the batch with
     * CUDA_VISIBLE_DEVICES set to its GPU, into OUT/gpu-K/, joined into OUT */
    unsigned gpus;
    /* > 1: that many rows graded side by side on each GPU (pool.h), the measured sections
     * alone on it; else one after another */
    unsigned slots;
} bt_options;

/* Grades the batch; progress lines go to progress (NULL: none). Returns the grader's exit
 * status: 0 every row passed, 1 some did not, 2 a usage problem (no such folder, a gradebook
 * that exists without --resume), 3 an environment problem (cannot write the output). */
int bt_run(const gr_config *cfg, const bt_options *opt, FILE *progress);

/* Reads the class in opt->submissions and prints to out, for every student and lab, the file
 * that would be graded, or its verdict without grading (REFUSED, MISSING) and why: what an
 * instructor checks on a laptop before the batch. Nothing is compiled or run. Returns 0 when
 * every row would be graded, 1 when some would not, 2 when the folder cannot be read. */
int bt_check(const bt_options *opt, FILE *out);

/* The file name a student's feedback is written under: name with every character but letters,
 * digits, '.', '_', '-' and '@' replaced by '_' (a leading '.' too). */
void bt_file_name(const char *name, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
