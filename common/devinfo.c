/* devinfo.c - see devinfo.h. */
#include "devinfo.h"

#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

int di_query(int index, di_info *info)
{
    memset(info, 0, sizeof *info);
    info->index = index;
    cudaDriverGetVersion(&info->driver_version);
    cudaRuntimeGetVersion(&info->runtime_version);
    cudaError_t err = cudaGetDeviceCount(&info->count);
    if (err != cudaSuccess) {
        info->count = 0;
        return err;
    }
    if (index < 0 || index >= info->count)
        return cudaErrorInvalidDevice;
    struct cudaDeviceProp prop;
    err = cudaGetDeviceProperties(&prop, index);
    if (err != cudaSuccess)
        return err;
    snprintf(info->name, sizeof info->name, "%s", prop.name);
    info->cc_major = prop.major;
    info->cc_minor = prop.minor;
    info->sm_count = prop.multiProcessorCount;
    info->l2_bytes = (size_t)prop.l2CacheSize;
    info->global_bytes = prop.totalGlobalMem;
    info->bus_width_bits = prop.memoryBusWidth;
    int clock = 0;
    if (cudaDeviceGetAttribute(&clock, cudaDevAttrMemoryClockRate, index) == cudaSuccess)
        info->mem_clock_khz = clock;
    if (cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, index) == cudaSuccess)
        info->sm_clock_khz = clock;
    return cudaSuccess;
}
