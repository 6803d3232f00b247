/*
 * relocate.h - pointers in recorded kernel parameters, as places in the lab's buffers.
 *
 * Pure C, no GPU. When the student's launcher runs (grade-worker record), every launch's
 * parameters are copied; 8 bytes that hold an address inside one of the lab's buffers are
 * noted as (buffer, offset into it). When a launch is replayed in another process, whose
 * buffers lie elsewhere, each such word is rewritten to the same place in that process's
 * buffer. The 8 bytes are looked for at every byte of a parameter of 8 bytes or more (a pointer
 * argument, or a pointer field of a structure passed by value, packed ones too, whose pointers
 * may start at any byte); where a word at a multiple of 8 and an unaligned one overlap, the
 * aligned one is taken, and found words never overlap. The test is the value alone, as it was
 * for aligned words only: 8 bytes of a structure's other fields (a float and an int side by
 * side, or straddled by an unaligned word) that happen to spell an address inside a buffer are
 * taken for a pointer. A pointer's bytes read one to seven bytes off spell it times or over a
 * power of 256 (give or take a neighbour's bytes): far outside the lab's buffers, which lie
 * above 4 GiB and within a factor of 256 of one another, so one pointer never spells two.
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
 * *n, parameter after parameter, each after the last, none overlapping another. Returns 0, or
 * -1 when there are more than max. */
int rl_find(const rl_buffer *b, uint32_t nb, const unsigned char *params, const uint32_t *off,
            const uint32_t *size, uint32_t nparams, wi_reloc *out, uint32_t max, uint32_t *n);

/* Writes bases[r.buffer] + r.delta at each relocation's offset in params. */
void rl_apply(unsigned char *params, const wi_reloc *r, uint32_t n, const uint64_t *bases);

#ifdef __cplusplus
}
#endif

#endif
