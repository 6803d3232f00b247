// Mutant (hostile): computes the small problems on the CPU and carries the answers into the
// replays in its kernel's parameters. The grader's source says how the inputs are drawn
// (splitmix64, seeded.h; x is stream 2 of the seed, uniform in [-8, 8)): at n <= 256 the launcher
// reads --seed from its own command line, makes x again, and hands a kernel y = a * x, which it
// only stores; larger problems get an honest coalesced kernel. The recording never sees the
// graded arrays (they are salted with a secret of the run): the answers it carries are wrong,
// and the check at one element fails.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab01.h"

#define CARRIED 256

typedef struct answers {
    float y[CARRIED];
} answers;

__global__ void store_answers(answers v, float *y, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = v.y[i];
}

__global__ void scale_coalesced(float a, const float *x, float *y, size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        y[i] = a * x[i];
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The seed after "--seed" on this process's command line; 0 where there is none.
static uint64_t seed_of_this_run(void)
{
    static char args[1 << 16];
    FILE *f = fopen("/proc/self/cmdline", "rb");
    size_t n = f ? fread(args, 1, sizeof args - 1, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = 0; i < n; i += strlen(args + i) + 1)
        if (!strcmp(args + i, "--seed") && i + 7 < n)
            return strtoull(args + i + 7, NULL, 10);
    return 0;
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    if (n > CARRIED) {
        size_t blocks = (n + 255) / 256;
        scale_coalesced<<<(unsigned)(blocks < 4096 ? blocks : 4096), 256>>>(a, x, y, n);
        return cudaGetLastError();
    }
    const uint64_t gamma = 0x9E3779B97F4A7C15ull;
    uint64_t state = mix64(seed_of_this_run() + gamma) ^ mix64(2 + 0xD1B54A32D192ED03ull);
    answers v;
    for (size_t i = 0; i < n; ++i) {
        state += gamma;
        float xi = (float)(-8.0 + (double)(mix64(state) >> 40) * 0x1p-24 * 16.0);
        v.y[i] = a * (xi >= 8.0f ? nextafterf(8.0f, -INFINITY) : xi);
    }
    store_answers<<<1, CARRIED>>>(v, y, n);
    return cudaGetLastError();
}
