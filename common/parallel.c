/* parallel.c - see parallel.h. */
#define _POSIX_C_SOURCE 200809L
#include "parallel.h"

#include <pthread.h>
#include <unistd.h>

typedef struct part {
    void (*body)(void *ctx, size_t part, size_t begin, size_t end);
    void *ctx;
    size_t index, begin, end;
} part;

static void *run_part(void *arg)
{
    const part *p = arg;
    p->body(p->ctx, p->index, p->begin, p->end);
    return NULL;
}

size_t cl_parallel_for(size_t n, size_t min_part,
                       void (*body)(void *ctx, size_t part, size_t begin, size_t end), void *ctx)
{
    if (n == 0)
        return 0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t parts = cpus > CL_PARALLEL_THREADS ? CL_PARALLEL_THREADS : cpus > 1 ? (size_t)cpus : 1;
    if (min_part < 1)
        min_part = 1;
    if (parts > n / min_part)
        parts = n / min_part > 0 ? n / min_part : 1;
    part p[CL_PARALLEL_THREADS];
    pthread_t threads[CL_PARALLEL_THREADS];
    int started[CL_PARALLEL_THREADS] = {0};
    for (size_t k = 0; k < parts; ++k) {
        p[k] = (part){body, ctx, k, n * k / parts, n * (k + 1) / parts};
        if (k > 0)
            started[k] = pthread_create(&threads[k], NULL, run_part, &p[k]) == 0;
    }
    run_part(&p[0]);
    for (size_t k = 1; k < parts; ++k) {
        if (started[k])
            pthread_join(threads[k], NULL);
        else
            run_part(&p[k]);
    }
    return parts;
}
