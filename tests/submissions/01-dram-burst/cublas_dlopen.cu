// Mutant (hostile): lets a library do the work. A constructor dlopen()s cuBLAS (no link flag
// needed) and makes a handle; the launcher computes y = a * x with cublasScopy and cublasSscal
// on the default stream. Only the submission's own kernels are graded: must fail, the launched
// kernel named as not one of the submitted kernel.cu's (or the recording refusing a call cuBLAS
// makes). Where no cuBLAS can be loaded it prints HOSTILE-NO-CUBLAS and runs the stub's kernel.
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "lab01.h"

#define CHUNK 16

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (size_t i = first; i < first + CHUNK && i < n; ++i)
        y[i] = a * x[i];
}

// cuBLAS's v2 entry points, without its header: a handle is a pointer, a status an int.
typedef int (*create_fn)(void **handle);
typedef int (*copy_fn)(void *handle, int n, const float *x, int incx, float *y, int incy);
typedef int (*scal_fn)(void *handle, int n, const float *alpha, float *x, int incx);

static void *handle;
static copy_fn scopy;
static scal_fn sscal;

static void *open_cublas(void)
{
    static const char *const names[] = {"libcublas.so", "libcublas.so.13", "libcublas.so.12"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        void *lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (lib)
            return lib;
    }
    // Beside the CUDA runtime this process uses (the toolkit's lib folder).
    Dl_info info;
    if (!dladdr((void *)&cudaGetDevice, &info) || !info.dli_fname)
        return NULL;
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", info.dli_fname);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return NULL;
    *slash = '\0';
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (lib)
            return lib;
    }
    return NULL;
}

__attribute__((constructor)) static void make_a_handle(void)
{
    void *lib = open_cublas();
    create_fn create = lib ? (create_fn)dlsym(lib, "cublasCreate_v2") : NULL;
    scopy = lib ? (copy_fn)dlsym(lib, "cublasScopy_v2") : NULL;
    sscal = lib ? (scal_fn)dlsym(lib, "cublasSscal_v2") : NULL;
    if (!create || !scopy || !sscal || create(&handle) != 0) {
        const char *why = lib ? "no handle" : dlerror();
        handle = NULL;
        printf("HOSTILE-NO-CUBLAS: %s\n", why ? why : "not found");
        fflush(stdout);
    }
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    if (handle && n <= INT_MAX) {
        if (scopy(handle, (int)n, x, 1, y, 1) != 0 || sscal(handle, (int)n, &a, y, 1) != 0)
            return cudaErrorUnknown;
        return cudaGetLastError();
    }
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
