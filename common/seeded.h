/*
 * seeded.h - seeded, reproducible input data.
 *
 * The grading child (on the GPU, grader/worker/fill.cu, through the inline steps below) and
 * the parent (in C, on the CPU) both regenerate the same inputs from (seed, stream), so inputs
 * never travel between processes. The generator is splitmix64:
 * small, fast, and the same on every platform.
 */
#ifndef CL_SEEDED_H
#define CL_SEEDED_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sd_rng {
    uint64_t state;
} sd_rng;

/* One seeded input array: the stream its values are drawn from, uniform in [lo, hi). */
typedef struct sd_uniform {
    uint64_t stream;
    float lo, hi;
} sd_uniform;

/* The generator's steps, here so that the grading child's GPU fill (grader/worker/fill.cu)
 * computes them from the same lines, bit for bit: integer arithmetic, and on the GPU the
 * rounding of each step spelled out (nvcc would otherwise fuse a multiply and an add). */
#ifdef __CUDACC__
#define SD_FN static inline __host__ __device__
#else
#define SD_FN static inline
#endif
#define SD_GAMMA UINT64_C(0x9E3779B97F4A7C15)

/* splitmix64's output function (Stafford's Mix13). */
SD_FN uint64_t sd_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* FNV-1a, 64 bits, of the n bytes at p: a name's or a file's fingerprint (not for secrets). */
SD_FN uint64_t sd_fnv1a(const void *p, size_t n)
{
    uint64_t h = UINT64_C(1469598103934665603);
    for (size_t i = 0; i < n; ++i)
        h = (h ^ ((const unsigned char *)p)[i]) * UINT64_C(1099511628211);
    return h;
}

/* Value i (from 0) of a generator whose state is state, without the i steps before it. */
SD_FN uint64_t sd_value_at(uint64_t state, uint64_t i)
{
    return sd_mix64(state + (i + 1) * SD_GAMMA);
}

/* The top 24 bits give a float in [0, 1) with every value exactly representable. The scaling
 * is done in double so that hi - lo cannot overflow; rounding the result to float can land
 * on hi itself, which the half-open range forbids, so that case steps back one ulp. */
SD_FN float sd_scale_unit(uint64_t bits, double lo, double span, float hi)
{
    double u = (double)(bits >> 40) * 0x1p-24;
#ifdef __CUDA_ARCH__
    float v = __double2float_rn(__dadd_rn(lo, __dmul_rn(u, span)));
#else
    float v = (float)(lo + u * span); /* ISO C: never contracted into one fused operation */
#endif
    if (v >= hi && span > 0.0)
        v = nextafterf(hi, -INFINITY);
    return v;
}

/* The two seeds a lab's problem is drawn from. The scalars its launchers are given (lab 01's
 * factor, lab 03's alpha) come from task, the grading's --seed: they are the same in the
 * recording and in the replays, which replay the recorded parameter bytes. Its input arrays
 * come from data, drawn from task and a salt (sd_data_seed): the replays' salt is a secret of
 * the grading run, the recording's another, so that the recording never sees the arrays that
 * are graded and nothing its host code computes from them can be carried into a replay. */
typedef struct sd_seeds {
    uint64_t task, data;
    /* The poison the run that filled them wrote over its outputs and guards (salt.h): the
     * recording's differs from the replays'. 0: the run's, lab_poison() (grader/lab.h). */
    uint32_t poison;
} sd_seeds;

/* The data seed of (task, salt): a bijection of salt for every task, so that two salts never
 * give one data seed. */
uint64_t sd_data_seed(uint64_t task, uint64_t salt);

/* Starts a generator for one named input: different streams of one seed are independent. */
void sd_init(sd_rng *rng, uint64_t seed, uint64_t stream);
uint64_t sd_next_u64(sd_rng *rng);
/* Moves rng on by n values at once, as n calls would: a part of an array filled by another
 * thread starts where the one generator would be. */
void sd_skip(sd_rng *rng, uint64_t n);
/* Uniform in [lo, hi). */
float sd_next_float(sd_rng *rng, float lo, float hi);

/* x[i] uniform in [lo, hi), i < n. */
void sd_fill_uniform(float *x, size_t n, uint64_t seed, uint64_t stream, float lo, float hi);

/* n distinct values with no two equal, in a seeded random order, so that reading element i
 * where j was meant always shows: the values are +-(1 + k / 2^23) for k a permutation of
 * 0..n-1, each sign random. Requires n <= 2^23; returns -1 (x untouched) otherwise, else 0. */
int sd_fill_distinct(float *x, size_t n, uint64_t seed, uint64_t stream);
/* The same with k a permutation of first..first+n-1: arrays filled from disjoint ranges hold no
 * value in common, so that no two of a lab's inputs are equal (a launcher that passes one for
 * another always shows). Requires first + n <= 2^23; returns -1 (x untouched) otherwise. */
int sd_fill_distinct_from(float *x, size_t n, uint64_t seed, uint64_t stream, size_t first);

#ifdef __cplusplus
}
#endif

#endif
