/* salt.c - see salt.h. */
#define _POSIX_C_SOURCE 200809L
#include "salt.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "seeded.h"

int sl_random(void *buf, size_t n)
{
    FILE *f = fopen("/dev/urandom", "rb");
    int ok = f && fread(buf, 1, n, f) == n;
    if (f)
        fclose(f);
    if (ok)
        return 0;
    /* No random source: the clock's nanoseconds, the process and a counter, mixed. */
    static uint64_t calls;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t state = ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)ts.tv_nsec ^
                     ((uint64_t)getpid() << 40) ^ (++calls * SD_GAMMA);
    unsigned char *out = buf;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = sd_value_at(state, i / 8);
        memcpy(out + i, &v, n - i < 8 ? n - i : 8);
    }
    return -1;
}

int sl_draw_run(sl_run *run)
{
    uint64_t bits[3];
    int rc = sl_random(bits, sizeof bits);
    run->salt = bits[0];
    run->record_salt = bits[1] != bits[0] ? bits[1] : ~bits[0];
    run->poison = sl_poison((uint32_t)bits[2]);
    run->record_poison = sl_poison((uint32_t)(bits[2] >> 32));
    if (run->record_poison == run->poison)
        run->record_poison = sl_poison(~(uint32_t)(bits[2] >> 32) ^ 2u);
    return rc;
}

/* The sign, the exponent and the quiet bit, and the payload below it. */
#define QUIET_NAN UINT32_C(0x7fc00000)
#define PAYLOAD UINT32_C(0x003fffff)
#define SIGN UINT32_C(0x80000000)

uint32_t sl_poison(uint32_t bits)
{
    uint32_t p = QUIET_NAN | (bits & (SIGN | PAYLOAD));
    uint32_t payload = p & PAYLOAD;
    if (payload == 0 || payload == PAYLOAD)
        p ^= 1; /* neither the default NaN of x86 (payload 0) nor of CUDA (all ones) */
    return p;
}

int sl_is_poison(uint32_t p)
{
    uint32_t payload = p & PAYLOAD;
    return (p & ~(SIGN | PAYLOAD)) == QUIET_NAN && payload != 0 && payload != PAYLOAD;
}
