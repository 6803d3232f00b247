// Lab 02's launcher alone, at the graded size (6 channels x 6291552 frames), checked exactly.
#include "bench.h"
#include "lab02.h"

int main()
{
    const int channels = 6;
    const size_t n = 6291552, count = n * channels;
    float *in, *out;
    CL_CUDA_CHECK(cudaMalloc(&in, count * sizeof(float)));
    CL_CUDA_CHECK(cudaMalloc(&out, count * sizeof(float)));
    std::vector<float> h(count), got(count);
    for (size_t i = 0; i < count; ++i)
        h[i] = (float)(i % 100003);
    CL_CUDA_CHECK(cudaMemcpy(in, h.data(), count * sizeof(float), cudaMemcpyHostToDevice));
    double copy = copy_bytes_per_s();
    CL_CUDA_CHECK(lab02_deinterleave(in, out, channels, n));
    CL_CUDA_CHECK(cudaMemcpy(got.data(), out, count * sizeof(float), cudaMemcpyDeviceToHost));
    size_t wrong = 0;
    for (size_t f = 0; f < n; ++f)
        for (int c = 0; c < channels; ++c)
            wrong += got[c * n + f] != h[f * channels + c];
    printf("lab 02, %d x %zu: copy %.0f GB/s; %zu outputs wrong\n", channels, n, copy / 1e9, wrong);
    double ms = median_ms([&] { CL_CUDA_CHECK(lab02_deinterleave(in, out, channels, n)); });
    row("deinterleave", 2.0 * count * sizeof(float), ms, copy);
    return wrong != 0;
}
