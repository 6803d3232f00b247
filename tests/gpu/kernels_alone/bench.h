// bench.h - what the drivers of tests/gpu/kernels_alone.sh share: a launcher's median time (20
// timed runs after 3 warm-ups, CUDA events) and a ceiling to hold it against, a float4 copy of
// 1 GiB timed the same way in the same process.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#include "cuda_check.h"

template <class F> static double median_ms(F launch)
{
    cudaEvent_t a, b;
    CL_CUDA_CHECK(cudaEventCreate(&a));
    CL_CUDA_CHECK(cudaEventCreate(&b));
    for (int i = 0; i < 3; ++i)
        launch();
    CL_CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> t;
    for (int i = 0; i < 20; ++i) {
        CL_CUDA_CHECK(cudaEventRecord(a));
        launch();
        CL_CUDA_CHECK(cudaEventRecord(b));
        CL_CUDA_CHECK(cudaEventSynchronize(b));
        float ms;
        CL_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    CL_CUDA_CHECK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[10];
}

__global__ void copy_float4(const float4 *in, float4 *out, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

// Bytes read and written a second by a float4 copy, one vector a thread, of 1 GiB.
static double copy_bytes_per_s()
{
    size_t bytes = (size_t)1 << 30, n = bytes / 16;
    float4 *a, *b;
    CL_CUDA_CHECK(cudaMalloc(&a, bytes));
    CL_CUDA_CHECK(cudaMalloc(&b, bytes));
    CL_CUDA_CHECK(cudaMemset(a, 1, bytes));
    double ms = median_ms([&] { copy_float4<<<(unsigned)((n + 255) / 256), 256>>>(a, b, n); });
    CL_CUDA_CHECK(cudaFree(a));
    CL_CUDA_CHECK(cudaFree(b));
    return 2.0 * bytes / ms * 1e3;
}

static void row(const char *name, double bytes, double ms, double copy)
{
    double rate = bytes / ms * 1e3;
    printf("%-26s %9.3f ms %7.0f GB/s %6.1f%% of the copy\n", name, ms, rate / 1e9,
           100 * rate / copy);
}
