/*
 * warpfig.h - draws one warp request as a Graphviz figure: the active lanes, the 32-byte
 * sectors they touch (the bytes they asked for shaded, the rest of each sector white), and the
 * 128-byte lines those sectors belong to. Pure C; used by 'grade --explain' (a sampled warp of
 * the worst instruction) and 'grade --model' (a pattern typed by hand).
 */
#ifndef CL_WARPFIG_H
#define CL_WARPFIG_H

#include <stdio.h>

#include "coalesce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the figure of req as a DOT graph titled title. Returns 0, or -1 when req is not a
 * valid request (see cl_request_cost). Addresses are shown relative to the first touched
 * line, so the figure reads the same wherever the array lies. */
int wf_write_dot(FILE *out, const cl_request *req, const char *title);

#ifdef __cplusplus
}
#endif

#endif
