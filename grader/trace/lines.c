/* lines.c - see lines.h. */
#include "lines.h"

#include <cupti.h>
#include <cupti_pcsampling.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tl_line_of(const void *cubin, size_t cubin_size, const char *function, uint64_t pc_offset,
               char *file, size_t size, unsigned *line)
{
    file[0] = '\0';
    *line = 0;
    CUpti_GetSassToSourceCorrelationParams p;
    memset(&p, 0, sizeof p);
    p.size = CUpti_GetSassToSourceCorrelationParamsSize;
    p.cubin = cubin;
    p.cubinSize = cubin_size;
    p.functionName = function;
    p.pcOffset = pc_offset;
    CUptiResult r = cuptiGetSassToSourceCorrelation(&p);
    if (r != CUPTI_SUCCESS)
        return (int)r;
    snprintf(file, size, "%s%s%s", p.dirName && *p.dirName ? p.dirName : "",
             p.dirName && *p.dirName ? "/" : "", p.fileName ? p.fileName : "");
    *line = p.lineNumber;
    free(p.fileName);
    free(p.dirName);
    return 0;
}
