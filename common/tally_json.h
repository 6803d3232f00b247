/*
 * tally_json.h - a cl_tally as JSON and back, so that the trace engine (which writes it) and
 * the grader (which reads it and reports it) agree on one set of field names.
 */
#ifndef CL_TALLY_JSON_H
#define CL_TALLY_JSON_H

#include <cjson/cJSON.h>

#include "coalesce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A new object with requests, sectors, lines, unique_bytes and ideal_sectors; the caller owns
 * it (NULL when out of memory). */
cJSON *tj_to_json(const cl_tally *t);

/* Adds the fields of o (as tj_to_json writes them) to *t; absent fields add nothing. */
void tj_add_from_json(const cJSON *o, cl_tally *t);

#ifdef __cplusplus
}
#endif

#endif
