// A hostile neighbour for tests/gpu/neighbours.sh (lab 01): a correct, coalesced kernel and a
// launcher that, once it has launched it the first time, sleeps 45 s, past a 30 s limit. Alone
// it times out: FAIL. Beside others it must get the same verdict, and hold up nobody's
// measurements while it sleeps.
#include <unistd.h>
#include "lab01.h"

__global__ void scale(float a, const float *x, float *y, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = a * x[i];
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    static int slept;
    scale<<<1056, 256>>>(a, x, y, n);
    cudaError_t err = cudaGetLastError();
    if (!slept++)
        sleep(45);
    return err;
}
