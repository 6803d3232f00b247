/*
 * exit_codes.h - how the project's programs end: grade's own statuses (its --help says the
 * same), and how a grading child ends, agreed between grade-worker (which exits so) and the
 * grader (which explains it). No CUDA here: the grader's process includes it too.
 */
#ifndef CL_EXIT_CODES_H
#define CL_EXIT_CODES_H

/* grade */
#define CL_EXIT_OK 0    /* every graded lab passed */
#define CL_EXIT_FAIL 1  /* some lab failed */
#define CL_EXIT_USAGE 2 /* the command line is wrong */
#define CL_EXIT_ENV 3   /* no GPU, no nvcc, no grading child, or coalescing not measured */

/* grade-worker */
#define CL_EXIT_WORKER_USAGE 2 /* the worker was called wrongly */
#define CL_EXIT_CUDA 86        /* a CUDA call failed (CL_CUDA_CHECK printed which) */
#define CL_EXIT_CONTRACT 87    /* the kernel object lacks the lab's launcher, or cannot be loaded */
#define CL_EXIT_IO 88          /* the work directory cannot be written */
#define CL_EXIT_GPU_BUSY 89    /* the GPU lock was not free in time (wire.h): nothing measured */

#endif
