/*
 * patch.cu - the trace engine's device side: a Compute Sanitizer patch called before every
 * global memory instruction of a patched kernel, once per thread that executes it.
 *
 * For a sampled warp, the warp's first active lane takes a record slot with one atomicAdd and
 * hands it to the other lanes; each lane writes its own address, the leader the rest. Built
 * with: nvcc --fatbin --keep-device-functions -Xptxas --compile-as-tools-patch.
 */
#include <sanitizer_patching.h>
#include <stdint.h>

#include "trace_analysis.h"
#include "tracer_shared.h"

extern "C" __device__ __noinline__ SanitizerPatchResult cl_on_global(void *userdata, uint64_t pc,
                                                                     void *ptr, uint32_t size,
                                                                     uint32_t flags,
                                                                     const void *new_value)
{
    (void)new_value;
    tr_tracker *t = (tr_tracker *)userdata;
    if (!t)
        return SANITIZER_PATCH_SUCCESS;
    uint32_t lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    uint32_t tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    uint32_t block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    uint32_t warps_per_block = (blockDim.x * blockDim.y * blockDim.z + 31) / 32;
    uint32_t warp = block * warps_per_block + tid / 32;
    if (t->sample > 1 &&
        !tr_edge_of(block, tid / 32, warps_per_block, gridDim.x * gridDim.y * gridDim.z) &&
        !tr_sampled(warp, t->key, t->sample))
        return SANITIZER_PATCH_SUCCESS;

    uint32_t mask = __activemask();
    uint32_t leader = __ffs(mask) - 1;
    uint32_t slot = 0;
    if (lane == leader)
        slot = atomicAdd(&t->next, 1u);
    slot = __shfl_sync(mask, slot, leader);
    if (slot >= t->max)
        return SANITIZER_PATCH_SUCCESS;
    ta_record *r = &t->records[slot];
    r->addr[lane] = (uint64_t)(uintptr_t)ptr;
    if (lane == leader) {
        r->pc = pc;
        r->warp = warp;
        r->active = mask;
        r->size = size;
        r->is_store = (flags & SANITIZER_MEMORY_DEVICE_FLAG_WRITE) ? 1u : 0u;
    }
    return SANITIZER_PATCH_SUCCESS;
}
