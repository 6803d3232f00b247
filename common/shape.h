/*
 * shape.h - the sizes of a lab's problem. A lab is graded at one size, may be traced at a
 * smaller one (a kernel whose threads each loop over a long dimension takes minutes under the
 * tracer), and is checked for correctness at several small ones that reach the contract's
 * edges: one element, partial warps and tiles, sizes that are multiples of nothing, every
 * channel count. The grading child sets each up from the same table the grader checks it
 * with (labNN_data.c), so a size never travels between them.
 */
#ifndef CL_SHAPE_H
#define CL_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CL_SHAPE_DIMS 6
#define CL_MAX_CHECK_SHAPES 20

/* One size of a lab's problem; what each number means is the lab's (lab 02: channels, frames). */
typedef struct cl_shape {
    int64_t d[CL_SHAPE_DIMS];
} cl_shape;

typedef struct cl_shapes {
    cl_shape graded; /* checked, timed and measured by the counters */
    cl_shape traced; /* what the trace runs (and is checked at): graded, or smaller */
    size_t nchecks;
    cl_shape checks[CL_MAX_CHECK_SHAPES]; /* checked for correctness only */
    /* The shape in words: "3 channels x 1001 frames". */
    void (*describe)(const cl_shape *s, char *buf, size_t size);
} cl_shapes;

/* Whether the trace runs a smaller problem than the one graded. */
static inline int cl_traced_smaller(const cl_shapes *s)
{
    for (int i = 0; i < CL_SHAPE_DIMS; ++i)
        if (s->graded.d[i] != s->traced.d[i])
            return 1;
    return 0;
}

#ifdef __cplusplus
}
#endif

#endif
