/* devinfo_text.c - the parts of devinfo.h that need no CUDA, for the grader's own process. */
#include <stdio.h>
#include <string.h>

#include "devinfo.h"

void di_version_string(int version, char *buf, size_t size)
{
    snprintf(buf, size, "%d.%d", version / 1000, (version % 1000) / 10);
}

int di_fp32_lanes_per_sm(int cc_major, int cc_minor)
{
    if (cc_major < 5)
        return 0;
    if ((cc_major == 6 && cc_minor == 0) || cc_major == 7 || (cc_major == 8 && cc_minor == 0))
        return 64;
    return 128;
}

double di_peak_fp32_flops(const di_info *info)
{
    return 2.0 * info->sm_count * di_fp32_lanes_per_sm(info->cc_major, info->cc_minor) *
           info->sm_clock_khz * 1e3;
}

double di_peak_bytes_per_s(const di_info *info)
{
    /* Double data rate: two transfers a clock on each of the bus's lines. */
    return 2.0 * info->mem_clock_khz * 1e3 * (info->bus_width_bits / 8.0);
}

int di_profiling_admin_only(const char *params_path)
{
    FILE *f = fopen(params_path, "r");
    if (!f)
        return -1;
    static const char key[] = "RmProfilingAdminOnly:";
    char line[256];
    int found = -1;
    while (found < 0 && fgets(line, sizeof line, f)) {
        int value;
        if (!strncmp(line, key, sizeof key - 1) && sscanf(line + sizeof key - 1, "%d", &value) == 1)
            found = value != 0;
    }
    fclose(f);
    return found;
}
