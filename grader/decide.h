/*
 * decide.h - the verdict of one graded lab, from what was measured. Pure C: no I/O, no child,
 * no GPU, so it is tested with outcomes built by hand (tests/unit/test_grade.c).
 */
#ifndef CL_DECIDE_H
#define CL_DECIDE_H

#include "outcome.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Decides the stage that stopped *o (or OC_STAGE_PASSED), its verdict, score and parts,
 * reason, hint, graded engine and efficiencies, the instruction to blame, and whether the
 * engines disagree, from the measured fields of *o. */
void gr_decide(oc_outcome *o);

#ifdef __cplusplus
}
#endif

#endif
