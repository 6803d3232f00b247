/*
 * fill.cu - a lab's seeded inputs made on the GPU, where the replays need them: the same floats
 * the grader makes on the CPU for its checks (sd_fill_uniform, seeded.h), from the same lines
 * of the generator, without a host array or a copy over PCIe in every grading child.
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
