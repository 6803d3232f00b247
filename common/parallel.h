/*
 * parallel.h - a loop split over a few threads, for the grader's CPU work on the graded
 * problems (the references and the comparisons of tens of millions of values), so that a lab's
 * check takes a fraction of a second on a machine with several cores. Every part is a contiguous
 * range of the loop; a body that writes only its own range gives the same bytes as one thread.
 */
#ifndef CL_PARALLEL_H
#define CL_PARALLEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* At most this many threads, the calling one among them. */
#define CL_PARALLEL_THREADS 8

/* Calls body(ctx, part, begin, end) for parts that cover [0, n) in order, part 0 from 0; each
 * part at least min_part long (so a short loop stays on this thread), as many parts as there
 * are cores up to CL_PARALLEL_THREADS. Returns how many parts there were (1 to
 * CL_PARALLEL_THREADS; 0 when n is 0). A thread that cannot start has its part run here. */
size_t cl_parallel_for(size_t n, size_t min_part,
                       void (*body)(void *ctx, size_t part, size_t begin, size_t end), void *ctx);

#ifdef __cplusplus
}
#endif

#endif
