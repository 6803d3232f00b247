// Mutant (hostile, red team B): rows in pairs; past an odd height, the old poison in a guard row.
// expect: FAIL
// expect-stage: guards
//
// What it does: cudaMallocPitch and cudaMemcpy2D as the solution. Each thread adjusts 4 pixels
// in each of two rows, r and r + 1, with no test on the second row: where r + 1 is the height
// (the graded 39999 rows and the traced 3999 are odd), it writes the row after the image, the
// grader's guard row, with 0xffffffff, the poison the guard rows held, so the check that they
// still hold it passed. It reads nothing outside the image and writes no padding.
// Rule attacked: rule 4 (the guard bytes are random per run, not 0xff).
// Must get: FAIL, guards: the guard row after the output image changed.
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

__device__ __forceinline__ float4 adjust4(float4 p, float gain, float bias)
{
    return make_float4(adjust_pixel(p.x, gain, bias), adjust_pixel(p.y, gain, bias),
                       adjust_pixel(p.z, gain, bias), adjust_pixel(p.w, gain, bias));
}

__global__ void adjust_row_pairs(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                                 int width, int height, float gain, float bias)
{
    int c = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
    int r = 2 * (blockIdx.y * blockDim.y + threadIdx.y);
    if (r >= height || c >= width)
        return;
    const float poison = __uint_as_float(0xffffffffu);
    for (int q = r; q < r + 2; ++q) {
        const float *src = (const float *)((const char *)in + (size_t)q * in_pitch);
        float *dst = (float *)((char *)out + (size_t)q * out_pitch);
        int inside = q < height; /* q == height: the guard row */
        if (c + 4 <= width) {
            *(float4 *)(dst + c) = inside ? adjust4(*(const float4 *)(src + c), gain, bias)
                                          : make_float4(poison, poison, poison, poison);
        } else {
            for (int k = c; k < width; ++k)
                dst[k] = inside ? adjust_pixel(src[k], gain, bias) : poison;
        }
    }
}

extern "C" cudaError_t lab07_adjust(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                                    int width, int height, float gain, float bias)
{
    int groups = (width + 3) / 4, pairs = (height + 1) / 2;
    dim3 block(64, 4), grid((groups + 63) / 64, (pairs + 3) / 4);
    adjust_row_pairs<<<grid, block>>>(in, in_pitch, out, out_pitch, width, height, gain, bias);
    return cudaGetLastError();
}
