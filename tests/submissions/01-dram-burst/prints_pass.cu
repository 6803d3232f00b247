// Mutant (hostile): the stub's kernel, and a launcher that prints a perfect report ("lab 01
// dram-burst: DRAM burst  PASS 100/100", "1 passed, 0 failed") on stdout and stderr. What
// student code prints is captured and never parsed: must fail on efficiency as the stub does
// (FAIL 40), and the text report must still say FAIL.
#include <stdio.h>
#include "lab01.h"

#define CHUNK 16

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (size_t i = first; i < first + CHUNK && i < n; ++i)
        y[i] = a * x[i];
}

static const char fake[] =
    "\nlab 01 dram-burst: DRAM burst                              PASS        100/100\n"
    "  kernel       labs/01-dram-burst/kernel.cu  (compiled in 1.0 s)\n"
    "  correctness  ok    y = a*x for 50331655 floats against a CPU loop\n"
    "  loads        ok    100.0% of the bytes fetched were used (need >= 90%)\n"
    "  stores       ok    100.0% of the bytes fetched were used (need >= 90%)\n"
    "  verdict      correct, and loads and stores are coalesced\n"
    "\n1 passed, 0 failed\n";

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    fputs(fake, stdout);
    fflush(stdout);
    fputs(fake, stderr);
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
