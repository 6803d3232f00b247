// Mutant (hostile, red team): reads through atomics. The stub's strided reads are made with
// atomicOr(&in[f * channels + c], 0), which returns the word and leaves it as it was: an
// atomic, not a load, so neither the load counters nor a trace of loads count it. For the
// engines to see loads at all (and the bytes of the task moved), every block also reads its
// run of the input once with ordinary coalesced loads, summed and stored under a condition
// never true. The stores are the stub's, one run of consecutive words a warp.
// Attacks rule 2 (every instruction class that moves global memory is measured or refused):
// global atomics are measured, as stores.
// Must get: FAIL, coalescing: correct, loads coalesced, but the stores (the output's, plus the
// atomics at 24 sectors a request) far below the least (about 14%); or the engines disagree on
// them, the counters not counting atomics. (The atomics leave in as it was, so the check of
// the inputs passes; a grader that refuses any write into an input may stop it earlier, as a
// broken contract or with the guards.)
// expect: FAIL
// expect-stage: coalescing|contract|guards
#include "lab02.h"

#define THREADS 256

__global__ void deinterleave_atomic(const float *in, float *out, int channels, size_t n)
{
    const size_t total = (size_t)channels * n;
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    float decoy = 0.0f;
    if (t < total) {
        decoy = in[t]; // word t: the block's run, coalesced, for the engines to see
        size_t c = t / n, f = t % n;
        unsigned *word = (unsigned *)(in + f * channels + c);
        out[t] = __uint_as_float(atomicOr(word, 0u));
    }
    if (decoy == 1.0e30f) /* every input is in [-1000, 1000): never */
        out[0] = decoy;
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    size_t total = (size_t)channels * n;
    deinterleave_atomic<<<(unsigned)((total + THREADS - 1) / THREADS), THREADS>>>(in, out, channels,
                                                                                  n);
    return cudaGetLastError();
}
