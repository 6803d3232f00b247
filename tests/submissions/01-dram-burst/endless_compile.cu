// Mutant (hostile): a compile that never ends: a preprocessor explosion, 40 nested calls of
// D(x) = x + x, whose arguments the preprocessor expands in memory first (2^40 tokens). The
// compile has a time limit (180 s) and a memory limit (16 GiB of address space): must fail to
// compile, the log saying nvcc ran out of memory or did not finish in time, and the grader must
// go on.
#include "lab01.h"

#define D(x) x + x

__global__ void explode(float x, float *y)
{
    *y = D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(
        D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(D(x))))))))))))))))))))))))))))))))))))))));
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    explode<<<1, 1>>>(a, y);
    return cudaGetLastError();
}
