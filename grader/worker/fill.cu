/*
 * fill.cu - the grading child's own kernels on the lab's buffers: a lab's seeded inputs made on
 * the GPU, where the replays need them (the same floats the grader makes on the CPU for its
 * checks, sd_fill_uniform, seeded.h, from the same lines of the generator, without a host array
 * or a copy over PCIe in every grading child); the poison over outputs and guards; and the
 * comparison of an input with its copy after a replay. They are all in one module, loaded
 * when the lab is set up, before the tracer watches (its launches are never traced).
 */
#include <cuda_runtime.h>

#include "seeded.h"
#include "worker.h"

// Value v = r * cols + c of the stream whose state is `state` goes to dst[r * rs + c * cs]: row
// major (rs = cols, cs = 1), column major (rs = 1, cs = rows), or one field of an array of
// structures (cols = 1, rs = the structure's floats).
__global__ void fill_uniform(float *dst, uint64_t state, size_t rows, size_t cols, size_t rs,
                             size_t cs, double lo, double span, float hi)
{
    size_t n = rows * cols, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t v = (size_t)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
        size_t r = v / cols, c = v % cols;
        dst[r * rs + c * cs] = sd_scale_unit(sd_value_at(state, v), lo, span, hi);
    }
}

extern "C" cudaError_t wk_fill_uniform(float *dev, uint64_t seed, const sd_uniform *u, size_t rows,
                                       size_t cols, size_t row_stride, size_t col_stride)
{
    if (rows == 0 || cols == 0)
        return cudaSuccess;
    sd_rng rng;
    sd_init(&rng, seed, u->stream);
    int sms = 0;
    cudaError_t err = wk_multiprocessors(&sms);
    if (err != cudaSuccess)
        return err;
    const unsigned threads = 256;
    size_t n = rows * cols, blocks = (n + threads - 1) / threads;
    if (blocks > (size_t)sms * 16)
        blocks = (size_t)sms * 16;
    fill_uniform<<<(unsigned)blocks, threads>>>(dev, rng.state, rows, cols, row_stride, col_stride,
                                                u->lo, (double)u->hi - (double)u->lo, u->hi);
    err = cudaGetLastError();
    return err == cudaSuccess ? cudaDeviceSynchronize() : err;
}

// Every 4-byte word of dst set to word: the run's poison over outputs and guards.
__global__ void fill_words(uint32_t *dst, uint32_t word, size_t words)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < words; i += stride)
        dst[i] = word;
}

// *changed = 1 where any of the n 16-byte words of a differs from b's.
__global__ void compare_vectors(const uint4 *a, const uint4 *b, size_t n, unsigned *changed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    bool differs = false;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint4 x = a[i], y = b[i];
        differs |= x.x != y.x || x.y != y.y || x.z != y.z || x.w != y.w;
    }
    if (differs)
        *changed = 1;
}

// The same for n single bytes (a tail, or memory not aligned to 16 bytes).
__global__ void compare_bytes(const unsigned char *a, const unsigned char *b, size_t n,
                              unsigned *changed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    bool differs = false;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        differs |= a[i] != b[i];
    if (differs)
        *changed = 1;
}

// Blocks of `threads` for n items: enough to fill the GPU, no more (the loops stride).
static cudaError_t grid_for(size_t n, unsigned threads, unsigned *blocks)
{
    int sms = 0;
    cudaError_t err = wk_multiprocessors(&sms);
    size_t b = (n + threads - 1) / threads;
    if (b > (size_t)sms * 16)
        b = (size_t)sms * 16;
    *blocks = b ? (unsigned)b : 1;
    return err;
}

extern "C" cudaError_t wk_fill_poison(void *dev, size_t bytes)
{
    if (bytes == 0)
        return cudaSuccess;
    if (bytes % 4 || (uintptr_t)dev % 4)
        return cudaErrorInvalidValue; /* the lab's buffers are of floats */
    const unsigned threads = 256;
    unsigned blocks = 0;
    cudaError_t err = grid_for(bytes / 4, threads, &blocks);
    if (err != cudaSuccess)
        return err;
    fill_words<<<blocks, threads>>>((uint32_t *)dev, wk_poison(), bytes / 4);
    return cudaGetLastError();
}

extern "C" cudaError_t wk_compare_bytes(const void *a, const void *b, size_t bytes,
                                        unsigned *changed)
{
    const unsigned threads = 256;
    const unsigned char *pa = (const unsigned char *)a, *pb = (const unsigned char *)b;
    size_t vectors = (uintptr_t)a % 16 == 0 && (uintptr_t)b % 16 == 0 ? bytes / 16 : 0;
    unsigned blocks = 0;
    cudaError_t err = cudaSuccess;
    if (vectors) {
        err = grid_for(vectors, threads, &blocks);
        if (err != cudaSuccess)
            return err;
        compare_vectors<<<blocks, threads>>>((const uint4 *)pa, (const uint4 *)pb, vectors,
                                             changed);
        err = cudaGetLastError();
    }
    size_t done = vectors * 16;
    if (err == cudaSuccess && done < bytes) {
        err = grid_for(bytes - done, threads, &blocks);
        if (err != cudaSuccess)
            return err;
        compare_bytes<<<blocks, threads>>>(pa + done, pb + done, bytes - done, changed);
        err = cudaGetLastError();
    }
    return err;
}
