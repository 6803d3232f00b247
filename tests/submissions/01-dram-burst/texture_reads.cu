// Mutant (hostile): reads x through a texture, which neither the trace nor the global load
// counters see as global loads: the launcher makes a 1D linear texture object over x
// (cudaCreateTextureObject) and the kernel fetches it (tex1Dfetch) in the stub's chunked order.
// Must fail on the contract, the reason naming the texture.
#include <string.h>
#include "lab01.h"

#define CHUNK 16

__global__ void scale_fetched(float a, cudaTextureObject_t x, float *y, size_t n)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (size_t i = first; i < first + CHUNK && i < n; ++i)
        y[i] = a * tex1Dfetch<float>(x, (int)i);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = (void *)x;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = n * sizeof(float);
    cudaTextureDesc tex;
    memset(&tex, 0, sizeof tex);
    tex.readMode = cudaReadModeElementType;
    cudaTextureObject_t object = 0;
    cudaError_t err = cudaCreateTextureObject(&object, &res, &tex, NULL);
    if (err != cudaSuccess)
        return err;
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_fetched<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, object, y, n);
    return cudaGetLastError();
}
