/* devinfo_text.c - the parts of devinfo.h that need no CUDA, for the grader's own process. */
#include <stdio.h>

#include "devinfo.h"

void di_version_string(int version, char *buf, size_t size)
{
    snprintf(buf, size, "%d.%d", version / 1000, (version % 1000) / 10);
}
