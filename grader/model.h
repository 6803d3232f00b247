/*
 * model.h - 'grade --model': the coalescing model for learners without a GPU. One warp
 * request, described by a pattern (size, stride, offset, active lanes) or a list of
 * addresses, is costed by common/coalesce.c and drawn by common/warpfig.c.
 */
#ifndef CL_MODEL_H
#define CL_MODEL_H

#include <stdio.h>

#include "cli.h"
#include "coalesce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds the request o describes. Returns 0, or 2 with a message in err (a usage error). */
int md_request(const cli_options *o, cl_request *req, char *err, size_t err_size);

/* Prints the table of req's cost, with the hint its signature calls for. */
void md_print(FILE *out, const cl_request *req);

/* Writes req's figure to dot_path and renders svg_path with Graphviz's dot when it is on the
 * PATH. Returns 0 when the SVG was drawn, 1 when dot is missing (the .dot is kept), -1 on
 * error. */
int md_figure(const cl_request *req, const char *title, const char *dot_path, const char *svg_path);

#ifdef __cplusplus
}
#endif

#endif
