/* lab03_data.c - see lab03_data.h. */
#include "lab03_data.h"

#include "seeded.h"

void lab03_fill(uint64_t seed, float *a, float *b, float *alpha)
{
    size_t n = (size_t)LAB03_ROWS * LAB03_COLS;
    sd_fill_uniform(a, n, seed, 1, -1.0f, 1.0f);
    sd_fill_uniform(b, n, seed, 2, -1.0f, 1.0f);
    sd_rng rng;
    sd_init(&rng, seed, 3);
    *alpha = sd_next_float(&rng, 0.5f, 2.5f);
}

void lab03_to_colmajor(const float *a, float *a_cm, int rows, int cols)
{
    for (size_t r = 0; r < (size_t)rows; ++r)
        for (size_t c = 0; c < (size_t)cols; ++c)
            a_cm[c * rows + r] = a[r * cols + c];
}
