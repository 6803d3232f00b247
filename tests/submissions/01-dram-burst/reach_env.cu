// Mutant (hostile, issue 35): the solution's kernel, and a launcher that prints its whole
// environment into its failure log, which the report quotes, and fails. The grading child
// starts from a small fixed environment: the grader's own variables (tests/gpu/lab01.sh sets
// CL_REACH_SECRET for the grade) must not be in the report.
// expect: FAIL
// expect-stage: run
#include <stdio.h>
#include <unistd.h>
#include "lab01.h"

extern char **environ;

__global__ void scale(float a, const float *x, float *y, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    static int dumped;
    if (!dumped++) {
        for (char **e = environ; *e; ++e)
            fprintf(stderr, "env: %s\n", *e);
        return cudaErrorUnknown;
    }
    scale<<<1024, 256>>>(a, x, y, n);
    return cudaGetLastError();
}
