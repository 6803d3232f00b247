/* cublas.c - see cublas.h. The four entry points are declared here as cuBLAS's headers declare
 * them (cublas_api.h, CUDA 12 and 13), so no header of the library is needed to build. */
#define _GNU_SOURCE
#include "cublas.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef void *cublas_handle;
typedef int (*create_fn)(cublas_handle *);
typedef int (*destroy_fn)(cublas_handle);
typedef int (*sgemm_fn)(cublas_handle, int transa, int transb, int m, int n, int k,
                        const float *alpha, const float *a, int lda, const float *b, int ldb,
                        const float *beta, float *c, int ldc);
enum { OP_N = 0, OP_T = 1 };

struct wk_cublas {
    void *lib;
    const char *name;
    cublas_handle handle;
    destroy_fn destroy;
    sgemm_fn sgemm;
};

int wk_cublas_open(wk_cublas **h, char *why, size_t why_size)
{
    static const char *const names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
    *h = NULL;
    wk_cublas *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    for (size_t i = 0; !c->lib && i < sizeof names / sizeof names[0]; ++i)
        if ((c->lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL)))
            c->name = names[i];
    if (!c->lib) {
        snprintf(why, why_size, "not found (libcublas.so.13, .12)");
        free(c);
        return -1;
    }
    create_fn create = (create_fn)dlsym(c->lib, "cublasCreate_v2");
    c->destroy = (destroy_fn)dlsym(c->lib, "cublasDestroy_v2");
    c->sgemm = (sgemm_fn)dlsym(c->lib, "cublasSgemm_v2");
    int status = -1;
    if (!create || !c->destroy || !c->sgemm || (status = create(&c->handle)) != 0) {
        snprintf(why, why_size, "%s: %s", c->name,
                 create && c->destroy && c->sgemm ? "cublasCreate failed" : "no cublasSgemm_v2");
        dlclose(c->lib);
        free(c);
        return -1;
    }
    *h = c;
    return 0;
}

const char *wk_cublas_name(const wk_cublas *h)
{
    return h ? h->name : "";
}

cudaError_t wk_cublas_sgemm(wk_cublas *h, int a_transposed, const float *a, const float *b,
                            float *c, int m, int n, int k)
{
    /* cuBLAS is column-major: a row-major matrix is its transpose there. Row-major C = op(A) B is
     * column-major C^T = B^T op(A)^T: B as stored (n x k, leading dimension n), and A as stored
     * (k x m, leading dimension k) or, stored k x m, transposed (leading dimension m). */
    const float one = 1.0f, zero = 0.0f;
    int status = h->sgemm(h->handle, OP_N, a_transposed ? OP_T : OP_N, n, m, k, &one, b, n, a,
                          a_transposed ? m : k, &zero, c, n);
    return status == 0 ? cudaGetLastError() : cudaErrorUnknown;
}

double wk_relative_difference(const float *x, const float *y, size_t n)
{
    float *hx = malloc(n * sizeof *hx), *hy = malloc(n * sizeof *hy);
    double worst = -1, largest = 0;
    if (hx && hy && cudaMemcpy(hx, x, n * sizeof *hx, cudaMemcpyDeviceToHost) == cudaSuccess &&
        cudaMemcpy(hy, y, n * sizeof *hy, cudaMemcpyDeviceToHost) == cudaSuccess) {
        worst = 0;
        for (size_t i = 0; i < n; ++i) {
            double d = fabs((double)hx[i] - hy[i]);
            worst = d > worst || isnan(d) ? d : worst;
            largest = fabs(hy[i]) > largest ? fabs(hy[i]) : largest;
        }
        worst = largest > 0 ? worst / largest : worst;
    }
    free(hx);
    free(hy);
    return worst;
}

void wk_cublas_note(const wk_cublas *h, const char *why, const char *what, double difference)
{
    if (h)
        printf("cublas: %s, plain FP32; its %s within %.1e of the largest value\n", h->name, what,
               difference);
    else
        printf("cublas: %s: no row\n", why);
}

void wk_cublas_close(wk_cublas *h)
{
    if (!h)
        return;
    h->destroy(h->handle);
    dlclose(h->lib);
    free(h);
}
