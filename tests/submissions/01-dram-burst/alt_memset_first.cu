// Alternative solution: the launcher clears y before its kernel runs, with cudaMemsetAsync and
// two device-to-device copies within y (cudaMemcpyAsync, cudaMemcpy2DAsync) on the default
// stream, then a coalesced grid-stride kernel writes every element. Must pass: memsets and copies
// of an output are replayed, in their order, before the kernel.
/*
 * Lab 01 - DRAM burst.  Your file: edit only between the STUDENT markers.
 *
 * y = a * x is correct here, but each thread walks its own contiguous chunk, the way one
 * splits work between CPU threads. Make consecutive threads touch consecutive words.
 *
 *   grade it:     make -f Makefile.student grade LAB=01
 *   read first:   handouts/01-dram-burst.md
 */
#include "lab01.h"

// ---- STUDENT BEGIN ----

// The coalesced grid-stride loop: at every step a warp reads 32 consecutive floats of x and
// writes 32 consecutive floats of y.
__global__ void scale_grid_stride(float a, const float *x, float *y, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a * x[i];
}

// Before the kernel, y is cleared the way a careful host program clears an output: a memset of
// all of it, then device-to-device copies of its (cleared) first half over its second half,
// one linear and one 2D (64 bytes of every 128). None of it is needed, since the kernel writes
// every element; it must happen first, in order, on the default stream, or the kernel's y would
// be wiped out.
static cudaError_t clear_output(float *y, size_t n)
{
    size_t bytes = n * sizeof(float), half = n / 2;
    cudaError_t err = cudaMemsetAsync(y, 0, bytes, 0);
    if (err == cudaSuccess && half > 0)
        err = cudaMemcpyAsync(y + half, y, half * sizeof(float), cudaMemcpyDeviceToDevice, 0);
    size_t rows = half * sizeof(float) / 128;
    if (err == cudaSuccess && rows > 0)
        err = cudaMemcpy2DAsync(y + half, 128, y, 128, 64, rows, cudaMemcpyDeviceToDevice, 0);
    return err;
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    int device = 0, sms = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (err == cudaSuccess)
        err = clear_output(y, n);
    if (err != cudaSuccess)
        return err;
    const unsigned threads = 256;
    size_t wanted = (n + threads - 1) / threads, most = (size_t)sms * 16;
    unsigned blocks = (unsigned)(wanted < most ? (wanted ? wanted : 1) : most);
    scale_grid_stride<<<blocks, threads>>>(a, x, y, n);
    return cudaGetLastError();
}

// ---- STUDENT END ----
