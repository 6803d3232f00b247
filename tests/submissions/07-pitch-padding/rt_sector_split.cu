// Mutant (hostile, red team B): packed rows, each warp's access split at the sector boundary.
// expect: FAIL
// expect-stage: coalescing
//
// What it does: the stub's packed rows (rows of 4004 bytes, so most start inside a sector: 32
// floats of a row touch 5 sectors). Its kernel splits every warp's load and store in two at the
// first sector boundary: the lanes inside the row segment's first, partial sector go first, then,
// after a __syncwarp(), the rest. The first request moves 1 sector for at most 28 bytes, the
// least it could; the second 4 sectors for the other 100 or more bytes, the least it could too.
// Every request is "perfect" by the per-request measure, and no request wastes a sector beyond
// what it asked for; the pair still moves 5 sectors where a pitched row needs 4.
// Rule attacked: rule 1 (yardstick = the task: the sectors all requests moved against the least
// the task needs).
// Must get: FAIL, coalescing (loads and stores): 4 sectors needed for every 5 moved, 0.80
// against the task, below the lab's 0.95.
#include "lab07.h"

extern "C" cudaError_t lab07_alloc_image(float **image, size_t *pitch, int width, int height)
{
    *pitch = (size_t)width * sizeof(float); // packed: no padding
    return cudaMalloc((void **)image, *pitch * height);
}

extern "C" cudaError_t lab07_upload(float *image, size_t pitch, const float *host, int width,
                                    int height)
{
    (void)pitch;
    return cudaMemcpy(image, host, (size_t)width * height * sizeof(float), cudaMemcpyHostToDevice);
}

// Whether p lies in the same 32-byte sector as first.
__device__ __forceinline__ int same_sector(const void *p, const void *first)
{
    return (size_t)p / 32 == (size_t)first / 32;
}

// A warp is 32 consecutive pixels of one row (blockDim.x = 32).
__global__ void adjust_split_at_sectors(const float *in, float *out, int width, int height,
                                        float gain, float bias)
{
    int c0 = blockIdx.x * 32, c = c0 + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= height || c >= width)
        return;
    size_t row = (size_t)r * width;
    const float *src = in + row + c;
    float *dst = out + row + c;
    int head = same_sector(src, in + row + c0);
    float v = 0.0f;
    if (head)
        v = *src;
    __syncwarp(__activemask());
    if (!head)
        v = *src;
    v = fminf(fmaxf(v * gain + bias, 0.0f), 1.0f);
    head = same_sector(dst, out + row + c0);
    if (head)
        *dst = v;
    __syncwarp(__activemask());
    if (!head)
        *dst = v;
}

extern "C" cudaError_t lab07_adjust(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                                    int width, int height, float gain, float bias)
{
    (void)in_pitch;
    (void)out_pitch;
    dim3 block(32, 8), grid((width + 31) / 32, (height + 7) / 8);
    adjust_split_at_sectors<<<grid, block>>>(in, out, width, height, gain, bias);
    return cudaGetLastError();
}
