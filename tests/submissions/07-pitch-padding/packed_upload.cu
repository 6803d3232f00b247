// Mutant: pitched allocation and indexing, but the upload copies the packed image in one piece,
// so row r of the device image does not hold row r. Must fail correctness.
#include "lab07.h"

// cudaMallocPitch rounds each row up to the device's pitch alignment (on the H200, rows of
// 4004 bytes get a pitch of 4096), so every row starts on a sector and on a 128-byte line.
extern "C" cudaError_t lab07_alloc_image(float **image, size_t *pitch, int width, int height)
{
    return cudaMallocPitch((void **)image, pitch, (size_t)width * sizeof(float), height);
}

// The mistake: one packed copy, as if the device rows were packed too.
extern "C" cudaError_t lab07_upload(float *image, size_t pitch, const float *host, int width,
                                    int height)
{
    (void)pitch;
    return cudaMemcpy(image, host, (size_t)width * height * sizeof(float), cudaMemcpyHostToDevice);
}

// As in the solution, except that the upload copies the packed image in one piece.
__global__ void adjust_pitched(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                               int width, int height, float gain, float bias)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < height && c < width) {
        const float *in_row = (const float *)((const char *)in + (size_t)r * in_pitch);
        float *out_row = (float *)((char *)out + (size_t)r * out_pitch);
        out_row[c] = fminf(fmaxf(in_row[c] * gain + bias, 0.0f), 1.0f);
    }
}

extern "C" cudaError_t lab07_adjust(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                                    int width, int height, float gain, float bias)
{
    dim3 block(32, 8), grid((width + 31) / 32, (height + 7) / 8);
    adjust_pitched<<<grid, block>>>(in, in_pitch, out, out_pitch, width, height, gain, bias);
    return cudaGetLastError();
}
