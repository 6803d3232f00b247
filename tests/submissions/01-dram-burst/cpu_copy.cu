// Mutant: computes the answer on the CPU (copies x to the host, scales, copies back) and
// prints "PASS". Must fail: no kernel made global loads, and its printed words are ignored.
#include <stdio.h>
#include <stdlib.h>
#include "lab01.h"

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    float *h = (float *)malloc(n * sizeof(float));
    if (!h)
        return cudaErrorMemoryAllocation;
    cudaError_t err = cudaMemcpy(h, x, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (size_t i = 0; err == cudaSuccess && i < n; ++i)
        h[i] *= a;
    if (err == cudaSuccess)
        err = cudaMemcpy(y, h, n * sizeof(float), cudaMemcpyHostToDevice);
    free(h);
    printf("PASS\n10 passed, 0 failed\n");
    return err;
}
