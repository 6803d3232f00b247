/* replay.c - see replay.h. The driver functions come through the runtime's entry points
 * (wk_driver_function), so the worker links no libcuda. */
#define _POSIX_C_SOURCE 200809L
#include "replay.h"

#include "worker.h"

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef CUresult (*load_fn)(CUmodule *, const void *);
typedef CUresult (*unload_fn)(CUmodule);
typedef CUresult (*get_function_fn)(CUfunction *, CUmodule, const char *);
typedef CUresult (*set_attribute_fn)(CUfunction, CUfunction_attribute, int);
typedef CUresult (*get_attribute_fn)(int *, CUfunction_attribute, CUfunction);
typedef CUresult (*launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                              unsigned, unsigned, CUstream, void **, void **);
typedef CUresult (*error_name_fn)(CUresult, const char **);

struct rp_replay {
    const wi_record *rec;
    uint64_t bases[WI_MAX_BUFFERS];
    void *image;
    CUmodule module;
    CUfunction fn[WI_MAX_OPS];
    unsigned char params[WI_MAX_OPS][WI_MAX_PARAM_BYTES];
    void *args[WI_MAX_OPS][WI_MAX_PARAMS];
    /* Launches of one kernel with different attributes (or shared memory): each sets its own
     * before it runs; the others are set once, as the module is loaded. */
    int varying[WI_MAX_OPS];
    load_fn load;
    unload_fn unload;
    get_function_fn get_function;
    set_attribute_fn set_attribute;
    get_attribute_fn get_attribute;
    launch_fn launch;
    error_name_fn error_name;
};

static const char *error_text(const rp_replay *r, CUresult e)
{
    const char *s = NULL;
    if (r->error_name)
        r->error_name(e, &s);
    return s ? s : "an unknown driver error";
}

static void *read_image(const char *path, char *why, size_t why_size)
{
    FILE *f = fopen(path, "rb");
    long size = -1;
    if (f && fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    void *buf = size > 0 && size < (64L << 20) ? malloc((size_t)size) : NULL;
    if (!f || !buf || fseek(f, 0, SEEK_SET) != 0 ||
        fread(buf, 1, (size_t)size, f) != (size_t)size) {
        snprintf(why, why_size, "cannot read the kernel's device code '%s'", path);
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    return buf;
}

/* Gives launch i's function the attributes the recorded launch ran under (what the launcher
 * set with cudaFuncSetAttribute): its limit on dynamic shared memory, at least what the launch
 * asks for (static and dynamic shared memory over 48 KiB need it raised), and its preferred
 * carveout where the record has one. Each is set only where the function's differs. Returns 0,
 * or -1 with why. */
static int set_attributes(const rp_replay *r, uint32_t i, char *why, size_t why_size)
{
    const wi_op *op = &r->rec->ops[i];
    const CUfunction_attribute most_id = CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                               carve_id = CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT;
    int now = 0;
    CUresult e = r->get_attribute(&now, most_id, r->fn[i]);
    if (e != CUDA_SUCCESS) {
        snprintf(why, why_size,
                 "cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) of kernel "
                 "'%.300s': %s",
                 op->kernel, error_text(r, e));
        return -1;
    }
    int64_t want = op->max_dynamic_shared >= 0 ? op->max_dynamic_shared : now;
    if (want < (int64_t)op->shared_bytes)
        want = op->shared_bytes; /* the recorded launch had them: its function allowed them */
    if (want > INT32_MAX) {
        snprintf(why, why_size, "kernel '%.300s' asks for %lld bytes of dynamic shared memory",
                 op->kernel, (long long)want);
        return -1;
    }
    if (want != now && (e = r->set_attribute(r->fn[i], most_id, (int)want)) != CUDA_SUCCESS) {
        snprintf(why, why_size,
                 "kernel '%.300s' cannot have %lld bytes of dynamic shared memory "
                 "(cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)): %s",
                 op->kernel, (long long)want, error_text(r, e));
        return -1;
    }
    if (op->carveout < 0)
        return 0;
    if ((e = r->get_attribute(&now, carve_id, r->fn[i])) != CUDA_SUCCESS) {
        snprintf(why, why_size,
                 "cuFuncGetAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) of "
                 "kernel '%.300s': %s",
                 op->kernel, error_text(r, e));
        return -1;
    }
    if (now != op->carveout &&
        (e = r->set_attribute(r->fn[i], carve_id, op->carveout)) != CUDA_SUCCESS) {
        snprintf(why, why_size,
                 "kernel '%.300s' cannot have a shared-memory carveout of %d%% "
                 "(cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT)): %s",
                 op->kernel, op->carveout, error_text(r, e));
        return -1;
    }
    return 0;
}

/* Loads the module, finds every launched kernel in it and gives it its attributes. */
static int load_module(rp_replay *r, char *why, size_t why_size)
{
    CUresult e = r->load(&r->module, r->image);
    if (e != CUDA_SUCCESS) {
        snprintf(why, why_size, "cannot load the kernel's device code: %s", error_text(r, e));
        return -1;
    }
    for (uint32_t i = 0; i < r->rec->nops; ++i) {
        const wi_op *op = &r->rec->ops[i];
        if (op->kind != WI_OP_LAUNCH)
            continue;
        e = r->get_function(&r->fn[i], r->module, op->kernel);
        if (e != CUDA_SUCCESS) {
            snprintf(why, why_size,
                     "the launcher launched '%.300s', which is not a kernel of the submitted "
                     "kernel.cu (a library's, or one loaded some other way): only the "
                     "submission's own kernels are graded",
                     op->kernel);
            return -1;
        }
        if (set_attributes(r, i, why, why_size) != 0)
            return -1;
    }
    return 0;
}

/* Marks the launches whose kernel is launched elsewhere in the record with other attributes or
 * shared memory: they set theirs before each run (rp_run). */
static void find_varying(rp_replay *r)
{
    const wi_record *rec = r->rec;
    for (uint32_t i = 0; i < rec->nops; ++i) {
        const wi_op *a = &rec->ops[i];
        for (uint32_t j = 0; a->kind == WI_OP_LAUNCH && j < rec->nops && !r->varying[i]; ++j) {
            const wi_op *b = &rec->ops[j];
            r->varying[i] = b->kind == WI_OP_LAUNCH && !strcmp(a->kernel, b->kernel) &&
                            (a->max_dynamic_shared != b->max_dynamic_shared ||
                             a->carveout != b->carveout || a->shared_bytes != b->shared_bytes);
        }
    }
}

rp_replay *rp_open(const char *image_path, const wi_record *rec, const rl_buffer *b, uint32_t nb,
                   char *why, size_t why_size)
{
    if (nb != rec->nbuffers) {
        snprintf(why, why_size, "the record was made on %u buffers, this lab has %u", rec->nbuffers,
                 nb);
        return NULL;
    }
    for (uint32_t i = 0; i < nb; ++i)
        if (b[i].bytes != rec->buffers[i].bytes) {
            snprintf(why, why_size, "the record's buffer '%s' holds %llu bytes, this one %llu",
                     rec->buffers[i].name, (unsigned long long)rec->buffers[i].bytes,
                     (unsigned long long)b[i].bytes);
            return NULL;
        }
    rp_replay *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(why, why_size, "out of memory for the replay");
        return NULL;
    }
    r->rec = rec;
    for (uint32_t i = 0; i < nb; ++i)
        r->bases[i] = b[i].base;
    find_varying(r);
    if (wk_driver_function("cuModuleLoadData", (void **)&r->load, why, why_size) ||
        wk_driver_function("cuModuleUnload", (void **)&r->unload, why, why_size) ||
        wk_driver_function("cuModuleGetFunction", (void **)&r->get_function, why, why_size) ||
        wk_driver_function("cuFuncSetAttribute", (void **)&r->set_attribute, why, why_size) ||
        wk_driver_function("cuFuncGetAttribute", (void **)&r->get_attribute, why, why_size) ||
        wk_driver_function("cuLaunchKernel", (void **)&r->launch, why, why_size) ||
        wk_driver_function("cuGetErrorName", (void **)&r->error_name, why, why_size) ||
        !(r->image = read_image(image_path, why, why_size)) || load_module(r, why, why_size)) {
        rp_close(r);
        return NULL;
    }
    for (uint32_t i = 0; i < rec->nops; ++i) {
        const wi_op *op = &rec->ops[i];
        if (op->kind != WI_OP_LAUNCH)
            continue;
        memcpy(r->params[i], op->params, op->param_bytes);
        rl_apply(r->params[i], op->relocs, op->nrelocs, r->bases);
        for (uint32_t p = 0; p < op->nparams; ++p)
            r->args[i][p] = r->params[i] + op->param_offset[p];
    }
    return r;
}

static void *place_of(const rp_replay *r, uint32_t buffer, uint64_t delta)
{
    return (void *)(uintptr_t)(r->bases[buffer] + delta);
}

/* Replays copy or memset i of the record on the default stream; prints what failed. */
static cudaError_t run_transfer(const rp_replay *r, uint32_t i)
{
    const wi_op *op = &r->rec->ops[i];
    void *dst = place_of(r, op->dst_buffer, op->dst_delta);
    const char *call;
    cudaError_t err;
    if (op->kind == WI_OP_COPY) {
        const void *src = place_of(r, op->src_buffer, op->src_delta);
        call = op->height == 1 ? "cudaMemcpyAsync" : "cudaMemcpy2DAsync";
        err = op->height == 1 ? cudaMemcpyAsync(dst, src, op->width, cudaMemcpyDeviceToDevice, 0)
                              : cudaMemcpy2DAsync(dst, op->dst_pitch, src, op->src_pitch, op->width,
                                                  op->height, cudaMemcpyDeviceToDevice, 0);
    } else {
        call = op->height == 1 ? "cudaMemsetAsync" : "cudaMemset2DAsync";
        err = op->height == 1
                  ? cudaMemsetAsync(dst, (int)op->value, op->width, 0)
                  : cudaMemset2DAsync(dst, op->dst_pitch, (int)op->value, op->width, op->height, 0);
    }
    if (err != cudaSuccess)
        fprintf(
            stderr, "replaying operation %u of the record, %s of %llu rows of %llu bytes: %s: %s\n",
            i + 1, op->kind == WI_OP_COPY ? "a copy" : "a memset", (unsigned long long)op->height,
            (unsigned long long)op->width, call, cudaGetErrorString(err));
    return err;
}

cudaError_t rp_run(void *ctx)
{
    rp_replay *r = ctx;
    for (uint32_t i = 0; i < r->rec->nops; ++i) {
        const wi_op *op = &r->rec->ops[i];
        if (op->kind != WI_OP_LAUNCH) {
            cudaError_t err = run_transfer(r, i);
            if (err != cudaSuccess)
                return err;
            continue;
        }
        char why[512];
        if (r->varying[i] && set_attributes(r, i, why, sizeof why) != 0) {
            fprintf(stderr, "replaying launch %u of the record: %s\n", i + 1, why);
            return cudaErrorInvalidValue;
        }
        CUresult e =
            r->launch(r->fn[i], op->grid[0], op->grid[1], op->grid[2], op->block[0], op->block[1],
                      op->block[2], op->shared_bytes, NULL, r->args[i], NULL);
        if (e != CUDA_SUCCESS) {
            fprintf(stderr, "replaying launch %u of the record, kernel '%.300s': %s\n", i + 1,
                    op->kernel, error_text(r, e));
            return cudaErrorLaunchFailure;
        }
    }
    return cudaGetLastError();
}

cudaError_t rp_reload(void *ctx)
{
    rp_replay *r = ctx;
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess)
        return err;
    char why[512] = "the driver cannot unload it";
    if (r->unload(r->module) != CUDA_SUCCESS || load_module(r, why, sizeof why) != 0) {
        fprintf(stderr, "reloading the kernel's device code: %s\n", why);
        return cudaErrorInvalidKernelImage;
    }
    return cudaSuccess;
}

void rp_close(rp_replay *r)
{
    if (!r)
        return;
    if (r->module && r->unload)
        r->unload(r->module);
    free(r->image);
    free(r);
}

void rp_close_keeping(rp_replay *r, rp_kept *kept)
{
    if (r && kept->n < RP_MAX_KEPT)
        kept->replay[kept->n++] = r;
    else
        rp_close(r);
}

void rp_unload_kept(rp_kept *kept)
{
    for (unsigned i = 0; i < kept->n; ++i)
        rp_close(kept->replay[i]);
    kept->n = 0;
}
