// Mutant (hostile): copies x into shared memory with cp.async (__pipeline_memcpy_async, in the
// stub's chunked order: every thread its own 16 consecutive words), which the trace and the
// global load counters do not see as global loads, then writes y coalesced from shared memory.
// The device code is scanned: must fail on the contract, the reason naming cp.async.
#include <cuda_pipeline.h>
#include "lab01.h"

#define CHUNK 16
#define THREADS 256

__global__ void scale_staged(float a, const float *x, float *y, size_t n)
{
    __shared__ float tile[THREADS * CHUNK];
    size_t base = (size_t)blockIdx.x * THREADS * CHUNK;
    size_t first = base + (size_t)threadIdx.x * CHUNK;
    for (unsigned j = 0; j < CHUNK; ++j)
        if (first + j < n)
            __pipeline_memcpy_async(&tile[threadIdx.x * CHUNK + j], &x[first + j], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    for (unsigned j = 0; j < CHUNK; ++j) {
        size_t i = base + (size_t)j * THREADS + threadIdx.x;
        if (i < n)
            y[i] = a * tile[j * THREADS + threadIdx.x];
    }
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    size_t blocks = (n + THREADS * CHUNK - 1) / (THREADS * CHUNK);
    scale_staged<<<(unsigned)blocks, THREADS>>>(a, x, y, n);
    return cudaGetLastError();
}
