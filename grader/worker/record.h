/*
 * record.h - the recorder: while the student's launcher runs (grade-worker record), every
 * kernel launch it makes is written down as the replays will need it, and every call its lab's
 * contract forbids is noted. It listens to CUPTI's callbacks for the runtime and driver APIs,
 * so whatever way the launcher reaches the GPU (<<<>>>, cudaLaunchKernel, the driver API), the
 * recorder sees it.
 *
 *   launch (<<<>>>, cudaLaunchKernel*, cuLaunchKernel*)   recorded: kernel name, grid, block,
 *                                                          dynamic shared memory, the kernel's
 *                                                          shared-memory attributes as launched
 *                                                          (cudaFuncSetAttribute's), parameters
 *                                                          (pointers into the lab's buffers as
 *                                                          buffer + offset, relocate.h)
 *   memset (cudaMemset, cudaMemset2D, Async too) of one   recorded in every lab; of an input,
 *   of the lab's buffers, on the default stream            refused
 *   device-to-device copy (cudaMemcpy, cudaMemcpy2D,       recorded at any time where the lab
 *   cuMemcpy, cuMemcpyDtoD, Async too) between the lab's   allows it (lab 06); elsewhere only
 *   buffers, on the default stream                         from an output, before the first
 *                                                          kernel (copying an input, or what a
 *                                                          kernel wrote, would do the task where
 *                                                          no engine looks); into an input,
 *                                                          refused everywhere
 *   other streams, launch attributes, allocation, any other
 *   copy or memset, synchronisation, graphs, cooperative
 *   launches, host functions, textures and surfaces        refused: the first is named
 *
 * What the runtime does inside a call (its own driver calls) is judged by the call the
 * launcher made, not by its parts. Which call is which is apicalls.h's to say.
 */
#ifndef CL_RECORD_H
#define CL_RECORD_H

#include <stddef.h>

#include "apicalls.h"
#include "relocate.h"
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Starts recording into *rec (whose buffers the caller has filled in, which are inputs
 * included), the launches' pointers relative to the nb buffers b. With allow_copies,
 * device-to-device copies between the buffers are recorded as work at any time. Returns 0, or
 * -1 with why when this CUDA cannot record (CUPTI refuses, or the driver lacks the parameter
 * and attribute queries of CUDA 12.4). */
int rc_begin(wi_record *rec, const rl_buffer *b, uint32_t nb, int allow_copies, char *why,
             size_t why_size);

/* Stops recording. */
void rc_end(void);

#ifdef __cplusplus
}
#endif

#endif
