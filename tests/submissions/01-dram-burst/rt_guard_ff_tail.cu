// Mutant (hostile, red team): a float4 kernel with no scalar tail for its stores. The last,
// partial vector of y is stored whole, its lanes past the end filled with 0xffffffff: the
// grader's guard and poison byte (WK_POISON_BYTE, 0xff) that it read in grader/worker/
// worker.c. The up to 12 bytes written into y's guard then equal what the guard held, and the
// guard check saw nothing. (Its loads of the tail are scalar: it reads nothing outside x.)
// Attacks rule 4 (replays share nothing): the guard bytes are random per run, a NaN of random
// payload, and no constant written past the end can match them.
// Must get: FAIL, guards: y's guard bytes changed, at the graded size (n % 4 == 3) and at the
// check sizes with n % 4 != 0.
// expect: FAIL
// expect-stage: guards
#include "lab01.h"

#define THREADS 256

__device__ __forceinline__ float guard_value(void)
{
    return __int_as_float(-1); // 0xffffffff: four bytes of 0xff
}

// Thread t scales vector t; the thread of the last, partial vector loads its 1 to 3 floats
// one by one and stores a whole float4 over them and the guard.
__global__ void scale_vectors(float a, const float *x, float *y, size_t n)
{
    const size_t vectors = (n + 3) / 4, stride = (size_t)gridDim.x * blockDim.x;
    for (size_t v = (size_t)blockIdx.x * blockDim.x + threadIdx.x; v < vectors; v += stride) {
        float4 r;
        if (4 * v + 4 <= n) {
            float4 in = ((const float4 *)x)[v];
            r = make_float4(a * in.x, a * in.y, a * in.z, a * in.w);
        } else {
            size_t i = 4 * v;
            r.x = a * x[i];
            r.y = i + 1 < n ? a * x[i + 1] : guard_value();
            r.z = i + 2 < n ? a * x[i + 2] : guard_value();
            r.w = guard_value();
        }
        ((float4 *)y)[v] = r;
    }
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    size_t vectors = (n + 3) / 4, wanted = (vectors + THREADS - 1) / THREADS;
    unsigned blocks = (unsigned)(wanted < 4096 ? (wanted ? wanted : 1) : 4096);
    scale_vectors<<<blocks, THREADS>>>(a, x, y, n);
    return cudaGetLastError();
}
