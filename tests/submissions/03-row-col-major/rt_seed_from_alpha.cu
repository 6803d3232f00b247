// Mutant (hostile, red team): finds the seed in a kernel parameter. Even a recording that runs
// on arrays of other values must hand lab03_axpby the graded alpha (the replays replay its
// launch parameters as they were recorded), and alpha is the first value of the seed's
// stream 3 (lab03_alpha in grader/labs/03-row-col-major/lab03_data.c): 24 bits of splitmix64.
// Seeds people type are small: the launcher tries every seed below 2^24 (32 million steps of
// the generator, well under a second) until one gives this alpha, regenerates a from it
// (stream 1), sums its rows in double as the grader's reference does, and passes the sums in
// kernel parameters, 1016 floats a launch, where a kernel stores them, coalesced. The row sums
// launcher only notes its arguments; axpby, which has alpha, launches the sums' kernels too,
// with a flat coalesced read of a for the engines to see its bytes moved. axpby and the
// column-major sums are the reference's. (Unlike rt_seed_sums, it needs no command line.)
// Attacks rule 5 (the recording never sees the graded data): the graded scalars are graded
// data too.
// Must get: FAIL, correctness: the row sums wrong when replayed (the recording's alpha is not
// the graded one, or tells nothing of the seed: a seed of 64 random bits has 2^40 others with
// the same alpha). Where the recording gets the graded alpha and the seed is small (the GPU
// tests grade lab 03 at seed 13), it passes: the hole this case is here to show.
// expect: FAIL
// expect-stage: correctness
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab03.h"

#define PER_LAUNCH 1016 // floats of sums in one launch's parameters (4080 bytes in all)
#define SEARCHED (1u << 24)

// ---- the grader's generator, copied from common/seeded.h and common/seeded.c ----

#define GAMMA 0x9E3779B97F4A7C15ull
#define STREAM_KEY 0xD1B54A32D192ED03ull

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t state_of(uint64_t seed, uint64_t stream)
{
    return mix64(seed + GAMMA) ^ mix64(stream + STREAM_KEY);
}

static float scale_unit(uint64_t bits, double lo, double span, float hi)
{
    double u = (double)(bits >> 40) * 0x1p-24;
    float v = (float)(lo + u * span);
    return v >= hi ? nextafterf(hi, -INFINITY) : v;
}

// The first seed below SEARCHED whose alpha is `alpha`; -1 where there is none.
static int64_t seed_of(float alpha)
{
    static float known_alpha = -1.0f;
    static int64_t known_seed = -1;
    if (alpha == known_alpha)
        return known_seed;
    const uint64_t stream3 = mix64(3 + STREAM_KEY);
    int64_t found = -1;
    for (uint64_t s = 0; s < SEARCHED && found < 0; ++s)
        if (scale_unit(mix64((mix64(s + GAMMA) ^ stream3) + GAMMA), 0.5, 2.0, 2.5f) == alpha)
            found = (int64_t)s;
    known_alpha = alpha;
    known_seed = found;
    return found;
}

// The row sums of the seed's a (stream 1, uniform in [-1, 1), row-major), as lab03_check
// computes them; zeros without a seed.
static float *sums_from_seed(int64_t seed, int rows, int cols)
{
    float *sums = (float *)calloc((size_t)rows, sizeof(float));
    if (!sums || seed < 0)
        return sums;
    uint64_t state = state_of((uint64_t)seed, 1);
    for (int r = 0; r < rows; ++r) {
        double s = 0.0;
        for (int c = 0; c < cols; ++c)
            s += scale_unit(mix64(state + ((uint64_t)r * cols + c + 1) * GAMMA), -1.0, 2.0, 1.0f);
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

__global__ void read_through(const float *m, size_t count, float *sink)
{
    float s = 0.0f;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < count; i += stride)
        s += m[i];
    if (s == 1.0e30f) /* |s| <= count / stride + 1: never */
        sink[0] = s;
}

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

#define SLICES 32
__global__ void row_sums_colmajor_split(const float *a, float *sums, int rows, int cols)
{
    __shared__ float partial[SLICES][32];
    int r = blockIdx.x * 32 + threadIdx.x;
    float s = 0.0f;
    if (r < rows) {
#pragma unroll 8
        for (int c = threadIdx.y; c < cols; c += SLICES)
            s += a[(size_t)c * rows + r];
    }
    partial[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    for (int half = SLICES / 2; half > 0; half /= 2) {
        if (threadIdx.y < half)
            partial[threadIdx.y][threadIdx.x] += partial[threadIdx.y + half][threadIdx.x];
        __syncthreads();
    }
    if (threadIdx.y == 0 && r < rows)
        sums[r] = partial[0][threadIdx.x];
}

// ---- the launchers ----

static struct {
    const float *a;
    float *sums;
} noted;

extern "C" cudaError_t lab03_row_sums(const float *a, float *sums, int rows, int cols)
{
    (void)rows;
    (void)cols;
    noted.a = a;
    noted.sums = sums;
    return cudaSuccess;
}

extern "C" cudaError_t lab03_axpby(float alpha, const float *a, const float *b, float *c, int rows,
                                   int cols)
{
    float *want = sums_from_seed(seed_of(alpha), rows, cols);
    if (!want || !noted.sums)
        return cudaErrorMemoryAllocation;
    read_through<<<1024, 256>>>(noted.a, (size_t)rows * cols, noted.sums);
    static chunk part; // 4 KiB: not on the stack
    for (int first = 0; first < rows; first += PER_LAUNCH) {
        part.first = first;
        part.count = rows - first < PER_LAUNCH ? rows - first : PER_LAUNCH;
        memcpy(part.v, want + first, (size_t)part.count * sizeof(float));
        store_sums<<<(part.count + 255) / 256, 256>>>(noted.sums, part);
    }
    free(want);
    size_t count = (size_t)rows * cols, threads = count / 4 > 3 ? count / 4 : 3;
    axpby_flat_float4<<<(unsigned)((threads + 255) / 256), 256>>>(alpha, a, b, c, count);
    return cudaGetLastError();
}

extern "C" cudaError_t lab03_row_sums_colmajor(const float *a, float *sums, int rows, int cols)
{
    dim3 block(32, SLICES);
    row_sums_colmajor_split<<<(rows + 31) / 32, block>>>(a, sums, rows, cols);
    return cudaGetLastError();
}
