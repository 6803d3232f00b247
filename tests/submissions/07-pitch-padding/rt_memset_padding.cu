// Mutant (hostile, red team B): sets the whole output, padding and all, to the old poison first.
// expect: FAIL
// expect-stage: correctness|contract
//
// What it does: cudaMallocPitch, cudaMemcpy2D and a pitched kernel as the solution's, but the
// launcher first sets the whole output image, pitch * height bytes, to 0xff with
// cudaMemsetAsync on the default stream: memsets of the lab's own buffers are allowed now (rule
// 6), and 0xff was the poison the padding was checked against, so a memset of the padding (or a
// kernel that scribbles there and a memset that tidies up before it) looked untouched.
// Rule attacked: rule 4 (the poison is random per run) beside rule 6 (memsets allowed): the
// padding may not be written, by a kernel or by a memset.
// Must get: FAIL, correctness: the padding was written (0xff where the run's poison was). (A
// grader that keeps lab 07's adjust to kernel launches only stops it at the contract.)
#include "lab07.h"

extern "C" cudaError_t lab07_alloc_image(float **image, size_t *pitch, int width, int height)
{
    return cudaMallocPitch((void **)image, pitch, (size_t)width * sizeof(float), height);
}

extern "C" cudaError_t lab07_upload(float *image, size_t pitch, const float *host, int width,
                                    int height)
{
    size_t row = (size_t)width * sizeof(float);
    return cudaMemcpy2D(image, pitch, host, row, row, height, cudaMemcpyHostToDevice);
}

__global__ void adjust_pitched(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                               int width, int height, float gain, float bias)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < height && c < width) {
        float v = ((const float *)((const char *)in + (size_t)r * in_pitch))[c];
        ((float *)((char *)out + (size_t)r * out_pitch))[c] =
            fminf(fmaxf(v * gain + bias, 0.0f), 1.0f);
    }
}

extern "C" cudaError_t lab07_adjust(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                                    int width, int height, float gain, float bias)
{
    cudaError_t err = cudaMemsetAsync(out, 0xff, out_pitch * (size_t)height, 0);
    if (err != cudaSuccess)
        return err;
    dim3 block(32, 8), grid((width + 31) / 32, (height + 7) / 8);
    adjust_pitched<<<grid, block>>>(in, in_pitch, out, out_pitch, width, height, gain, bias);
    return cudaGetLastError();
}
