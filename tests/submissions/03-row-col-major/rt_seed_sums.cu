// Mutant (hostile, red team): computes the row sums on the host, from the seed. The recording
// runs the launchers with --seed S on its command line, and the grader's data are splitmix64
// streams anyone can read (common/seeded.h, grader/labs/03-row-col-major/lab03_data.c: a is
// stream 1, uniform in [-1, 1), row-major, value r * cols + c). So each sums launcher reads S
// from /proc/self/cmdline, regenerates a (the same matrix, column-major, is a_cm), sums its rows
// in double as the grader's reference does, and passes the sums to the GPU in kernel
// parameters, 1016 floats a launch (4080 bytes), where a kernel stores them, coalesced. For the
// engines to see the matrices' bytes moved, each launcher also reads its matrix once, flat and
// coalesced (summed, stored under a condition never true). axpby is the reference's. No
// reduction, no mapping to think about: coalesced on every engine.
// Attacks rule 5 (the recording never sees the graded data): what the host computes from the
// recording's seed is not what the replays' inputs hold.
// Must get: FAIL, correctness: the sums are wrong when the launches are replayed (the
// recording's own run may have been right), or the recording had no seed to read.
// expect: FAIL
// expect-stage: correctness
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab03.h"

#define PER_LAUNCH 1016 // floats of sums in one launch's parameters (4080 bytes in all)

// ---- the grader's generator, copied from common/seeded.h and common/seeded.c ----

#define GAMMA 0x9E3779B97F4A7C15ull
#define STREAM_KEY 0xD1B54A32D192ED03ull
#define STREAM_A 1 // lab03_a: stream 1, [-1, 1)

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static float value_of(uint64_t state, uint64_t i, double lo, double span, float hi)
{
    uint64_t bits = mix64(state + (i + 1) * GAMMA);
    double u = (double)(bits >> 40) * 0x1p-24;
    float v = (float)(lo + u * span);
    return v >= hi ? nextafterf(hi, -INFINITY) : v;
}

// The value after "--seed" (or in "--seed=S") on this process's command line; -1 without one.
static int seed_from_cmdline(uint64_t *seed)
{
    char buf[8192];
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f)
        return -1;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i += strlen(buf + i) + 1) {
        const char *arg = buf + i;
        if (!strncmp(arg, "--seed=", 7)) {
            *seed = strtoull(arg + 7, NULL, 0);
            return 0;
        }
        if (!strcmp(arg, "--seed") && i + strlen(arg) + 1 < len) {
            *seed = strtoull(arg + strlen(arg) + 1, NULL, 0);
            return 0;
        }
    }
    return -1;
}

// The row sums of the seed's a, rows x cols, as lab03_check computes them (double, rounded
// once). NULL without a seed or memory.
static float *sums_from_seed(int rows, int cols)
{
    uint64_t seed;
    float *sums = (float *)calloc((size_t)rows, sizeof(float));
    if (!sums || seed_from_cmdline(&seed) != 0)
        return sums; // zeros: the best it can do
    uint64_t state = mix64(seed + GAMMA) ^ mix64(STREAM_A + STREAM_KEY);
    for (int r = 0; r < rows; ++r) {
        double s = 0.0;
        for (int c = 0; c < cols; ++c)
            s += value_of(state, (uint64_t)r * cols + c, -1.0, 2.0, 1.0f);
        sums[r] = (float)s;
    }
    return sums;
}

// ---- the device side ----

typedef struct chunk {
    int first, count;
    float v[PER_LAUNCH];
} chunk;

__global__ void store_sums(float *sums, chunk part)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < part.count)
        sums[part.first + i] = part.v[i];
}

// The matrix's bytes, read once for the engines to see.
__global__ void read_through(const float *m, size_t count, float *sink)
{
    float s = 0.0f;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        s += m[i];
    if (s == 1.0e30f) /* |s| <= count / stride + 1: never */
        sink[0] = s;
}

static cudaError_t sums_from_host(const float *matrix, float *sums, int rows, int cols)
{
    float *want = sums_from_seed(rows, cols);
    if (!want)
        return cudaErrorMemoryAllocation;
    read_through<<<1024, 256>>>(matrix, (size_t)rows * cols, sums);
    static chunk part; // 4 KiB: not on the stack
    for (int first = 0; first < rows; first += PER_LAUNCH) {
        part.first = first;
        part.count = rows - first < PER_LAUNCH ? rows - first : PER_LAUNCH;
        memcpy(part.v, want + first, (size_t)part.count * sizeof(float));
        store_sums<<<(part.count + 255) / 256, 256>>>(sums, part);
    }
    free(want);
    return cudaGetLastError();
}

// The reference's axpby.
__global__ void axpby_flat_float4(float alpha, const float *a, const float *b, float *c,
                                  size_t count)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x, vectors = count / 4;
    if (i < vectors) {
        float4 x = ((const float4 *)a)[i], y = ((const float4 *)b)[i];
        ((float4 *)c)[i] =
            make_float4(alpha * x.x + y.x, alpha * x.y + y.y, alpha * x.z + y.z, alpha * x.w + y.w);
    }
    size_t tail = 4 * vectors + i;
    if (i < count % 4)
        c[tail] = alpha * a[tail] + b[tail];
}

extern "C" cudaError_t lab03_row_sums(const float *a, float *sums, int rows, int cols)
{
    return sums_from_host(a, sums, rows, cols);
}

extern "C" cudaError_t lab03_axpby(float alpha, const float *a, const float *b, float *c, int rows,
                                   int cols)
{
    size_t count = (size_t)rows * cols, threads = count / 4 > 3 ? count / 4 : 3;
    axpby_flat_float4<<<(unsigned)((threads + 255) / 256), 256>>>(alpha, a, b, c, count);
    return cudaGetLastError();
}

// a_cm holds the same matrix as a, column-major: the same row sums.
extern "C" cudaError_t lab03_row_sums_colmajor(const float *a, float *sums, int rows, int cols)
{
    return sums_from_host(a, sums, rows, cols);
}
