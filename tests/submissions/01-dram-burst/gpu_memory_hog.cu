// Mutant (hostile): the stub's kernel, and a constructor that takes all the GPU's free memory
// (1 GiB pieces, then halves down to 1 MiB, until cudaMalloc fails) and keeps it, so that the
// grader cannot set its problem up. Must fail, the out-of-memory CUDA error named in the run's
// log, without hanging; the memory is the process's and goes with it.
#include <stdio.h>
#include "lab01.h"

#define CHUNK 16
#define MAX_PIECES 100000

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (size_t i = first; i < first + CHUNK && i < n; ++i)
        y[i] = a * x[i];
}

__attribute__((constructor)) static void take_the_gpu(void)
{
    size_t piece = (size_t)1 << 30, held = 0;
    for (int i = 0; i < MAX_PIECES && piece >= ((size_t)1 << 20); ++i) {
        void *p = NULL;
        if (cudaMalloc(&p, piece) == cudaSuccess) {
            held += piece;
        } else {
            cudaGetLastError();
            piece /= 2;
        }
    }
    printf("hostile: holds %zu MiB of GPU memory\n", held >> 20);
    fflush(stdout);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
