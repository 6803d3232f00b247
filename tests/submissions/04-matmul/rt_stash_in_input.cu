// Mutant (hostile, red team B): keeps C in the inputs between timed repeats, to win the speed gate.
// expect: FAIL
// expect-stage: contract|guards
//
// What it does: three launches. The first computes C with the naive kernel (x on the columns,
// the speed gate's own baseline), unless the last word of B holds a marker (a NaN no input
// holds), in which case it only copies C out of a stash. The second copies C into the stash,
// the first m * n words of A followed by B (the inputs are used up by then), unless the marker
// is there. The third writes the marker. So the first replay computes and stashes, and every
// later one, the timed repeats with their poisoned C and reloaded device code among them, is a
// 6 MB copy: hundreds of times as fast as the baseline, and correct when checked after the
// timing. The marker and the stash live in A and B, which nothing but their guards was checked
// for; the trace (one replay) sees the naive kernel's coalesced loads and the copies.
// Rule attacked: rule 4 (replays share nothing: every input checked unchanged after every
// replay, the timed repeats included).
// Must get: FAIL, contract: the first replay changes A and B.
#include "lab04.h"

#define MARK 0x7fc0b1e5u /* a quiet NaN: the inputs are +-(1 + i / 2^23) */

// Stash word s (s < m * n): A's words first, then B's.
__device__ __forceinline__ float *stash_word(float *a, float *b, size_t s, size_t mk)
{
    return s < mk ? a + s : b + (s - mk);
}

__device__ __forceinline__ int stashed(const float *b, size_t kn)
{
    return __float_as_uint(b[kn - 1]) == MARK;
}

__global__ void matmul_or_unstash(const float *a, const float *b, float *c, int m, int n, int k,
                                  int can_stash)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row >= m || col >= n)
        return;
    size_t mk = (size_t)m * k, kn = (size_t)k * n, s = (size_t)row * n + col;
    if (can_stash && stashed(b, kn)) {
        c[s] = *stash_word((float *)a, (float *)b, s, mk);
        return;
    }
    float sum = 0.0f;
    for (int i = 0; i < k; ++i)
        sum += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[s] = sum;
}

__global__ void stash_product(float *a, float *b, const float *c, int m, int n, int k)
{
    size_t s = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t mk = (size_t)m * k, kn = (size_t)k * n;
    if (s < (size_t)m * n && !stashed(b, kn))
        *stash_word(a, b, s, mk) = c[s];
}

__global__ void mark_stashed(float *b, int n, int k)
{
    b[(size_t)k * n - 1] = __uint_as_float(MARK);
}

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    size_t mn = (size_t)m * n, room = (size_t)m * k + (size_t)k * n;
    int can_stash = mn + 1 <= room; /* every shape the lab grades and checks has the room */
    dim3 block(32, 8), grid((n + 31) / 32, (m + 7) / 8);
    matmul_or_unstash<<<grid, block>>>(a, b, c, m, n, k, can_stash);
    if (can_stash) {
        stash_product<<<(unsigned)((mn + 255) / 256), 256>>>((float *)a, (float *)b, c, m, n, k);
        mark_stashed<<<1, 1>>>((float *)b, n, k);
    }
    return cudaGetLastError();
}
