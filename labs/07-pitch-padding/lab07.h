/*
 * lab07.h - the contract of lab 07 (pitch padding).
 *
 * Included by the student's kernel.cu, by the reference solution and by the grader, so a
 * function whose prototype drifts fails to compile. Do not edit.
 *
 * An image is height rows of width floats. On the host it is packed: pixel (r, c) at
 * host[r * width + c]. On the device each row starts pitch bytes after the previous one, and
 * pitch >= width * 4: pixel (r, c) at (float *)((char *)image + r * pitch) + c. The bytes of a
 * row after its width floats, if any, are padding: nobody may write them.
 *
 * The grader calls lab07_alloc_image for the input and the output, asking for two rows more
 * than the image has (it keeps one row before and one after the image, which no function may
 * write), lab07_upload for the input, then lab07_adjust (timed and measured), and frees both
 * images with cudaFree.
 */
#ifndef CL_LAB07_H
#define CL_LAB07_H

#include <stddef.h>
#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Allocates a device image of width x height floats; sets *image and *pitch (in bytes). */
cudaError_t lab07_alloc_image(float **image, size_t *pitch, int width, int height);

/* Copies the packed host image host into the device image image (from lab07_alloc_image). */
cudaError_t lab07_upload(float *image, size_t pitch, const float *host, int width, int height);

/* out(r, c) = in(r, c) * gain + bias, clamped to [0, 1], for every r < height and c < width.
 * Launches on the default stream and returns cudaGetLastError(); must not synchronize,
 * allocate or copy. */
cudaError_t lab07_adjust(const float *in, size_t in_pitch, float *out, size_t out_pitch, int width,
                         int height, float gain, float bias);

#ifdef __cplusplus
}
#endif

#endif
