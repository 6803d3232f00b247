/*
 * exit_codes.h - how a grading child ends, agreed between grade-worker (which exits so) and the
 * grader (which explains it). No CUDA here: the grader's process includes it too.
 */
#ifndef CL_EXIT_CODES_H
#define CL_EXIT_CODES_H

#define CL_EXIT_CUDA 86     /* a CUDA call failed (CL_CUDA_CHECK printed which) */
#define WK_EXIT_USAGE 2     /* the worker was called wrongly */
#define WK_EXIT_CONTRACT 87 /* the kernel object lacks the lab's launcher, or cannot be loaded */
#define WK_EXIT_IO 88       /* the work directory cannot be written */

#endif
