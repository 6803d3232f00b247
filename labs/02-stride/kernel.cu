/*
 * Lab 02 - stride.  Your file: edit only between the STUDENT markers.
 *
 * De-interleaving is correct here, with one thread per output sample: the writes are
 * consecutive, but each warp's reads are `channels` floats apart. Make both coalesced.
 *
 *   grade it:     make -f Makefile.student grade LAB=02
 *   read first:   handouts/02-stride.md
 */
#include "lab02.h"

// ---- STUDENT BEGIN ----

// Thread t writes out[t], sample f of channel c, and reads it from in[f * channels + c]:
// consecutive threads read words `channels` floats apart, one sector or more per lane.
__global__ void deinterleave_strided(const float *in, float *out, int channels, size_t n)
{
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < (size_t)channels * n) {
        size_t c = t / n, f = t % n;
        out[t] = in[f * channels + c];
    }
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    const unsigned threads = 256;
    size_t total = (size_t)channels * n;
    deinterleave_strided<<<(unsigned)((total + threads - 1) / threads), threads>>>(in, out,
                                                                                   channels, n);
    return cudaGetLastError();
}

// ---- STUDENT END ----
