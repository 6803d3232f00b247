/*
 * relocate.h - pointers in recorded kernel parameters, as places in the lab's buffers.
 *
 * Pure C, no GPU. When the student's launcher runs (grade-worker record), every launch's
 * parameters are copied; an 8-byte word that holds an address inside one of the lab's buffers
 * is noted as (buffer, offset into it). When a launch is replayed in another process, whose
 * buffers lie elsewhere, each such word is rewritten to the same place in that process's
 * buffer. A word is looked at when it starts at a multiple of 8 inside a parameter of 8 bytes
 * or more: a pointer argument, or a pointer field of a structure passed by value.
 */
#ifndef CL_RELOCATE_H
#define CL_RELOCATE_H

#include <stdint.h>

#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One of the lab's allocations in this process: [base, base + bytes), guards included. */
typedef struct rl_buffer {
    uint64_t base, bytes;
} rl_buffer;

/* Which of the n buffers holds addr (its one-past-the-end address counts as inside): returns
 * 0 and sets *buffer and *delta, or -1 when none does. */
int rl_locate(const rl_buffer *b, uint32_t n, uint64_t addr, uint32_t *buffer, uint64_t *delta);

/* Finds the pointers into the nb buffers among the nparams parameters of one launch, laid out
 * in params at off[i] with size[i] bytes. Writes them to out (room for max) and their number to
 * *n. Returns 0, or -1 when there are more than max. */
int rl_find(const rl_buffer *b, uint32_t nb, const unsigned char *params, const uint32_t *off,
            const uint32_t *size, uint32_t nparams, wi_reloc *out, uint32_t max, uint32_t *n);

/* Writes bases[r.buffer] + r.delta at each relocation's offset in params. */
void rl_apply(unsigned char *params, const wi_reloc *r, uint32_t n, const uint64_t *bases);

#ifdef __cplusplus
}
#endif

#endif
