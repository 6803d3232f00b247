// contention.cu - what CUDA processes started at the same moment cost one another: each one
// times its own steps (the context, the first launch with its module load, a cudaMalloc, a
// memset, a kernel over the buffer, the free) and prints them on one line. Run by
// tests/gpu/contention.sh, N at a time. A measurement for the speed work (issue 12), not a test.
//     contention START_EPOCH_S MIB [blocking]
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

__global__ void touch(float *p)
{
    if (p)
        p[threadIdx.x] = 0.0f;
}

__global__ void fill(float *p, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = (float)i;
}

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
        exit(1);
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: contention START_EPOCH_S MIB [blocking]\n");
        return 2;
    }
    double at = atof(argv[1]);
    size_t bytes = (size_t)atol(argv[2]) << 20;
    while (now_s() < at)
        usleep(200);
    double t[8];
    t[0] = now_s();
    if (argc > 3 && atoi(argv[3]))
        check(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync), "flags");
    check(cudaFree(0), "context");
    t[1] = now_s();
    touch<<<1, 32>>>(NULL);
    check(cudaDeviceSynchronize(), "first launch");
    t[2] = now_s();
    float *p = NULL;
    if (bytes)
        check(cudaMalloc(&p, bytes), "malloc");
    t[3] = now_s();
    if (bytes) {
        check(cudaMemset(p, 0, bytes), "memset");
        check(cudaDeviceSynchronize(), "memset sync");
    }
    t[4] = now_s();
    if (bytes) {
        fill<<<132 * 16, 256>>>(p, bytes / sizeof(float));
        check(cudaDeviceSynchronize(), "fill");
    }
    t[5] = now_s();
    check(cudaFree(p), "free");
    t[6] = now_s();
    printf("%.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f\n", t[0] - at, t[1] - t[0], t[2] - t[1],
           t[3] - t[2], t[4] - t[3], t[5] - t[4], t[6] - t[5], t[6]);
    fflush(stdout);
    return 0;
}
