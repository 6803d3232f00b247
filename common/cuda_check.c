/* cuda_check.c - see cuda_check.h. */
#include "cuda_check.h"

#include <stdio.h>
#include <stdlib.h>

void cl_cuda_fail(cudaError_t err, const char *call, const char *file, int line)
{
    fprintf(stderr, "%s:%d: '%s' failed: %s (%s)\n", file, line, call, cudaGetErrorName(err),
            cudaGetErrorString(err));
    fflush(stderr);
    exit(CL_EXIT_CUDA);
}
