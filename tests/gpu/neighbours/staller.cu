// A hostile neighbour for tests/gpu/neighbours.sh (lab 01): a correct, coalesced kernel and a
// launcher whose first recording fails (a mark left in its folder) and whose second, the one
// the grader runs after a failure beside others, sleeps 45 s. That second run must not hold the
// GPU alone: the other rows go on.
#include <stdio.h>
#include <unistd.h>
#include "lab01.h"

__global__ void scale(float a, const float *x, float *y, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    static int called;
    if (!called++) {
        FILE *mark = fopen("staller-was-here", "r");
        if (!mark) {
            mark = fopen("staller-was-here", "w");
            if (mark)
                fclose(mark);
            return cudaErrorUnknown; /* the first run fails */
        }
        fclose(mark);
        sleep(45); /* the second stalls */
    }
    scale<<<1056, 256>>>(a, x, y, n);
    return cudaGetLastError();
}
