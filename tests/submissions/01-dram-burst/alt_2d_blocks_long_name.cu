// Alternative solution (red team, honest): 2-D blocks of 32 x 3 threads (96, three warps) on a
// 2-D grid for a 1-D problem, and a kernel whose mangled name is over 300 characters (a
// template on two tag types with long names). Thread (x, y) of block (bx, by) takes element
// ((by * gridDim.x + bx) * 96 + y * 32 + x), then the same plus the whole grid, and so on: each
// warp is one row of the block, 32 consecutive floats, 128 aligned bytes (a block's 96 floats
// are 384 bytes, three lines).
// Tests rule 6: kernel names over 256 characters must be recorded, replayed and traced by their
// whole name; and odd block shapes must be traced by the warps they make.
// Must pass.
// expect: PASS
// expect-stage: passed
#include "lab01.h"

#define BLOCK_X 32
#define BLOCK_Y 3
#define GRID_X 1024
#define GRID_Y 64

// Tags that only name the kernel's instantiation.
struct
    consecutive_threads_take_consecutive_words_of_x_and_y_one_float_each_so_that_every_warp_reads_and_writes_one_whole_aligned_line_of_128_bytes {
};
struct
    the_grid_is_two_dimensional_and_strides_over_the_whole_array_until_every_element_has_been_scaled_exactly_once_by_exactly_one_thread {
};

template <class Order, class Stride>
__global__ void scale_two_dimensional(float a, const float *x, float *y, size_t n)
{
    const size_t threads = (size_t)BLOCK_X * BLOCK_Y;
    const size_t block = (size_t)blockIdx.y * gridDim.x + blockIdx.x;
    const size_t stride = (size_t)gridDim.x * gridDim.y * threads;
    for (size_t i = block * threads + threadIdx.y * BLOCK_X + threadIdx.x; i < n; i += stride)
        y[i] = a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    typedef consecutive_threads_take_consecutive_words_of_x_and_y_one_float_each_so_that_every_warp_reads_and_writes_one_whole_aligned_line_of_128_bytes
        order;
    typedef the_grid_is_two_dimensional_and_strides_over_the_whole_array_until_every_element_has_been_scaled_exactly_once_by_exactly_one_thread
        stride;
    const size_t threads = (size_t)BLOCK_X * BLOCK_Y;
    size_t blocks = (n + threads - 1) / threads;
    unsigned gy = (unsigned)((blocks + GRID_X - 1) / GRID_X);
    gy = gy < 1 ? 1 : gy > GRID_Y ? GRID_Y : gy;
    unsigned gx = blocks < GRID_X ? (unsigned)(blocks ? blocks : 1) : GRID_X;
    scale_two_dimensional<order, stride><<<dim3(gx, gy), dim3(BLOCK_X, BLOCK_Y)>>>(a, x, y, n);
    return cudaGetLastError();
}
