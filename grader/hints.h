/*
 * hints.h - a hint chosen from the measured signature of a kernel's global accesses.
 *
 * Pure C. The signature is the mean sectors per request against the fewest that could carry
 * the bytes asked for: 32 sectors for 128 bytes means lanes 32 bytes or more apart, 12 a
 * 12-byte struct, 5 rows that start unaligned, 1 with few bytes a broadcast (which is fine).
 */
#ifndef CL_HINTS_H
#define CL_HINTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Writes one or two sentences about requests that asked for bytes_per_request bytes on
 * average and touched sectors_per_request sectors, for an access called what ("loads",
 * "stores"). Writes an empty string when the requests are already efficient. */
void hn_signature(const char *what, double sectors_per_request, double bytes_per_request, char *buf,
                  size_t size);

#ifdef __cplusplus
}
#endif

#endif
