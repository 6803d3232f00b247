// Mutant (hostile, red team): the stub's strided gather, done by cp.async in inline PTX behind
// a label. The old device-code scan read the PTX text and looked for "cp.async." only where a
// statement starts (after a newline, ';', '{' or '}'); "HIDE_COPY: cp.async..." starts with a
// label, so the scan passed over it, and the wait likewise. Each thread copies its frame's
// channel samples (the stub's addresses, `channels` floats apart from lane to lane) into
// shared memory with 4-byte cp.async, then the block writes each channel's run of samples with
// ordinary coalesced stores. Neither engine sees a cp.async as a load, so the block also reads
// its frames once with ordinary coalesced loads (summed, stored under a condition never true),
// for the engines to see the input's bytes moved.
// Attacks rule 2: the instruction classes no engine measures are refused by name, from the
// SASS of what was compiled (LDGSTS), not from the PTX text.
// Must get: FAIL, contract: the asynchronous copy (LDGSTS) named.
// expect: FAIL
// expect-stage: contract
#include "lab02.h"

#define TILE 256 // frames a block, one a thread
#define MAX_CHANNELS 16

// One 4-byte asynchronous copy from global to shared memory, after a label. Not inlined: the
// label appears once in the function's PTX, however often it is called.
__device__ __noinline__ void copy_async(float *dst, const float *src)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("HIDE_COPY: cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(s), "l"(src)
                 : "memory");
}

__device__ __noinline__ void wait_copies(void)
{
    asm volatile("HIDE_WAIT: cp.async.wait_all;" ::: "memory");
}

__global__ void deinterleave_hidden_copies(const float *in, float *out, int channels, size_t n)
{
    __shared__ float tile[MAX_CHANNELS][TILE];
    const size_t first = (size_t)blockIdx.x * TILE;
    const int frames = n - first < TILE ? (int)(n - first) : TILE;
    const int t = threadIdx.x;
    if (t < frames)
        for (int c = 0; c < channels; ++c)
            copy_async(&tile[c][t], &in[(first + t) * channels + c]);
    // The decoy: the block's words, read coalesced.
    float decoy = 0.0f;
    const float *run = in + first * channels;
    for (int w = t; w < frames * channels; w += TILE)
        decoy += run[w];
    wait_copies();
    __syncthreads();
    if (t < frames)
        for (int c = 0; c < channels; ++c)
            out[(size_t)c * n + first + t] = tile[c][t];
    if (decoy == 1.0e30f) /* |decoy| <= 16000: never */
        out[0] = decoy;
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    if (channels < 1 || channels > MAX_CHANNELS)
        return cudaErrorInvalidValue;
    deinterleave_hidden_copies<<<(unsigned)((n + TILE - 1) / TILE), TILE>>>(in, out, channels, n);
    return cudaGetLastError();
}
