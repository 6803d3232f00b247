// Mutant (hostile, red team): predicts the trace's sampling. Rule 3 keys the sampled warps by
// the seed and the compiled file, so that one file and one seed give one verdict; the
// recording runs the student's host code with the seed on its command line. So the launcher
// reads --seed from /proc/self/cmdline, finds its own device code (the fatbin, by its magic
// number, in its own library's memory, as nvcc embedded it and as the grader replays it),
// hashes it (FNV-1a, as the grader hashes kernel files) and derives eight candidate keys the
// ways a grader might (seed ^ hash, mixes of both, their halves). The kernel computes each
// warp's index as the tracer does (grader/trace/patch.cu) and de-interleaves coalesced (a warp
// reads its 32 frames as `channels` coalesced loads and shuffles) in the warps the trace
// always sees (the first and last of a block, the grid's last block) and in those some
// candidate key samples; every other warp does the stub's strided reads.
// Attacks rule 3 (coverage, not luck) and rule 5 (the recording never sees the graded data):
// the key must not be computable where student code runs.
// Must get: FAIL, coalescing: correct; the sampled warps show the strided reads (the key is
// not one of the guesses, or the recording has no graded seed), or, should a guess hit, the
// counters (which see every warp) disagree with the trace.
// expect: FAIL
// expect-stage: coalescing
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab02.h"

#define WARP 32
#define THREADS 256
#define MAX_CHANNELS 16
#define FULL_MASK 0xffffffffu
#define SAMPLE 16
#define NKEYS 8

typedef struct keys {
    unsigned k[NKEYS];
} keys;

// The tracer's mixing function (common/trace_analysis.h's tr_mix), as a student would copy it.
__host__ __device__ static inline unsigned mix32(unsigned x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// ---- the device side ----

__device__ bool watched(unsigned block, unsigned warp_in_block, keys k)
{
    const unsigned per_block = THREADS / WARP;
    if (warp_in_block == 0 || warp_in_block == per_block - 1 || block == gridDim.x - 1)
        return true;
    unsigned warp = block * per_block + warp_in_block;
    for (int i = 0; i < NKEYS; ++i)
        if (mix32(warp ^ k.k[i]) % SAMPLE == 0)
            return true;
    return false;
}

// One warp's 32 frames, first..first+31: coalesced (as tests/submissions/02-stride/
// alt_warp_shuffle.cu does it) or with the stub's stride.
__global__ void deinterleave_where_watched(const float *in, float *out, int channels, size_t n,
                                           keys k)
{
    const int lane = threadIdx.x % WARP;
    const size_t first = ((size_t)blockIdx.x * THREADS + threadIdx.x) / WARP * WARP;
    if (first >= n)
        return;
    const size_t frames = n - first < WARP ? n - first : WARP;
    const float *src = in + first * channels;
    if (!watched(blockIdx.x, threadIdx.x / WARP, k)) {
        if ((size_t)lane < frames)
            for (int c = 0; c < channels; ++c)
                out[(size_t)c * n + first + lane] = src[lane * channels + c];
        return;
    }
    const int words = (int)frames * channels;
    float v[MAX_CHANNELS];
#pragma unroll
    for (int j = 0; j < MAX_CHANNELS; ++j) {
        int w = j * WARP + lane;
        v[j] = j < channels && w < words ? src[w] : 0.0f;
    }
    for (int c = 0; c < channels; ++c) {
        int word = lane * channels + c, owner = word % WARP, slot = word / WARP;
        float sample = 0.0f;
#pragma unroll
        for (int j = 0; j < MAX_CHANNELS; ++j) {
            float got = __shfl_sync(FULL_MASK, v[j], owner);
            if (j == slot)
                sample = got;
        }
        if ((size_t)lane < frames)
            out[(size_t)c * n + first + lane] = sample;
    }
}

// ---- the host side: the seed and the device code's hash ----

// The value after "--seed" (or in "--seed=S") on this process's command line; 0 without one.
static uint64_t seed_from_cmdline(void)
{
    char buf[8192];
    FILE *f = fopen("/proc/self/cmdline", "rb");
    if (!f)
        return 0;
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i += strlen(buf + i) + 1) {
        const char *arg = buf + i;
        if (!strncmp(arg, "--seed=", 7))
            return strtoull(arg + 7, NULL, 0);
        if (!strcmp(arg, "--seed") && i + strlen(arg) + 1 < len)
            return strtoull(arg + strlen(arg) + 1, NULL, 0);
    }
    return 0;
}

// The fatbin embedded in the library that holds `here`: its header starts with the magic
// 0xBA55ED50, a version of 1 and its header's size; the size of what follows is at byte 8.
typedef struct found {
    uintptr_t base; /* where this library is loaded (dladdr) */
    const unsigned char *fatbin;
    size_t bytes;
} found;

static int look_in(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    found *fd = (found *)arg;
    if (info->dlpi_addr != fd->base)
        return 0;
    for (int i = 0; i < info->dlpi_phnum && !fd->fatbin; ++i) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_R))
            continue;
        for (uintptr_t p = (lo + 7) & ~(uintptr_t)7; p + 16 <= hi; p += 8) {
            const unsigned char *b = (const unsigned char *)p;
            uint32_t magic;
            uint16_t version, header;
            uint64_t body;
            memcpy(&magic, b, 4);
            if (magic != 0xBA55ED50u)
                continue;
            memcpy(&version, b + 4, 2);
            memcpy(&header, b + 6, 2);
            memcpy(&body, b + 8, 8);
            if (version == 1 && header >= 16 && p + header + body <= hi) {
                fd->fatbin = b;
                fd->bytes = header + body;
                break;
            }
        }
    }
    return fd->fatbin != NULL;
}

static uint64_t fnv1a(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; ++i)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static keys guess_keys(void)
{
    static keys k;
    static int done;
    if (done)
        return k;
    done = 1;
    Dl_info self;
    found fd = {0, NULL, 0};
    if (dladdr((const void *)&guess_keys, &self) && self.dli_fbase) {
        fd.base = (uintptr_t)self.dli_fbase;
        dl_iterate_phdr(look_in, &fd);
    }
    uint64_t seed = seed_from_cmdline(), hash = fd.fatbin ? fnv1a(fd.fatbin, fd.bytes) : 0;
    uint64_t both = seed ^ hash, mixed = mix64(seed) ^ mix64(hash);
    k.k[0] = (unsigned)both;
    k.k[1] = (unsigned)(both >> 32);
    k.k[2] = (unsigned)mixed;
    k.k[3] = (unsigned)(mixed >> 32);
    k.k[4] = (unsigned)mix64(seed + hash);
    k.k[5] = mix32((unsigned)seed ^ (unsigned)hash);
    k.k[6] = (unsigned)hash ^ (unsigned)(hash >> 32) ^ (unsigned)seed;
    k.k[7] = (unsigned)mix64(both);
    return k;
}

extern "C" cudaError_t lab02_deinterleave(const float *in, float *out, int channels, size_t n)
{
    if (channels < 1 || channels > MAX_CHANNELS)
        return cudaErrorInvalidValue;
    size_t groups = (n + WARP - 1) / WARP;
    unsigned blocks = (unsigned)((groups + THREADS / WARP - 1) / (THREADS / WARP));
    deinterleave_where_watched<<<blocks ? blocks : 1, THREADS>>>(in, out, channels, n,
                                                                 guess_keys());
    return cudaGetLastError();
}
