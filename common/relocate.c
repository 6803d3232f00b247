/* relocate.c - see relocate.h. */
#include "relocate.h"

#include <string.h>

int rl_locate(const rl_buffer *b, uint32_t n, uint64_t addr, uint32_t *buffer, uint64_t *delta)
{
    /* Inside a buffer first: an end that is also the next buffer's start is that buffer's. */
    for (int end_counts = 0; end_counts < 2; ++end_counts)
        for (uint32_t i = 0; i < n; ++i)
            if (addr >= b[i].base &&
                (addr - b[i].base < b[i].bytes || (end_counts && addr - b[i].base == b[i].bytes))) {
                *buffer = i;
                *delta = addr - b[i].base;
                return 0;
            }
    return -1;
}

/* Whether the 8 bytes at params + at hold an address inside one of the buffers. */
static int pointer_at(const rl_buffer *b, uint32_t nb, const unsigned char *params, uint32_t at,
                      uint32_t *buffer, uint64_t *delta)
{
    uint64_t word;
    memcpy(&word, params + at, sizeof word);
    return rl_locate(b, nb, word, buffer, delta) == 0;
}

int rl_find(const rl_buffer *b, uint32_t nb, const unsigned char *params, const uint32_t *off,
            const uint32_t *size, uint32_t nparams, wi_reloc *out, uint32_t max, uint32_t *n)
{
    *n = 0;
    for (uint32_t p = 0; p < nparams; ++p) {
        uint32_t end = off[p] + size[p];
        for (uint32_t at = off[p]; at + 8 <= end;) {
            uint32_t buffer;
            uint64_t delta;
            /* An aligned word overlapping this one wins: a pointer the compiler laid out. */
            uint32_t aligned = at % 8 ? at + 8 - at % 8 : at;
            if (aligned != at && aligned + 8 <= end &&
                pointer_at(b, nb, params, aligned, &buffer, &delta)) {
                at = aligned;
                continue;
            }
            if (!pointer_at(b, nb, params, at, &buffer, &delta)) {
                ++at;
                continue;
            }
            if (*n == max)
                return -1;
            out[(*n)++] = (wi_reloc){.offset = at, .buffer = buffer, .delta = delta};
            at += 8;
        }
    }
    return 0;
}

void rl_apply(unsigned char *params, const wi_reloc *r, uint32_t n, const uint64_t *bases)
{
    for (uint32_t i = 0; i < n; ++i) {
        uint64_t addr = bases[r[i].buffer] + r[i].delta;
        memcpy(params + r[i].offset, &addr, sizeof addr);
    }
}
