// Mutant (hostile): host code that behaves differently when it suspects it is measured. With
// a tool injected into its process (the trace engine) or CUPTI's profiler library mapped, it
// launches a coalesced kernel that writes nothing useful; otherwise the stub's correct,
// chunked one. The measurements replay what the recording saw, so it must fail on efficiency
// as the stub does.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lab01.h"

#define CHUNK 16

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (size_t i = first; i < first + CHUNK && i < n; ++i)
        y[i] = a * x[i];
}

__global__ void looks_coalesced(const float *x, float *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] * 0.0f;
}

static int measured(void)
{
    if (getenv("CUDA_INJECTION64_PATH"))
        return 1;
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[1024];
    int profiler = 0;
    while (maps && fgets(line, sizeof line, maps))
        profiler |= strstr(line, "libnvperf") != NULL;
    if (maps)
        fclose(maps);
    return profiler;
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    if (measured()) {
        looks_coalesced<<<(unsigned)((n + 255) / 256), 256>>>(x, y, n);
    } else {
        size_t workers = (n + CHUNK - 1) / CHUNK;
        scale_chunked<<<(unsigned)((workers + 255) / 256), 256>>>(a, x, y, n);
    }
    return cudaGetLastError();
}
