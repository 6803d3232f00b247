// Mutant (hostile): each block copies its chunk of x into shared memory with one bulk copy of
// the tensor memory accelerator (cp.async.bulk, completed on an mbarrier; sm_90 and later,
// plain loads on older GPUs), unseen as global loads, then writes y in the stub's chunked
// order. The device code is scanned: must fail on the contract, the reason naming cp.async.
#include <stdint.h>
#include "lab01.h"

#define CHUNK 16
#define THREADS 256
#define TILE (THREADS * CHUNK) /* floats a block covers: 16 KiB */

__global__ void scale_bulk(float a, const float *x, float *y, size_t n)
{
    __shared__ __align__(16) float tile[TILE];
    size_t base = (size_t)blockIdx.x * TILE;
    unsigned count = (unsigned)(n - base < TILE ? n - base : TILE);
    unsigned bulk = 0; /* floats brought by the bulk copy: a multiple of 4, from an aligned x */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    __shared__ __align__(8) unsigned long long barrier;
    if (((uintptr_t)(x + base) & 15) == 0)
        bulk = count & ~3u;
    unsigned bar = (unsigned)__cvta_generic_to_shared(&barrier);
    if (bulk) {
        if (threadIdx.x == 0) {
            asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar) : "memory");
            asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            unsigned dst = (unsigned)__cvta_generic_to_shared(tile);
            asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar),
                         "r"(bulk * 4)
                         : "memory");
            asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], "
                         "[%1], %2, [%3];" ::"r"(dst),
                         "l"(x + base), "r"(bulk * 4), "r"(bar)
                         : "memory");
        }
        unsigned done = 0;
        while (!done)
            asm volatile("{\n"
                         ".reg .pred p;\n"
                         "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                         "selp.u32 %0, 1, 0, p;\n"
                         "}\n"
                         : "=r"(done)
                         : "r"(bar)
                         : "memory");
    }
#endif
    for (unsigned i = bulk + threadIdx.x; i < count; i += THREADS)
        tile[i] = x[base + i];
    __syncthreads();
    unsigned first = threadIdx.x * CHUNK;
    for (unsigned i = first; i < first + CHUNK && i < count; ++i)
        y[base + i] = a * tile[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    size_t blocks = (n + TILE - 1) / TILE;
    scale_bulk<<<(unsigned)blocks, THREADS>>>(a, x, y, n);
    return cudaGetLastError();
}
