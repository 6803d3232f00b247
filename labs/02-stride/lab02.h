/*
 * lab02.h - the launcher contract of lab 02 (stride).
 *
 * Included by the student's kernel.cu, by the reference solution and by the grader, so a
 * launcher whose prototype drifts fails to compile. Do not edit.
 */
#ifndef CL_LAB02_H
#define CL_LAB02_H

#include <stddef.h>
#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* De-interleaves n frames of `channels` samples each: in holds frame after frame
 * (in[f * channels + c]), out must hold each channel's samples after each other
 * (out[c * n + f]), for every frame f < n and channel c < channels (1 to 16). in and out are
 * device pointers from cudaMalloc. The launcher picks its own grid and block, launches on the
 * default stream and returns cudaGetLastError(); it must not synchronize, allocate, or copy
 * to or from the host. */
cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n);

#ifdef __cplusplus
}
#endif

#endif
