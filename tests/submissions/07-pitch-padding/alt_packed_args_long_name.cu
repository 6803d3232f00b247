// Alternative solution: its own pitch, rows rounded up to 512 bytes with a plain cudaMalloc, and a
// kernel with a name of over 256 characters that takes its arguments as one packed structure,
// pointers and pitches at odd offsets. A warp adjusts 128 pixels of one row, each lane four of
// them 32 apart (no vectors), so every request is 32 consecutive floats of a row. Must pass.
#include "lab07.h"

#define ROW_ALIGN 512 // bytes: 16 sectors

// 306 characters, and "_adjust" (extern "C": not mangled).
#define LONG_NAME                                                                                  \
    a_kernel_name_longer_than_the_two_hundred_and_fifty_six_bytes_that_a_fixed_size_name_buffer_might_hold_so_that_a_grader_which_cuts_names_short_would_see_two_different_kernels_of_this_file_under_one_and_the_same_name_and_could_neither_find_them_in_the_module_nor_tell_their_records_apart_when_it_traces_them
#define CAT2(x, y) x##y
#define CAT(x, y) CAT2(x, y)
#define ADJUST CAT(LONG_NAME, _adjust)

// Passed by value; packed: in at offset 1, in_pitch at 9, out at 17, out_pitch at 25.
struct __attribute__((packed)) adjust_args {
    char tag;
    const float *in;
    unsigned long long in_pitch;
    float *out;
    unsigned long long out_pitch;
    int width, height;
    float gain, bias;
};

extern "C" cudaError_t lab07_alloc_image(float **image, size_t *pitch, int width, int height)
{
    size_t row = (size_t)width * sizeof(float);
    size_t lines = (row + ROW_ALIGN - 1) / ROW_ALIGN;
    *pitch = (lines > 0 ? lines : 1) * ROW_ALIGN;
    return cudaMalloc((void **)image, *pitch * (size_t)height);
}

extern "C" cudaError_t lab07_upload(float *image, size_t pitch, const float *host, int width,
                                    int height)
{
    size_t row = (size_t)width * sizeof(float);
    return cudaMemcpy2D(image, pitch, host, row, row, height, cudaMemcpyHostToDevice);
}

extern "C" __global__ void ADJUST(adjust_args p)
{
    int width = p.width, height = p.height;
    float gain = p.gain, bias = p.bias;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= height)
        return;
    const float *in = (const float *)((const char *)p.in + (size_t)r * p.in_pitch);
    float *out = (float *)((char *)p.out + (size_t)r * p.out_pitch);
    for (int j = 0; j < 4; ++j) {
        int c = blockIdx.x * 128 + 32 * j + threadIdx.x;
        if (c < width)
            out[c] = fminf(fmaxf(in[c] * gain + bias, 0.0f), 1.0f);
    }
}

extern "C" cudaError_t lab07_adjust(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                                    int width, int height, float gain, float bias)
{
    adjust_args p;
    p.tag = 'A';
    p.in = in;
    p.in_pitch = in_pitch;
    p.out = out;
    p.out_pitch = out_pitch;
    p.width = width;
    p.height = height;
    p.gain = gain;
    p.bias = bias;
    dim3 block(32, 8), grid((width + 127) / 128, (height + 7) / 8);
    ADJUST<<<grid, block>>>(p);
    return cudaGetLastError();
}
