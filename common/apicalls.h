/*
 * apicalls.h - what a CUDA call made by a student's launcher is, by its name as CUPTI reports
 * it (runtime "cuda..." and driver "cu..." functions, version suffixes such as _v2, _v3020 or
 * _ptsz included): a launch, a copy, a memset, something the labs' contracts forbid, or nothing
 * to note.
 * Pure C, no CUDA: the recorder (grader/worker/record.c) asks, the unit tests check.
 */
#ifndef CL_APICALLS_H
#define CL_APICALLS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ac_kind {
    AC_OTHER,     /* nothing to record: queries, error checks, the runtime's own bookkeeping */
    AC_LAUNCH,    /* a kernel launch: cuLaunchKernel and cuLaunchKernelEx (and _ptsz) */
    AC_RT_LAUNCH, /* the runtime's launch (cudaLaunchKernel, <<<>>>): its stream is checked */
    AC_COPY,      /* a plain linear or 2D copy: device to device between the lab's buffers, it
                     is recorded (record.h says where) */
    AC_MEMSET,    /* the runtime's memset, linear or 2D: recorded where it writes the lab's
                     buffers */
    AC_FORBIDDEN  /* allocation, any other copy or memset, synchronisation, streams, graphs,
                     cooperative or host launches, textures, surfaces, contexts */
} ac_kind;

/* What the call named name is. */
ac_kind ac_classify(const char *name);

/* A few words on why a forbidden call is forbidden, for the report ("it synchronises"). */
const char *ac_why(const char *name);

/* Why a memset (copy 0) or a device-to-device copy (copy 1) that lies inside the lab's buffers
 * may not be recorded, in words that follow the call's name ("to write an input, ..."), or NULL
 * where it may. into_input: it writes an input; from_input: a copy reads one; copies_allowed:
 * the lab's contract allows copies (lab 06); after_kernel: the launcher has launched a kernel
 * before it. Nothing may write an input; where copies are not allowed, a copy may only write an
 * output from an output before the first kernel: one that reads an input, or what a kernel
 * wrote, would do part of the task where no engine measures it. A memset computes nothing. */
const char *ac_transfer_refused(int copy, int into_input, int from_input, int copies_allowed,
                                int after_kernel);

#ifdef __cplusplus
}
#endif

#endif
