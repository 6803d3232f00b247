/* devinfo_text.c - the parts of devinfo.h that need no CUDA, for the grader's own process. */
#include <stdio.h>

#include "devinfo.h"

void di_version_string(int version, char *buf, size_t size)
{
    snprintf(buf, size, "%d.%d", version / 1000, (version % 1000) / 10);
}

double di_peak_bytes_per_s(const di_info *info)
{
    /* Double data rate: two transfers a clock on each of the bus's lines. */
    return 2.0 * info->mem_clock_khz * 1e3 * (info->bus_width_bits / 8.0);
}
