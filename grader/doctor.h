/*
 * doctor.h - 'grade --doctor': checks what grading needs on this machine and, for each thing
 * missing, prints the exact fix.
 */
#ifndef CL_DOCTOR_H
#define CL_DOCTOR_H

#include <stdio.h>

#include "grade.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs every check, prints one line each (and a fix under each failure) to out. Returns 0
 * when grading can run fully here, 3 otherwise. */
int dr_run(const gr_config *cfg, const char *workdir, FILE *out);

/* The fix for counters restricted to administrators on this OS, as lines to print. os_id is
 * /etc/os-release's ID ("ubuntu", "fedora", ...), or "windows", "wsl"; NULL means unknown. */
const char *dr_counter_fix(const char *os_id);

/* Runs 'nvcc --version' (or another tool of the toolkit's, such as cuobjdump) and writes its
 * release ("13.0") into buf; "" when it cannot run. */
void dr_nvcc_version(const char *nvcc, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
