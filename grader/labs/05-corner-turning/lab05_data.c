/* lab05_data.c - see lab05_data.h. */
#include "lab05_data.h"

#include "seeded.h"

void lab05_fill(uint64_t seed, float *a, float *b, float *t, int m, int n, int k, int rows,
                int cols)
{
    sd_fill_distinct(a, (size_t)k * m, seed, 1);
    sd_fill_distinct(b, (size_t)k * n, seed, 2);
    sd_fill_distinct(t, (size_t)rows * cols, seed, 3);
}
