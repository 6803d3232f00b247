// Mutant (hostile, red team B): a packed input read through atomics, a pitched output.
// expect: FAIL
// expect-stage: coalescing|contract|moved
//
// What it does: the allocation alternates: the input (allocated first) gets packed rows, the
// output a cudaMallocPitch pitch (a replay allocates the pitches the recording chose). Packed
// input rows mostly start inside a sector (5 sectors for 32 floats). The kernel reads a row
// with ordinary loads only where the row happens to start on a sector (one row in 8), and every
// other row through `atomicOr(word, 0)`, which returns the word unchanged; the output's rows
// are pitched and its stores whole sectors. The trace patched only loads and stores, the
// counters keep atomics apart: what they saw was perfect loads of one row in 8 and perfect
// stores.
// Rule attacked: rule 2 (global atomics and reductions are measured, as stores, by the trace).
// Must get: FAIL, coalescing (stores): the atomics count as stores, 5 sectors for 4 needed and
// an input's worth of bytes no output needs: about 0.5. (A grader that also refuses atomics on
// an input may stop it at the contract.)
#include "lab07.h"

extern "C" cudaError_t lab07_alloc_image(float **image, size_t *pitch, int width, int height)
{
    static int calls; /* the grader allocates the input, then the output, at every size */
    if (calls++ % 2 == 0) {
        *pitch = (size_t)width * sizeof(float);
        return cudaMalloc((void **)image, *pitch * height);
    }
    return cudaMallocPitch((void **)image, pitch, (size_t)width * sizeof(float), height);
}

extern "C" cudaError_t lab07_upload(float *image, size_t pitch, const float *host, int width,
                                    int height)
{
    size_t row = (size_t)width * sizeof(float);
    return cudaMemcpy2D(image, pitch, host, row, row, height, cudaMemcpyHostToDevice);
}

__global__ void adjust_atomic_reads(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                                    int width, int height, float gain, float bias)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= height || c >= width)
        return;
    const float *src = (const float *)((const char *)in + (size_t)r * in_pitch);
    float v = (size_t)src % 32 == 0 ? src[c] : __uint_as_float(atomicOr((unsigned *)(src + c), 0u));
    ((float *)((char *)out + (size_t)r * out_pitch))[c] = fminf(fmaxf(v * gain + bias, 0.0f), 1.0f);
}

extern "C" cudaError_t lab07_adjust(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                                    int width, int height, float gain, float bias)
{
    dim3 block(32, 8), grid((width + 31) / 32, (height + 7) / 8);
    adjust_atomic_reads<<<grid, block>>>(in, in_pitch, out, out_pitch, width, height, gain, bias);
    return cudaGetLastError();
}
