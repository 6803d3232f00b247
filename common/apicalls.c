/* apicalls.c - see apicalls.h. */
#include "apicalls.h"

#include <string.h>

static int starts(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* name is base itself, or base followed by a version or stream suffix ("_v2", "_v3020",
 * "_ptsz", "_ptds_v7000"): not a longer name that merely begins like it. */
static int named(const char *name, const char *base)
{
    size_t n = strlen(base);
    return !strncmp(name, base, n) && (name[n] == '\0' || name[n] == '_');
}

/* Forbidden by every lab's contract, with the reason; matched as prefixes. */
static const struct {
    const char *prefix, *why;
} forbidden[] = {
    {"cudaMalloc", "it allocates"},
    {"cudaFree", "it frees memory"},
    {"cudaHostAlloc", "it allocates"},
    {"cudaHostRegister", "it pins host memory"},
    {"cudaMemcpy", "it copies"},
    {"cudaMemset", "it writes memory outside a kernel"},
    {"cudaMemPrefetch", "it moves memory"},
    {"cudaMemAdvise", "it moves memory"},
    {"cudaMemPool", "it allocates"},
    {"cudaDeviceSynchronize", "it synchronises"},
    {"cudaThreadSynchronize", "it synchronises"},
    {"cudaStreamSynchronize", "it synchronises"},
    {"cudaEventSynchronize", "it synchronises"},
    {"cudaStreamWaitEvent", "it orders streams"},
    {"cudaStreamCreate", "it makes another stream"},
    {"cudaStreamBeginCapture", "it captures a graph"},
    {"cudaGraph", "it uses graphs"},
    {"cudaLaunchCooperativeKernel", "it launches cooperatively"},
    {"cudaLaunchHostFunc", "it runs host code on a stream"},
    {"cudaCreateTextureObject", "it reads through a texture"},
    {"cudaCreateSurfaceObject", "it writes through a surface"},
    {"cudaBindTexture", "it reads through a texture"},
    {"cudaDeviceReset", "it resets the device"},
    {"cudaIpc", "it shares memory between processes"},
    {"cuMemAlloc", "it allocates"},
    {"cuMemFree", "it frees memory"},
    {"cuMemHostAlloc", "it allocates"},
    {"cuMemHostRegister", "it pins host memory"},
    {"cuMemcpy", "it copies"},
    {"cuMemset", "it writes memory outside a kernel"},
    {"cuMemPrefetch", "it moves memory"},
    {"cuMemAdvise", "it moves memory"},
    {"cuMemMap", "it maps memory"},
    {"cuMemCreate", "it allocates"},
    {"cuMemAddressReserve", "it maps memory"},
    {"cuMemPool", "it allocates"},
    {"cuStreamCreate", "it makes another stream"},
    {"cuStreamSynchronize", "it synchronises"},
    {"cuStreamWaitEvent", "it orders streams"},
    {"cuEventSynchronize", "it synchronises"},
    {"cuCtxSynchronize", "it synchronises"},
    {"cuCtxCreate", "it makes another context"},
    {"cuCtxDestroy", "it destroys a context"},
    {"cuDevicePrimaryCtxReset", "it resets the device"},
    {"cuStreamBeginCapture", "it captures a graph"},
    {"cuGraph", "it uses graphs"},
    {"cuLaunchCooperativeKernel", "it launches cooperatively"},
    {"cuLaunchHostFunc", "it runs host code on a stream"},
    {"cuLaunchGrid", "it launches the old way"},
    {"cuTexObjectCreate", "it reads through a texture"},
    {"cuSurfObjectCreate", "it writes through a surface"},
    {"cuTexRef", "it reads through a texture"},
    {"cuIpc", "it shares memory between processes"},
};

ac_kind ac_classify(const char *name)
{
    if (named(name, "cuLaunchKernel") || named(name, "cuLaunchKernelEx"))
        return AC_LAUNCH;
    if (named(name, "cudaLaunchKernel"))
        return AC_RT_LAUNCH;
    if (named(name, "cudaMemcpy") || named(name, "cudaMemcpyAsync") ||
        named(name, "cudaMemcpy2D") || named(name, "cudaMemcpy2DAsync") ||
        named(name, "cuMemcpy") || named(name, "cuMemcpyAsync") || named(name, "cuMemcpyDtoD") ||
        named(name, "cuMemcpyDtoDAsync"))
        return AC_COPY;
    if (named(name, "cudaMemset") || named(name, "cudaMemsetAsync") ||
        named(name, "cudaMemset2D") || named(name, "cudaMemset2DAsync"))
        return AC_MEMSET;
    for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; ++i)
        if (starts(name, forbidden[i].prefix))
            return AC_FORBIDDEN;
    return AC_OTHER;
}

const char *ac_why(const char *name)
{
    for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; ++i)
        if (starts(name, forbidden[i].prefix))
            return forbidden[i].why;
    return "the contract forbids it";
}

const char *ac_transfer_refused(int copy, int into_input, int from_input, int copies_allowed,
                                int after_kernel)
{
    if (into_input)
        return "to write an input, which no launcher may change";
    if (!copy || copies_allowed)
        return NULL;
    if (from_input)
        return "to copy from an input: in this lab the kernels must read the inputs (a copy "
               "moves bytes that no engine measures)";
    if (after_kernel)
        return "after a kernel: in this lab a copy may only prepare an output before the kernels "
               "run, never move what they wrote";
    return NULL;
}
