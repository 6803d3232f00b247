// Mutant (hostile, red team B): small checks computed on the host from the seed, in parameters.
// expect: FAIL
// expect-stage: correctness
//
// What it does: its kernel is fast and coalesced but needs m, n >= 32: the last tile of each
// row and column is shifted back inside the matrix instead of being masked (overlapping tiles
// write the same sums twice). The small check sizes (1 x 1, 17 x 33, 100 x 7, 5 x 300) are
// not computed on the GPU: the launcher finds the grader's seed on its process's command line
// (/proc/self/cmdline, "--seed N"), makes the inputs again with the grader's own generator
// (common/seeded.c: splitmix64, a Fisher-Yates shuffle, random signs), multiplies them on the
// CPU and launches a kernel that only writes those results, 1000 floats per launch, carried
// in its parameters. A replay replays the parameters, so it writes the right C at each check.
// Rule attacked: rule 5 (the recording never sees the graded data: nothing its host code
// computes can be carried into a replay in kernel parameters).
// Must get: FAIL, correctness at one of the small sizes: the recording's process must not
// learn the graded seed (neither from its arrays nor from its command line or environment),
// so what it computes is the product of other inputs.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab04.h"

#define TILE 32
#define CHUNK 1000

// ---- the grader's input generator, as common/seeded.c has it ----
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

typedef struct rng {
    uint64_t state;
} rng;

static uint64_t next_u64(rng *r)
{
    r->state += 0x9E3779B97F4A7C15ull;
    return mix64(r->state);
}

static uint32_t next_below(rng *r, uint32_t bound)
{
    uint64_t m = (next_u64(r) >> 32) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t threshold = (uint32_t)(-bound) % bound;
        while (low < threshold) {
            m = (next_u64(r) >> 32) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

static void fill_distinct(float *x, size_t n, uint64_t seed, uint64_t stream)
{
    rng r = {mix64(seed + 0x9E3779B97F4A7C15ull) ^ mix64(stream + 0xD1B54A32D192ED03ull)};
    for (size_t i = 0; i < n; i++)
        x[i] = 1.0f + (float)i * 0x1p-23f;
    for (size_t i = n; i > 1; i--) {
        size_t j = next_below(&r, (uint32_t)i);
        float t = x[i - 1];
        x[i - 1] = x[j];
        x[j] = t;
    }
    uint64_t signs = 0;
    for (size_t i = 0; i < n; i++) {
        if (i % 64 == 0)
            signs = next_u64(&r);
        if (signs & 1)
            x[i] = -x[i];
        signs >>= 1;
    }
}

// The value after "--seed" among this process's arguments, or 0.
static uint64_t graders_seed(void)
{
    static char args[65536];
    FILE *f = fopen("/proc/self/cmdline", "rb");
    size_t len = f ? fread(args, 1, sizeof args - 1, f) : 0;
    if (f)
        fclose(f);
    args[len] = '\0';
    for (size_t i = 0; i < len; i += strlen(args + i) + 1)
        if (!strcmp(args + i, "--seed") && i + 7 < len)
            return strtoull(args + i + 7, NULL, 10);
    return 0;
}

// ---- device code ----
typedef struct chunk {
    int first, count;
    float v[CHUNK];
} chunk;

__global__ void write_results(float *c, chunk ch)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < ch.count)
        c[ch.first + i] = ch.v[i];
}

// 32 x 32 tiles on 32 x 8 threads, four rows a thread. The last tile of a row or a column is
// moved back to end at the matrix's edge: no masks on rows or columns (m, n >= 32 needed).
__global__ void matmul_shifted_tiles(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = min((int)blockIdx.y * TILE, m - TILE), col0 = min((int)blockIdx.x * TILE, n - TILE);
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int t = 0; t < k; t += TILE) {
        for (int j = 0; j < 4; ++j) {
            int r = ty + 8 * j;
            as[r][tx] = t + tx < k ? a[(size_t)(row0 + r) * k + t + tx] : 0.0f;
            bs[r][tx] = t + r < k ? b[(size_t)(t + r) * n + col0 + tx] : 0.0f;
        }
        __syncthreads();
        for (int i = 0; i < TILE; ++i) {
            float bv = bs[i][tx];
            for (int j = 0; j < 4; ++j)
                acc[j] += as[ty + 8 * j][i] * bv;
        }
        __syncthreads();
    }
    for (int j = 0; j < 4; ++j)
        c[(size_t)(row0 + ty + 8 * j) * n + col0 + tx] = acc[j];
}

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    if (m >= TILE && n >= TILE) {
        dim3 block(TILE, 8), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
        matmul_shifted_tiles<<<grid, block>>>(a, b, c, m, n, k);
        return cudaGetLastError();
    }
    // A small check: the product of the grader's inputs, made here from its seed.
    uint64_t seed = graders_seed();
    float *ha = (float *)malloc((size_t)m * k * sizeof(float));
    float *hb = (float *)malloc((size_t)k * n * sizeof(float));
    static chunk ch;
    if (!ha || !hb) {
        free(ha);
        free(hb);
        return cudaErrorMemoryAllocation;
    }
    fill_distinct(ha, (size_t)m * k, seed, 1);
    fill_distinct(hb, (size_t)k * n, seed, 2);
    for (int first = 0; first < m * n; first += CHUNK) {
        ch.first = first;
        ch.count = m * n - first < CHUNK ? m * n - first : CHUNK;
        for (int e = 0; e < ch.count; ++e) {
            int r = (first + e) / n, col = (first + e) % n;
            double sum = 0.0;
            for (int i = 0; i < k; ++i)
                sum += (double)ha[(size_t)r * k + i] * hb[(size_t)i * n + col];
            ch.v[e] = (float)sum;
        }
        write_results<<<(ch.count + 255) / 256, 256>>>(c, ch);
    }
    free(ha);
    free(hb);
    return cudaGetLastError();
}
