/*
 * cuda_check.h - the one CUDA error check of the project.
 *
 * CL_CUDA_CHECK(call) runs call; when it does not return cudaSuccess it prints
 *     path/file.c:42: 'cudaMalloc(&x, bytes)' failed: cudaErrorMemoryAllocation (out of memory)
 * on stderr and ends the process with CL_EXIT_CUDA. It is never compiled out. Use it in
 * processes that may die for a CUDA error: the grading child and the lab programs, never the
 * grader's parent process (which does not touch CUDA at all).
 */
#ifndef CL_CUDA_CHECK_H
#define CL_CUDA_CHECK_H

#include <cuda_runtime_api.h>

#include "exit_codes.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CL_CUDA_CHECK(call)                                                                        \
    do {                                                                                           \
        cudaError_t cl_err_ = (call);                                                              \
        if (cl_err_ != cudaSuccess)                                                                \
            cl_cuda_fail(cl_err_, #call, __FILE__, __LINE__);                                      \
    } while (0)

/* Prints the message above and exits with CL_EXIT_CUDA. */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void cl_cuda_fail(cudaError_t err, const char *call, const char *file, int line);

#ifdef __cplusplus
}
#endif

#endif
