// Mutant (hostile): kernel.cu's scale_chunked is a decoy, coalesced and writing zeros; the
// launcher loads a correct kernel of the same (mangled) name from PTX held in its host code
// (cuModuleLoadData, the driver found with dlsym, no link flag) and launches that one instead.
// The replays run the kernels of the compiled kernel.cu, the decoy among them: must fail on
// correctness (its own run was right, the replay is not), or be refused for loading a module.
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include "lab01.h"

// The decoy: what the grader compiles, and replays under the launched kernel's name.
__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    (void)a;
    (void)x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 0.0f;
}

// y[i] = a * x[i], a thread per element, under the decoy's name: void scale_chunked(float,
// const float *, float *, size_t).
static const char ptx[] = ".version 7.0\n"
                          ".target sm_70\n"
                          ".address_size 64\n"
                          ".visible .entry _Z13scale_chunkedfPKfPfm(.param .f32 pa, .param .u64 "
                          "px, .param .u64 py, .param .u64 pn)\n"
                          "{\n"
                          "    .reg .pred %p;\n"
                          "    .reg .f32 %f<3>;\n"
                          "    .reg .b32 %r<4>;\n"
                          "    .reg .b64 %rd<9>;\n"
                          "    ld.param.f32 %f0, [pa];\n"
                          "    ld.param.u64 %rd0, [px];\n"
                          "    ld.param.u64 %rd1, [py];\n"
                          "    ld.param.u64 %rd2, [pn];\n"
                          "    mov.u32 %r0, %ctaid.x;\n"
                          "    mov.u32 %r1, %ntid.x;\n"
                          "    mov.u32 %r2, %tid.x;\n"
                          "    mul.wide.u32 %rd3, %r0, %r1;\n"
                          "    cvt.u64.u32 %rd4, %r2;\n"
                          "    add.u64 %rd3, %rd3, %rd4;\n"
                          "    setp.ge.u64 %p, %rd3, %rd2;\n"
                          "    @%p bra DONE;\n"
                          "    cvta.to.global.u64 %rd0, %rd0;\n"
                          "    cvta.to.global.u64 %rd1, %rd1;\n"
                          "    shl.b64 %rd5, %rd3, 2;\n"
                          "    add.u64 %rd6, %rd0, %rd5;\n"
                          "    add.u64 %rd7, %rd1, %rd5;\n"
                          "    ld.global.f32 %f1, [%rd6];\n"
                          "    mul.rn.f32 %f2, %f1, %f0;\n"
                          "    st.global.f32 [%rd7], %f2;\n"
                          "DONE:\n"
                          "    ret;\n"
                          "}\n";

typedef CUresult (*load_fn)(CUmodule *, const void *);
typedef CUresult (*get_fn)(CUfunction *, CUmodule, const char *);
typedef CUresult (*launch_fn)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
                              unsigned, unsigned, CUstream, void **, void **);

// The real kernel, loaded once into the runtime's (current) context.
static CUfunction real_kernel(launch_fn *launch)
{
    static CUfunction f;
    static launch_fn go;
    if (!f) {
        void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        if (!cuda)
            cuda = dlopen("libcuda.so.1", RTLD_NOW);
        load_fn load = cuda ? (load_fn)dlsym(cuda, "cuModuleLoadData") : NULL;
        get_fn get = cuda ? (get_fn)dlsym(cuda, "cuModuleGetFunction") : NULL;
        go = cuda ? (launch_fn)dlsym(cuda, "cuLaunchKernel") : NULL;
        CUmodule m;
        if (!load || !get || !go || load(&m, ptx) != CUDA_SUCCESS ||
            get(&f, m, "_Z13scale_chunkedfPKfPfm") != CUDA_SUCCESS) {
            fprintf(stderr, "hostile: cannot load the PTX kernel\n");
            f = NULL;
        }
    }
    *launch = go;
    return f;
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    const unsigned threads = 256;
    unsigned blocks = (unsigned)((n + threads - 1) / threads);
    launch_fn launch = NULL;
    CUfunction f = real_kernel(&launch);
    if (!f)
        return cudaErrorInvalidDeviceFunction;
    void *params[] = {&a, &x, &y, &n};
    if (launch(f, blocks, 1, 1, threads, 1, 1, 0, NULL, params, NULL) != CUDA_SUCCESS)
        return cudaErrorLaunchFailure;
    return cudaGetLastError();
}
