// Mutant (hostile): cp_async's copy into shared memory, written as inline PTX with a label in
// front of each cp.async (`hidden: cp.async.ca.shared.global ...`, and `done:` before the
// wait), which a scan of the PTX text that looked for statements by their first word did not
// see. The SASS the GPU runs has no labels: it holds LDGSTS. Must fail on the contract, the
// reason naming cp.async.
#include "lab01.h"

#define CHUNK 16
#define THREADS 256

__global__ void scale_staged(float a, const float *x, float *y, size_t n)
{
    __shared__ float tile[THREADS * CHUNK];
    size_t base = (size_t)blockIdx.x * THREADS * CHUNK;
    size_t first = base + (size_t)threadIdx.x * CHUNK;
    for (unsigned j = 0; j < CHUNK; ++j)
        if (first + j < n) {
            unsigned to = (unsigned)__cvta_generic_to_shared(&tile[threadIdx.x * CHUNK + j]);
            asm volatile("{\n hidden: cp.async.ca.shared.global [%0], [%1], 4;\n}\n" ::"r"(to),
                         "l"(&x[first + j]));
        }
    asm volatile("{\n done: cp.async.wait_all;\n}\n");
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
