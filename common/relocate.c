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

int rl_find(const rl_buffer *b, uint32_t nb, const unsigned char *params, const uint32_t *off,
            const uint32_t *size, uint32_t nparams, wi_reloc *out, uint32_t max, uint32_t *n)
{
    *n = 0;
    for (uint32_t p = 0; p < nparams; ++p) {
        for (uint32_t k = off[p] % 8 ? 8 - off[p] % 8 : 0; k + 8 <= size[p]; k += 8) {
            uint64_t word;
            memcpy(&word, params + off[p] + k, sizeof word);
            uint32_t buffer;
            uint64_t delta;
            if (rl_locate(b, nb, word, &buffer, &delta) != 0)
                continue;
            if (*n == max)
                return -1;
            out[(*n)++] = (wi_reloc){.offset = off[p] + k, .buffer = buffer, .delta = delta};
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
