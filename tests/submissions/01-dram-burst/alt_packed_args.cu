// Alternative solution: the kernel's arrays arrive in a packed structure passed by value
// (struct __attribute__((packed)) {char tag; const float *x; float *y;}), so both pointers
// start at odd bytes of the kernel's parameters (1 and 9); a grid-stride loop of coalesced
// float accesses. Must pass: the recording relocates pointers at any byte of a parameter.
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

// The kernel takes its two arrays in a packed structure passed by value, after a one-byte tag:
// packed, the structure has no padding, so x starts at byte 1 of the parameters and y at byte
// 9, neither a multiple of 8. The loop is a plain grid-stride one: at every step the 32 lanes of
// a warp read 32 consecutive floats of x and write 32 consecutive floats of y.
struct __attribute__((packed)) scale_arrays {
    char tag; // 'y': the arrays are (x, y); the kernel does nothing for any other tag
    const float *x;
    float *y;
};

__global__ void scale_packed_arrays(scale_arrays arrays, float a, size_t n)
{
    if (arrays.tag != 'y')
        return;
    const float *x = arrays.x;
    float *y = arrays.y;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    int device = 0, sms = 0;
    cudaError_t err = cudaGetDevice(&device);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    if (err != cudaSuccess)
        return err;
    const unsigned threads = 256;
    size_t wanted = (n + threads - 1) / threads, most = (size_t)sms * 16;
    unsigned blocks = (unsigned)(wanted < most ? (wanted ? wanted : 1) : most);
    scale_arrays arrays;
    arrays.tag = 'y';
    arrays.x = x;
    arrays.y = y;
    scale_packed_arrays<<<blocks, threads>>>(arrays, a, n);
    return cudaGetLastError();
}

// ---- STUDENT END ----
