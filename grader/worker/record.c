/*
 * record.c - see record.h. One recording at a time, in the grading child that runs the
 * student's host code. The driver functions it needs for names and parameter layouts are
 * taken through the runtime's entry points (wk_driver_function), so the worker links no libcuda
 * and still starts (to say "no GPU") where there is no driver.
 */
#define _POSIX_C_SOURCE 200809L
#include "record.h"

#include "worker.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cupti.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

typedef CUresult (*name_fn)(const char **, void *);
typedef CUresult (*param_fn)(void *, size_t, size_t *, size_t *);
typedef CUresult (*func_attr_fn)(int *, CUfunction_attribute, CUfunction);
typedef CUresult (*kernel_attr_fn)(int *, CUfunction_attribute, CUkernel, CUdevice);
typedef CUresult (*kernel_function_fn)(CUfunction *, CUkernel);
typedef CUresult (*ctx_device_fn)(CUdevice *);

static struct {
    wi_record *rec;
    rl_buffer buffers[WI_MAX_BUFFERS];
    uint32_t nbuffers;
    int allow_copies;
    int active;
    int depth;     /* runtime calls in progress: their driver calls are the runtime's own */
    ac_kind outer; /* what the outermost of them is */
    int busy;      /* the recorder's own driver queries, which CUPTI reports too */
    CUpti_SubscriberHandle subscriber;
    name_fn func_name, kernel_name;
    param_fn func_param, kernel_param;
    func_attr_fn func_attr;
    kernel_attr_fn kernel_attr;
    kernel_function_fn kernel_function;
    ctx_device_fn ctx_device;
} rc;

/* Notes the first thing the launcher did that it may not; later ones add nothing. */
static void refuse(const char *fmt, ...)
{
    if (rc.rec->refused[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rc.rec->refused, sizeof rc.rec->refused, fmt, ap);
    va_end(ap);
}

static int default_stream(const void *stream)
{
    /* 0, cudaStreamLegacy / CU_STREAM_LEGACY, cudaStreamPerThread / CU_STREAM_PER_THREAD */
    return (uintptr_t)stream <= 2;
}

static wi_op *new_op(void)
{
    if (rc.rec->nops == WI_MAX_OPS) {
        refuse("it launched more than %d kernels and copies", WI_MAX_OPS);
        return NULL;
    }
    wi_op *op = &rc.rec->ops[rc.rec->nops++];
    memset(op, 0, sizeof *op);
    return op;
}

/* The attributes of f (a CUkernel where is_kernel) that a replay must set again on its own
 * function: the most dynamic shared memory a launch may ask for (which cudaFuncSetAttribute
 * raises above 48 KiB less the static shared memory) and the preferred carveout; -1 where the
 * driver does not say. A CUkernel's attributes are its own (cuKernelSetAttribute's) unless
 * cuFuncSetAttribute set them on its function in this context, which overrides them: both are
 * read, and the larger limit (the one the launch ran under) and the function's carveout taken. */
static void read_attributes(CUfunction f, int is_kernel, wi_op *op)
{
    const CUfunction_attribute most_id = CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               carve_id = CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT;
    int most = -1, carve = -1, v;
    CUfunction fn = is_kernel ? NULL : f;
    CUdevice dev;
    if (is_kernel && rc.ctx_device(&dev) == CUDA_SUCCESS) {
        if (rc.kernel_attr(&v, most_id, (CUkernel)f, dev) == CUDA_SUCCESS)
            most = v;
        if (rc.kernel_attr(&v, carve_id, (CUkernel)f, dev) == CUDA_SUCCESS)
            carve = v;
    }
    if (is_kernel && rc.kernel_function(&fn, (CUkernel)f) != CUDA_SUCCESS)
        fn = NULL;
    if (fn && rc.func_attr(&v, most_id, fn) == CUDA_SUCCESS && v > most)
        most = v;
    if (fn && rc.func_attr(&v, carve_id, fn) == CUDA_SUCCESS && v >= 0)
        carve = v;
    op->max_dynamic_shared = most;
    op->carveout = carve >= 0 && carve <= 100 ? carve : -1;
}

/* The kernel's name and parameter layout, whether f is a CUfunction or (as the runtime's
 * launches hand it over) a CUkernel. Returns 0, -1 when the driver cannot name it, or -2 when
 * its name is longer than a record carries (it is then refused, never cut: a cut name names no
 * kernel of the replayed module). */
static int describe_kernel(CUfunction f, wi_op *op)
{
    const char *name = NULL;
    int is_kernel = 0;
    rc.busy = 1;
    if (rc.func_name((const char **)&name, f) != CUDA_SUCCESS || !name) {
        is_kernel = 1;
        if (rc.kernel_name((const char **)&name, f) != CUDA_SUCCESS)
            name = NULL;
    }
    if (name && strlen(name) >= sizeof op->kernel) {
        snprintf(op->kernel, sizeof op->kernel, "%.200s...", name);
        rc.busy = 0;
        return -2;
    }
    if (name)
        snprintf(op->kernel, sizeof op->kernel, "%s", name);
    param_fn info = is_kernel ? rc.kernel_param : rc.func_param;
    for (size_t i = 0; name && i < WI_MAX_PARAMS; ++i) {
        size_t off = 0, size = 0;
        if (info(f, i, &off, &size) != CUDA_SUCCESS)
            break;
        op->param_offset[op->nparams] = (uint32_t)off;
        op->param_size[op->nparams] = (uint32_t)size;
        op->nparams++;
    }
    if (name)
        read_attributes(f, is_kernel, op);
    rc.busy = 0;
    return name ? 0 : -1;
}

static void record_launch(CUfunction f, const unsigned grid[3], const unsigned block[3],
                          unsigned shared, void **params, void **extra)
{
    wi_op *op = new_op();
    if (!op)
        return;
    op->kind = WI_OP_LAUNCH;
    memcpy(op->grid, grid, sizeof op->grid);
    memcpy(op->block, block, sizeof op->block);
    op->shared_bytes = shared;
    if (!params && extra) {
        refuse("it passed kernel parameters through 'extra', which the grader cannot replay");
        return;
    }
    int described = describe_kernel(f, op);
    if (described == -2) {
        refuse("it launched kernel '%s', whose name is longer than the %d characters the grader "
               "carries",
               op->kernel, WI_MAX_KERNEL_NAME - 1);
        return;
    }
    if (described != 0) {
        refuse("it launched a kernel the driver cannot name");
        return;
    }
    for (uint32_t i = 0; i < op->nparams; ++i) {
        uint32_t off = op->param_offset[i], size = op->param_size[i];
        if (off > WI_MAX_PARAM_BYTES || size > WI_MAX_PARAM_BYTES - off || !params[i]) {
            refuse("kernel '%.200s' takes more than %d bytes of parameters", op->kernel,
                   WI_MAX_PARAM_BYTES);
            return;
        }
        memcpy(op->params + off, params[i], size);
        if (off + size > op->param_bytes)
            op->param_bytes = off + size;
    }
    if (rl_find(rc.buffers, rc.nbuffers, op->params, op->param_offset, op->param_size, op->nparams,
                op->relocs, WI_MAX_RELOCS, &op->nrelocs) != 0)
        refuse("kernel '%.200s' takes more than %d pointers", op->kernel, WI_MAX_RELOCS);
}

static int is_input(uint32_t buffer)
{
    return buffer < rc.rec->nbuffers && rc.rec->buffers[buffer].input;
}

static int launched(void)
{
    for (uint32_t i = 0; i < rc.rec->nops; ++i)
        if (rc.rec->ops[i].kind == WI_OP_LAUNCH)
            return 1;
    return 0;
}

/* Places the span of a copy or memset (height rows of width bytes, pitch apart) that starts at
 * addr inside one of the lab's buffers: 0, or -1 where it does not lie inside one. */
static int place(uint64_t addr, uint64_t pitch, const wi_op *op, uint32_t *buffer, uint64_t *delta)
{
    if (rl_locate(rc.buffers, rc.nbuffers, addr, buffer, delta) != 0)
        return -1;
    return wi_span_fits(rc.buffers[*buffer].bytes, *delta, pitch, op->width, op->height) ? 0 : -1;
}

static void add_op(const wi_op *op)
{
    wi_op *slot = new_op();
    if (slot)
        *slot = *op;
}

/* A device-to-device copy of height rows of width bytes (one row: a linear copy), between the
 * lab's buffers, where ac_transfer_refused allows it. */
static void record_copy(const char *name, uint64_t dst, uint64_t dpitch, uint64_t src,
                        uint64_t spitch, uint64_t width, uint64_t height)
{
    if (width == 0 || height == 0)
        return; /* it copies nothing */
    wi_op op = {.kind = WI_OP_COPY, .width = width, .height = height};
    op.dst_pitch = height == 1 ? width : dpitch;
    op.src_pitch = height == 1 ? width : spitch;
    if (place(dst, op.dst_pitch, &op, &op.dst_buffer, &op.dst_delta) != 0 ||
        place(src, op.src_pitch, &op, &op.src_buffer, &op.src_delta) != 0) {
        refuse("it called %s: a copy that is not between the lab's device buffers", name);
        return;
    }
    const char *why = ac_transfer_refused(1, is_input(op.dst_buffer), is_input(op.src_buffer),
                                          rc.allow_copies, launched());
    if (why)
        refuse("it called %s %s", name, why);
    else
        add_op(&op);
}

/* A memset of height rows of width bytes to value (one row: a linear memset), inside the lab's
 * buffers, where ac_transfer_refused allows it. */
static void record_memset(const char *name, uint64_t dst, uint64_t pitch, int value, uint64_t width,
                          uint64_t height)
{
    if (width == 0 || height == 0)
        return; /* it writes nothing */
    wi_op op = {.kind = WI_OP_MEMSET, .width = width, .height = height};
    op.dst_pitch = height == 1 ? width : pitch;
    op.value = (uint32_t)value & 0xff; /* the runtime writes value as an unsigned char */
    if (place(dst, op.dst_pitch, &op, &op.dst_buffer, &op.dst_delta) != 0) {
        refuse("it called %s on memory that is not one of the lab's device buffers", name);
        return;
    }
    const char *why = ac_transfer_refused(0, is_input(op.dst_buffer), 0, rc.allow_copies, 0);
    if (why)
        refuse("it called %s %s", name, why);
    else
        add_op(&op);
}

static uint64_t address(const void *p)
{
    return (uint64_t)(uintptr_t)p;
}

static int starts_with(const char *s, const char *prefix)
{
    return !strncmp(s, prefix, strlen(prefix));
}

/* An asynchronous copy or memset must be on the default stream, as the launches are: 0 when it
 * is (or the call takes no stream). */
static int check_stream(const char *name, const void *stream)
{
    if (!strstr(name, "Async") || default_stream(stream))
        return 0;
    refuse("it called %s on a stream of its own; the contract asks for the default stream", name);
    return -1;
}

/* The runtime's copies (apicalls.h's AC_COPY): cudaMemcpy, cudaMemcpyAsync, cudaMemcpy2D and
 * cudaMemcpy2DAsync, each variant's parameters as CUPTI's structures lay them out (the _ptsz
 * and _ptds variants alike). */
static void runtime_copy(const char *name, const void *params)
{
    int two_d = starts_with(name, "cudaMemcpy2D"), async = strstr(name, "Async") != NULL;
    enum cudaMemcpyKind kind;
    const void *stream = NULL;
    if (two_d) {
        const cudaMemcpy2DAsync_v3020_params *p = params; /* the sync one lacks only the stream */
        kind = p->kind;
        stream = async ? p->stream : NULL;
        if ((kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault) &&
            check_stream(name, stream) == 0)
            record_copy(name, address(p->dst), p->dpitch, address(p->src), p->spitch, p->width,
                        p->height);
    } else {
        const cudaMemcpyAsync_v3020_params *p = params; /* cudaMemcpy's lacks only the stream */
        kind = p->kind;
        stream = async ? p->stream : NULL;
        if ((kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault) &&
            check_stream(name, stream) == 0)
            record_copy(name, address(p->dst), p->count, address(p->src), p->count, p->count, 1);
    }
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        refuse("it called %s to copy to or from the host; the contract forbids it", name);
}

/* The runtime's memsets (AC_MEMSET): cudaMemset, cudaMemsetAsync, cudaMemset2D and
 * cudaMemset2DAsync. */
static void runtime_memset(const char *name, const void *params)
{
    int async = strstr(name, "Async") != NULL;
    if (starts_with(name, "cudaMemset2D")) {
        const cudaMemset2DAsync_v3020_params *p = params; /* the sync one lacks the stream */
        if (check_stream(name, async ? p->stream : NULL) == 0)
            record_memset(name, address(p->devPtr), p->pitch, p->value, p->width, p->height);
    } else {
        const cudaMemsetAsync_v3020_params *p = params; /* cudaMemset's lacks the stream */
        if (check_stream(name, async ? p->stream : NULL) == 0)
            record_memset(name, address(p->devPtr), p->count, p->value, p->count, 1);
    }
}

static void runtime_call(const char *name, const void *params)
{
    ac_kind k = ac_classify(name);
    if (rc.depth == 0)
        rc.outer = k;
    if (k == AC_RT_LAUNCH) {
        const cudaLaunchKernel_v7000_params *p = params;
        if (!default_stream(p->stream))
            refuse("it launched on a stream of its own; the contract asks for the default stream");
    } else if (k == AC_COPY) {
        runtime_copy(name, params);
    } else if (k == AC_MEMSET) {
        runtime_memset(name, params);
    } else if (k == AC_FORBIDDEN) {
        refuse("it called %s, and %s", name, ac_why(name));
    }
}

/* The first launch attribute of c that changes what a launch does or how fast it goes (and
 * that a replay would therefore have to repeat), or -1 when there is none. */
static int changing_attribute(const CUlaunchConfig *c)
{
    for (unsigned i = 0; c->attrs && i < c->numAttrs; ++i) {
        CUlaunchAttributeID id = c->attrs[i].id;
        if (id == CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW ||
            id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE || id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION ||
            id == CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE ||
            id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION ||
            id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT ||
            id == CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT)
            return (int)id;
    }
    return -1;
}

static void driver_call(const char *name, const void *params)
{
    ac_kind k = ac_classify(name);
    if (rc.depth > 0 && (rc.outer == AC_COPY || rc.outer == AC_MEMSET))
        return; /* a runtime copy's or memset's own work, were it a launch: judged by its name */
    if (k == AC_LAUNCH && !strncmp(name, "cuLaunchKernelEx", 16)) {
        const cuLaunchKernelEx_params *p = params;
        const CUlaunchConfig *c = p->config;
        unsigned grid[3] = {c->gridDimX, c->gridDimY, c->gridDimZ};
        unsigned block[3] = {c->blockDimX, c->blockDimY, c->blockDimZ};
        int attr = changing_attribute(c);
        if (attr >= 0)
            refuse("it launched with launch attribute %d (clusters, cooperation, programmatic "
                   "launches or an L2 access policy), which the grader does not replay",
                   attr);
        else if (rc.depth == 0 && !default_stream(c->hStream))
            refuse("it launched on a stream of its own; the contract asks for the default stream");
        record_launch(p->f, grid, block, c->sharedMemBytes, p->kernelParams, p->extra);
    } else if (k == AC_LAUNCH) {
        const cuLaunchKernel_params *p = params;
        unsigned grid[3] = {p->gridDimX, p->gridDimY, p->gridDimZ};
        unsigned block[3] = {p->blockDimX, p->blockDimY, p->blockDimZ};
        if (rc.depth == 0 && !default_stream(p->hStream))
            refuse("it launched on a stream of its own; the contract asks for the default stream");
        record_launch(p->f, grid, block, p->sharedMemBytes, p->kernelParams, p->extra);
    } else if (rc.depth > 0) {
        return; /* inside a runtime call, already judged by its name */
    } else if (k == AC_COPY) {
        /* cuMemcpy, cuMemcpyDtoD and their Async forms: dst, src and count lead, the stream
         * follows them (cuMemcpyAsync_params, cuMemcpyDtoDAsync_v2_params). */
        const cuMemcpyAsync_params *c = params;
        if (check_stream(name, strstr(name, "Async") ? (const void *)c->hStream : NULL) == 0)
            record_copy(name, c->dst, c->ByteCount, c->src, c->ByteCount, c->ByteCount, 1);
    } else if (k == AC_FORBIDDEN) {
        refuse("it called %s, and %s", name, ac_why(name));
    }
}

static void CUPTIAPI on_call(void *userdata, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                             const void *data)
{
    (void)userdata;
    (void)id;
    const CUpti_CallbackData *cd = data;
    if (!rc.active || rc.busy || !cd->functionName)
        return;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
        if (cd->callbackSite == CUPTI_API_EXIT) {
            rc.depth -= rc.depth > 0;
            return;
        }
        runtime_call(cd->functionName, cd->functionParams);
        rc.depth++;
    } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cd->callbackSite == CUPTI_API_ENTER) {
        driver_call(cd->functionName, cd->functionParams);
    }
}

int rc_begin(wi_record *rec, const rl_buffer *b, uint32_t nb, int allow_copies, char *why,
             size_t why_size)
{
    memset(&rc, 0, sizeof rc);
    rc.rec = rec;
    rc.nbuffers = nb < WI_MAX_BUFFERS ? nb : WI_MAX_BUFFERS;
    memcpy(rc.buffers, b, rc.nbuffers * sizeof *b);
    rc.allow_copies = allow_copies;
    if (wk_driver_function("cuFuncGetName", (void **)&rc.func_name, why, why_size) ||
        wk_driver_function("cuKernelGetName", (void **)&rc.kernel_name, why, why_size) ||
        wk_driver_function("cuFuncGetParamInfo", (void **)&rc.func_param, why, why_size) ||
        wk_driver_function("cuKernelGetParamInfo", (void **)&rc.kernel_param, why, why_size) ||
        wk_driver_function("cuFuncGetAttribute", (void **)&rc.func_attr, why, why_size) ||
        wk_driver_function("cuKernelGetAttribute", (void **)&rc.kernel_attr, why, why_size) ||
        wk_driver_function("cuKernelGetFunction", (void **)&rc.kernel_function, why, why_size) ||
        wk_driver_function("cuCtxGetDevice", (void **)&rc.ctx_device, why, why_size))
        return -1;
    CUptiResult r = cuptiSubscribe(&rc.subscriber, on_call, NULL);
    if (r == CUPTI_SUCCESS)
        r = cuptiEnableDomain(1, rc.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
    if (r == CUPTI_SUCCESS)
        r = cuptiEnableDomain(1, rc.subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    if (r != CUPTI_SUCCESS) {
        const char *s = NULL;
        cuptiGetResultString(r, &s);
        snprintf(why, why_size, "CUPTI cannot watch the launcher: %s", s ? s : "unknown error");
        return -1;
    }
    rc.active = 1;
    return 0;
}

void rc_end(void)
{
    rc.active = 0;
    if (rc.subscriber)
        cuptiUnsubscribe(rc.subscriber);
    rc.subscriber = NULL;
}
