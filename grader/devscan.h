/*
 * devscan.h - what the grader checks of a compiled kernel's device code before any of the
 * student's code runs: the instructions that move global memory where no engine measures it
 * (cp.async, bulk copies, the tensor memory accelerator, texture and surface access) are
 * refused by name, decided from the SASS the GPU runs (cuobjdump -sass, sassscan.h), or from
 * the PTX (ptxscan.h) where cuobjdump is missing or fails. The SASS listing is kept, so that
 * the trace can tell what each instruction it saw is (global atomics, generic addresses).
 */
#ifndef CL_DEVSCAN_H
#define CL_DEVSCAN_H

#include <limits.h>

#include "grade.h"
#include "lab.h"
#include "outcome.h"
#include "sassscan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checks the device code nvcc kept in keep (its cubins, or kernel.fatbin from the compile
 * cache): fills o->refused with what it refuses, o->counters_blind with the instructions the
 * counters do not count, or o->run_problem where the code cannot be checked (it is then never
 * run); writes the SASS listing to keep/device.sass. */
void gr_scan_device_code(const gr_config *cfg, const lab_spec *spec, const char *keep,
                         oc_outcome *o);

/* The listing gr_scan_device_code kept in keep; NULL where there is none (the PTX was checked
 * instead). Free with ss_free. */
ss_listing *gr_device_listing(const char *keep);

#ifdef __cplusplus
}
#endif

#endif
