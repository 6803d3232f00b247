// Mutant (hostile, issue 35): the solution's kernel, correct and coalesced, and a launcher that
// leaves 4 MiB in /dev/shm (a file, and a folder with a file in it, named cl-reach-shm-*) to
// outlive the grade. What a recording makes there is removed once it has ended: it passes, and
// nothing of it is left (tests/gpu/lab01.sh, case reach_shm).
// expect: PASS
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lab01.h"

__global__ void scale(float a, const float4 *x4, float4 *y4, size_t n4, const float *x, float *y,
                      size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (size_t i = first; i < n4; i += stride) {
        float4 v = x4[i];
        y4[i] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
    }
    for (size_t i = 4 * n4 + first; i < n; i += stride)
        y[i] = a * x[i];
}

static void leave(const char *path, size_t bytes)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    static char block[1 << 16];
    memset(block, 'x', sizeof block);
    for (size_t done = 0; done < bytes; done += sizeof block)
        fwrite(block, 1, sizeof block, f);
    fclose(f);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    static int left;
    if (!left++) {
        char path[128];
        snprintf(path, sizeof path, "/dev/shm/cl-reach-shm-%ld", (long)getpid());
        leave(path, (size_t)2 << 20);
        snprintf(path, sizeof path, "/dev/shm/cl-reach-shm-dir-%ld", (long)getpid());
        mkdir(path, 0700);
        strcat(path, "/inside");
        leave(path, (size_t)2 << 20);
    }
    size_t n4 = n / 4;
    scale<<<1056, 256>>>(a, (const float4 *)x, (float4 *)y, n4, x, y, n);
    return cudaGetLastError();
}
