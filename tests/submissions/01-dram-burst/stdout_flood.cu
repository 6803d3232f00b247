// Mutant (hostile): the stub's kernel, after a launcher that writes about 3 GB to stdout and
// stderr (for 30 s at most), to fill the grader's memory or the report. The grader keeps the
// first 16 KiB of a child's output and reads the rest away: must fail on efficiency as the
// stub does (FAIL 40), with a short run log, in reasonable time.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "lab01.h"

#define CHUNK 16
#define PIECE ((size_t)1 << 20)
#define TOTAL ((size_t)3 << 30)
#define MAX_SECONDS 30

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (size_t i = first; i < first + CHUNK && i < n; ++i)
        y[i] = a * x[i];
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void flood(void)
{
    static const char text[] = "lab 01 dram-burst: DRAM burst PASS 100/100 ";
    char *piece = (char *)malloc(PIECE);
    if (!piece)
        return;
    for (size_t i = 0; i < PIECE; ++i)
        piece[i] = i % 64 == 63 ? '\n' : text[i % (sizeof text - 1)];
    double start = now_s();
    size_t sent = 0;
    for (int fd = 1; sent < TOTAL && now_s() - start < MAX_SECONDS; fd = 3 - fd) {
        ssize_t w = write(fd, piece, PIECE);
        if (w <= 0)
            break;
        sent += (size_t)w;
    }
    free(piece);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    flood();
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
