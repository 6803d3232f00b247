// Lab 06's three functions one by one, at the graded size (12000017 particles): the pack and
// unpack round trip checked exactly, one step within the grader's tolerance.
#include <cmath>
#include <cstring>

#include "bench.h"
#include "lab06.h"

int main()
{
    const int n = 12000017;
    const float dt = 0.01f, g = 9.81f;
    size_t bytes = (size_t)n * sizeof(lab06_particle);
    lab06_particle *in, *out;
    float *work;
    CL_CUDA_CHECK(cudaMalloc(&in, bytes));
    CL_CUDA_CHECK(cudaMalloc(&out, bytes));
    CL_CUDA_CHECK(cudaMalloc(&work, 8 * LAB06_PLANE(n) * sizeof(float)));
    std::vector<lab06_particle> h(n), got(n);
    for (int i = 0; i < n; ++i)
        for (int f = 0; f < 8; ++f)
            (&h[i].x)[f] = (float)((i + f * 131) % 977);
    CL_CUDA_CHECK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
    double copy = copy_bytes_per_s();
    CL_CUDA_CHECK(lab06_pack(in, work, n));
    CL_CUDA_CHECK(lab06_unpack(work, out, n));
    CL_CUDA_CHECK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
    long wrong = 0;
    for (int i = 0; i < n; ++i)
        wrong += memcmp(&h[i], &got[i], sizeof h[i]) != 0;
    CL_CUDA_CHECK(lab06_pack(in, work, n));
    CL_CUDA_CHECK(lab06_step(work, n, dt, g));
    CL_CUDA_CHECK(lab06_unpack(work, out, n));
    CL_CUDA_CHECK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
        lab06_particle p = h[i];
        p.vz -= g * dt;
        p.x += p.vx * dt;
        p.y += p.vy * dt;
        p.z += p.vz * dt;
        for (int f = 0; f < 8; ++f) {
            float want = (&p.x)[f], v = (&got[i].x)[f];
            wrong += fabsf(v - want) > 1e-4f + 1e-5f * fabsf(want);
        }
    }
    printf("lab 06, %d particles: copy %.0f GB/s; %ld values wrong\n", n, copy / 1e9, wrong);
    double t1 = median_ms([&] { CL_CUDA_CHECK(lab06_pack(in, work, n)); });
    double t2 = median_ms([&] { CL_CUDA_CHECK(lab06_step(work, n, dt, g)); });
    double t3 = median_ms([&] { CL_CUDA_CHECK(lab06_unpack(work, out, n)); });
    row("pack", 2.0 * bytes, t1, copy);
    row("step", 10.0 * sizeof(float) * n, t2, copy);
    row("unpack", 2.0 * bytes, t3, copy);
    return wrong != 0;
}
