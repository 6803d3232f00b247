/*
 * salt.h - what a grading run draws afresh from the system's random source and keeps from the
 * student's recording: the replays' data salt (seeded.h, sd_data_seed), the recording's own,
 * and the poison written over every output and guard.
 *
 * The grader draws them once a run (sl_draw_run) and hands them to its children: the poison
 * to every child on its command line (wire.h, --poison), the replays' salt only to the
 * replays, in their environment (wire.h, WI_ENV_DATA_SALT), the recording's only to the
 * recording. So the recording runs the launchers on other arrays than those that are graded,
 * and no fixed byte pattern tells an output nobody wrote from one a kernel wrote.
 */
#ifndef CL_SALT_H
#define CL_SALT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sl_run {
    uint64_t salt;        /* the replays' data salt (and the grader's checks of them) */
    uint64_t record_salt; /* the recording's, never equal to salt */
    uint32_t poison;      /* sl_poison of random bits: the replays' */
    /* The recording's poison, never equal to poison: its host code can read its own (on its
     * command line) and hand it to a kernel that writes it where it must not, past an output,
     * over guards that would then look untouched in a replay. */
    uint32_t record_poison;
} sl_run;

/* Fills buf with n random bytes from /dev/urandom; where it cannot be read, from the clock
 * and the process (weaker, never the same twice in a row). Returns 0, or -1 for the fallback. */
int sl_random(void *buf, size_t n);

/* Draws a run's salts and poison with sl_random. Returns what sl_random returned. */
int sl_draw_run(sl_run *run);

/* The poison made of 32 random bits: a quiet NaN (exponent all ones, the quiet bit set) with
 * a random sign and payload, never one a GPU or a CPU makes itself (0x7fffffff, 0x7fc00000,
 * 0xffc00000, and 0xffffffff, the poison of old), so that an element a kernel computed as NaN
 * never passes for one it did not write. */
uint32_t sl_poison(uint32_t bits);

/* Whether p is a poison sl_poison can return. */
int sl_is_poison(uint32_t p);

/* The poison where none was drawn (a child started by hand): sl_poison(0). */
#define SL_DEFAULT_POISON UINT32_C(0x7fc00001)

/* Byte offset of memory filled with poison words from a 4-byte aligned start (little-endian,
 * as the GPU and the grader's CPU store them). */
static inline unsigned sl_poison_byte(uint32_t poison, size_t offset)
{
    return (poison >> (8 * (offset % 4))) & 0xffu;
}

#ifdef __cplusplus
}
#endif

#endif
