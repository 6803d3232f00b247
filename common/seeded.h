/*
 * seeded.h - seeded, reproducible input data.
 *
 * Pure C, no GPU. The grading child and the parent both regenerate the same inputs from
 * (seed, stream), so inputs never travel between processes. The generator is splitmix64:
 * small, fast, and the same on every platform.
 */
#ifndef CL_SEEDED_H
#define CL_SEEDED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sd_rng {
    uint64_t state;
} sd_rng;

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

#ifdef __cplusplus
}
#endif

#endif
