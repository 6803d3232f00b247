/*
 * devinfo.h - what the grading GPU is: the facts a report and a run manifest need.
 */
#ifndef CL_DEVINFO_H
#define CL_DEVINFO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct di_info {
    int count; /* CUDA devices visible; 0 when none */
    int index; /* the device described below */
    char name[256];
    int cc_major, cc_minor; /* compute capability */
    int sm_count;
    size_t l2_bytes;
    size_t global_bytes;
    int driver_version;  /* cudaDriverGetVersion, e.g. 13000 */
    int runtime_version; /* cudaRuntimeGetVersion */
    int mem_clock_khz;   /* 0 where the runtime no longer reports it */
    int bus_width_bits;
    int sm_clock_khz; /* the SMs' peak clock (cudaDevAttrClockRate); 0 where not reported */
} di_info;

/* Describes device index (usually 0) into *info. Returns cudaSuccess, or the CUDA error that
 * prevented it; with no device, returns cudaErrorNoDevice and sets info->count = 0. Never
 * exits. */
int di_query(int index, di_info *info);

/* The memory's theoretical peak, bytes a second: memory clock x bus width x 2 (the device's
 * attributes); 0 where the runtime reports no memory clock. */
double di_peak_bytes_per_s(const di_info *info);

/* FP32 fused multiply-adds an SM issues a clock, by compute capability (the CUDA C++ Programming
 * Guide's throughput table: 64 on 6.0, 7.x and 8.0, 128 on the others from 5.0 on); 0 where
 * unknown. */
int di_fp32_lanes_per_sm(int cc_major, int cc_minor);

/* The SMs' theoretical FP32 peak, operations a second: SMs x lanes x 2 (a multiply-add is two)
 * x the SM clock; 0 where a factor is unknown. */
double di_peak_fp32_flops(const di_info *info);

/* Whether the NVIDIA driver lets only administrators read the GPU's performance counters, from
 * its parameters file (on Linux /proc/driver/nvidia/params, which every user may read; the line
 * "RmProfilingAdminOnly: 1"): 1, 0, or -1 where the file or the line is not there. No CUDA. */
int di_profiling_admin_only(const char *params_path);

/* Formats a driver or runtime version such as 13000 as "13.0". */
void di_version_string(int version, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
