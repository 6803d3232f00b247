/* hints.c - see hints.h. */
#include "hints.h"
#include "i18n.h"

#include <math.h>
#include <stdio.h>

static int near(double x, double target, double slack)
{
    return fabs(x - target) <= slack;
}

void hn_signature(const char *what, double spr, double bpr, char *buf, size_t size)
{
    buf[0] = '\0';
    if (!(spr > 0) || !(bpr > 0)) /* NaN too */
        return;
    double ideal = ceil(bpr / 32.0);
    if (ideal < 1)
        ideal = 1;
    double waste = spr / ideal;
    if (waste < 1.1) {
        if (spr <= 1.05 && bpr < 32)
            snprintf(buf, size,
                     _("%s: about 1 sector per request for %.0f bytes: the lanes read words that "
                       "share one sector (a broadcast when they all read the same word), which "
                       "costs one sector and is fine."),
                     what, bpr);
        return;
    }
    if (spr >= 24 && bpr <= 160)
        snprintf(buf, size,
                 _("%s: %.1f sectors per request for %.0f bytes: neighbouring lanes are 32 bytes "
                   "or more apart, so every lane pulls a 32-byte sector of its own and uses a few "
                   "bytes of it. Make consecutive threads (threadIdx.x) touch consecutive words."),
                 what, spr, bpr);
    else if (near(spr, 12, 0.6) && near(bpr, 128, 16))
        snprintf(buf, size,
                 _("%s: about 12 sectors per request for %.0f bytes: lanes 12 bytes apart, as when "
                   "each thread reads one field of a 12-byte struct. Keep each field in an array "
                   "of its own (structure of arrays)."),
                 what, bpr);
    else if (near(waste, 1.25, 0.1) || (ideal >= 2 && near(spr, ideal + 1, 0.15)))
        snprintf(buf, size,
                 _("%s: %.1f sectors per request where %.0f would carry the bytes: each warp's "
                   "words are contiguous but start off a 32-byte boundary, as rows do whose length "
                   "in bytes is not a multiple of 32. Align where each row starts (pad the rows)."),
                 what, spr, ideal);
    else if (near(waste, 2, 0.25))
        snprintf(buf, size,
                 _("%s: %.1f sectors per request, twice the %.0f needed: lanes use every other "
                   "word (a stride of 2). Map consecutive threads to consecutive words."),
                 what, spr, ideal);
    else if (near(waste, 4, 0.5))
        snprintf(buf, size,
                 _("%s: %.1f sectors per request, four times the %.0f needed: lanes use one word "
                   "in four (each lane four words from the next). Map consecutive threads to "
                   "consecutive words."),
                 what, spr, ideal);
    else
        snprintf(buf, size,
                 _("%s: %.1f sectors per request where %.0f would carry the %.0f bytes asked for: "
                   "some lanes of a warp read far from their neighbours."),
                 what, spr, ideal, bpr);
}
