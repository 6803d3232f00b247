/*
 * early_check.h - the check of the graded problem's outputs, made while the run child still
 * times and counts. The child saves its outputs, and writes a first record that says so, before
 * it measures; a thread here waits for that record and checks them meanwhile. The check is used
 * only where those are the outputs the child ended with: it ended cleanly the first time (a
 * second run, alone, writes over the first's outputs), and its last record does not say that it
 * saved them again after timing (lab 04's does). Elsewhere they are checked after the child, as
 * before (grade.c check_outputs).
 */
#ifndef CL_EARLY_CHECK_H
#define CL_EARLY_CHECK_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "lab.h"
#include "runner.h"
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ec_check {
    const lab_spec *spec;
    sd_seeds seeds;
    const char *dir; /* the run's folder: its record and outputs */
    pthread_t thread;
    int started;
    atomic_int child_ended; /* the child is gone: no first record to wait for any more */
    int done;               /* the check was made: rc, check, seconds */
    int rc;                 /* spec->check's return */
    lab_check check;
    double seconds;
    int usable; /* done, on the outputs the child ended with: set by ec_end */
} ec_check;

/* Starts the thread that waits for dir's first record of a run and then checks the outputs of
 * spec's graded problem for seeds (when enabled; else nothing is done). dir must live until
 * ec_end. */
void ec_begin(ec_check *e, const lab_spec *spec, sd_seeds seeds, const char *dir, int enabled);
/* The child has ended: r says how (NULL: it never started), last is its last record (NULL: none
 * could be read). Waits for the check where it was begun, and works out whether it holds. */
void ec_end(ec_check *e, const rn_result *r, const wi_result *last);

#ifdef __cplusplus
}
#endif

#endif
