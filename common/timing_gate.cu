/*
 * timing_gate.cu - the gate of tm_measure (timing.h): one thread that holds the stream until the
 * host opens it (or a time limit passes), so that the start event, the work and the stop event
 * are all queued before the GPU reaches them, and no pause of the host between them (a busy CPU,
 * other gradings beside this one) lands inside the timed region.
 */
#include "timing.h"

// Spins on *open, written by the host through mapped memory, until it is set or limit_ns of the
// GPU's global timer have passed (a gate nobody opens, as when the work synchronizes inside,
// delays the run; it never hangs it).
__global__ void tm_gate_kernel(const volatile int *open, unsigned long long limit_ns)
{
    unsigned long long start, now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
    do {
        if (*open)
            return;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    } while (now - start < limit_ns);
}

extern "C" cudaError_t tm_gate_close(const volatile int *open_on_device, double limit_s)
{
    tm_gate_kernel<<<1, 1>>>(open_on_device, (unsigned long long)(limit_s * 1e9));
    return cudaGetLastError();
}
