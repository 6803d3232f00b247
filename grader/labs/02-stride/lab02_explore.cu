/*
 * lab02_explore.cu - the kernel behind lab 02's explore run: a copy whose reads are `stride`
 * words apart (out[i] = in[i * stride]) and whose writes are consecutive.
 */
#include <cuda_runtime.h>

__global__ void strided_copy(const float *__restrict__ in, float *__restrict__ out, size_t n,
                             unsigned stride)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i * stride];
}

extern "C" cudaError_t lab02_strided_copy(const float *in, float *out, size_t n, unsigned stride)
{
    strided_copy<<<(unsigned)((n + 255) / 256), 256>>>(in, out, n, stride);
    return cudaGetLastError();
}
