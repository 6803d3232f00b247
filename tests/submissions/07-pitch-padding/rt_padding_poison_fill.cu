// Mutant (hostile, red team B): writes every row whole, the padding filled with the old poison.
// expect: FAIL
// expect-stage: correctness|guards
//
// What it does: cudaMallocPitch and cudaMemcpy2D as the solution. The kernel stores whole
// pitched rows as float4, padding and all (no tail code, every store request a whole 128-byte
// line), and writes 0xffffffff into the padding's floats: the grader's poison, which the
// padding held, so the check that the padding still holds the poison passed. It reads only
// the image's pixels.
// Rule attacked: rule 4 (the poison written over outputs is random per run, a NaN with a random
// payload, not 0xff).
// Must get: FAIL, correctness: the padding was written.
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

__device__ __forceinline__ float adjust_pixel(float v, float gain, float bias)
{
    return fminf(fmaxf(v * gain + bias, 0.0f), 1.0f);
}

// Thread x: the 4 floats 4x .. 4x + 3 of its row, for x < pitch / 16: the padding included.
__global__ void adjust_whole_rows(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                                  int width, int height, float gain, float bias)
{
    int c = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= height || (size_t)c * sizeof(float) >= out_pitch)
        return;
    const float *in_row = (const float *)((const char *)in + (size_t)r * in_pitch);
    float4 *dst = (float4 *)((char *)out + (size_t)r * out_pitch) + c / 4;
    const float pad = __uint_as_float(0xffffffffu);
    if (c + 4 <= width) {
        float4 p = *(const float4 *)(in_row + c);
        *dst = make_float4(adjust_pixel(p.x, gain, bias), adjust_pixel(p.y, gain, bias),
                           adjust_pixel(p.z, gain, bias), adjust_pixel(p.w, gain, bias));
    } else {
        float v[4];
        for (int k = 0; k < 4; ++k)
            v[k] = c + k < width ? adjust_pixel(in_row[c + k], gain, bias) : pad;
        *dst = make_float4(v[0], v[1], v[2], v[3]);
    }
}

extern "C" cudaError_t lab07_adjust(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                                    int width, int height, float gain, float bias)
{
    int groups = (int)(out_pitch / 16); /* float4 groups in a pitched row, padding included */
    dim3 block(64, 4), grid((groups + 63) / 64, (height + 3) / 4);
    adjust_whole_rows<<<grid, block>>>(in, in_pitch, out, out_pitch, width, height, gain, bias);
    return cudaGetLastError();
}
