// The ceiling's copies (grader/worker/sol_copy.cu), each over two buffers of 256 MiB, 1 GiB and
// 4 GiB: the median of 15 timed runs after 2 warm-ups, read plus written bytes per second.
// Built and run by tests/gpu/ceiling_copies.sh.
#include <cstdio>
#include <vector>
#include <algorithm>
#include "../../grader/worker/sol_copy.cu"
int main()
{
    size_t sizes[] = {(size_t)256 << 20, (size_t)1 << 30, (size_t)4 << 30};
    for (size_t bytes : sizes) {
        void *s, *d;
        cudaMalloc(&s, bytes);
        cudaMalloc(&d, bytes);
        cudaMemset(s, 1, bytes);
        cudaMemset(d, 0, bytes);
        for (int k = 0; k < wk_sol_copies(); ++k) {
            cudaEvent_t a, b;
            cudaEventCreate(&a);
            cudaEventCreate(&b);
            std::vector<float> ms;
            for (int r = 0; r < 17; ++r) {
                cudaEventRecord(a);
                wk_sol_copy_run(k, s, d, bytes);
                cudaEventRecord(b);
                cudaEventSynchronize(b);
                float t;
                cudaEventElapsedTime(&t, a, b);
                if (r >= 2)
                    ms.push_back(t);
            }
            std::sort(ms.begin(), ms.end());
            printf("%6zu MiB  %-16s %8.3f ms  %6.0f GB/s\n", bytes >> 20, wk_sol_copy_name(k),
                   ms[7], 2.0 * bytes / ms[7] / 1e6);
        }
        cudaFree(s);
        cudaFree(d);
    }
    return 0;
}
