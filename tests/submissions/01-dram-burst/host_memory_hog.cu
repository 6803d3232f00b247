// Mutant (hostile): the stub's kernel, and a constructor that takes host memory 1 GiB at a
// time (malloc and memset) until malloc fails, to take the machine down. The recording's heap
// is limited (RLIMIT_DATA, 32 GiB): it must be stopped below its own cap of 48 GiB, and the
// grader must report a failure on efficiency as the stub does (FAIL 40): the memory is given
// back before the launcher runs. For safety it never takes more than 48 GiB.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lab01.h"

#define CHUNK 16
#define PIECE ((size_t)1 << 30)
#define MAX_PIECES 48

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (size_t i = first; i < first + CHUNK && i < n; ++i)
        y[i] = a * x[i];
}

// Called through a volatile pointer, so that the compiler cannot drop the unused memory.
static void *(*volatile fill)(void *, int, size_t) = memset;

__attribute__((constructor)) static void take_the_memory(void)
{
    void *pieces[MAX_PIECES];
    int taken = 0;
    while (taken < MAX_PIECES) {
        void *p = malloc(PIECE);
        if (!p)
            break;
        fill(p, 0x5a, PIECE);
        pieces[taken++] = p;
    }
    printf("hostile: took %d GiB of host memory\n", taken);
    fflush(stdout);
    while (taken > 0)
        free(pieces[--taken]);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
