/*
 * patterns.cu - the access patterns of DESIGN's measured table, as grader-owned kernels, so
 * the engines can be checked against each other and against Nsight Compute on any GPU:
 *     grade-worker trace|counters|run --lab patterns ...   (tests/gpu/engines_agree.sh)
 * Each kernel reads with its pattern and writes coalesced, except where the name says.
 * extern "C" keeps the kernel names plain in every tool's output.
 */
#include <cuda_runtime.h>
#include <stddef.h>

struct s12 {
    float x, y, z;
};
struct s16 {
    float x, y, z, w;
};

#define INDEX size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x

extern "C" __global__ void pat_coalesced(const float *in, float *out, size_t n)
{
    INDEX;
    if (i < n)
        out[i] = in[i];
}
extern "C" __global__ void pat_stride2(const float *in, float *out, size_t n)
{
    INDEX;
    if (i < n)
        out[i] = in[2 * i];
}
extern "C" __global__ void pat_stride4(const float *in, float *out, size_t n)
{
    INDEX;
    if (i < n)
        out[i] = in[4 * i];
}
extern "C" __global__ void pat_stride8(const float *in, float *out, size_t n)
{
    INDEX;
    if (i < n)
        out[i] = in[8 * i];
}
extern "C" __global__ void pat_stride32(const float *in, float *out, size_t n)
{
    INDEX;
    if (i < n)
        out[i] = in[32 * i];
}
extern "C" __global__ void pat_float4(const float4 *in, float4 *out, size_t n4)
{
    INDEX;
    if (i < n4)
        out[i] = in[i];
}
extern "C" __global__ void pat_misaligned(const float *in, float *out, size_t n)
{
    INDEX;
    if (i < n)
        out[i] = in[i + 1];
}
extern "C" __global__ void pat_struct12_x(const s12 *in, float *out, size_t n)
{
    INDEX;
    if (i < n)
        out[i] = in[i].x;
}
extern "C" __global__ void pat_struct16_x(const s16 *in, float *out, size_t n)
{
    INDEX;
    if (i < n)
        out[i] = in[i].x;
}
extern "C" __global__ void pat_broadcast(const float *in, float *out, size_t n)
{
    INDEX;
    if (i < n)
        out[i] = in[blockIdx.x];
}
extern "C" __global__ void pat_halfwarp(const float *in, float *out, size_t n)
{
    INDEX;
    if (i < n && (threadIdx.x & 31) < 16)
        out[i] = in[i];
}
// Lab 01's stub: a thread owns 16 consecutive floats; loads and stores both stride 64 bytes.
extern "C" __global__ void pat_chunk16(const float *in, float *out, size_t n)
{
    INDEX;
    for (size_t k = 16 * i; k < 16 * i + 16 && k < n; ++k)
        out[k] = 2.0f * in[k];
}
// Naive matmul C = M N of w x w matrices; x on the column: M's element is a broadcast.
extern "C" __global__ void pat_matmul_xcol(const float *m, const float *nn, float *c, int w)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < w && col < w) {
        float s = 0.0f;
        for (int k = 0; k < w; ++k)
            s += m[row * w + k] * nn[k * w + col];
        c[row * w + col] = s;
    }
}
// The same with x on the row: every operand walks a column.
extern "C" __global__ void pat_matmul_xrow(const float *m, const float *nn, float *c, int w)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x, col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < w && col < w) {
        float s = 0.0f;
        for (int k = 0; k < w; ++k)
            s += m[row * w + k] * nn[k * w + col];
        c[row * w + col] = s;
    }
}

/* Launches every pattern once, in the order of pattern_names; in must hold 32 n floats (and
 * 2 w^2 for the matrices), out 2 n. */
extern "C" const char *const pattern_names[] = {
    "pat_coalesced", "pat_stride2",    "pat_stride4",     "pat_stride8",     "pat_stride32",
    "pat_float4",    "pat_misaligned", "pat_struct12_x",  "pat_struct16_x",  "pat_broadcast",
    "pat_halfwarp",  "pat_chunk16",    "pat_matmul_xcol", "pat_matmul_xrow", NULL};

extern "C" cudaError_t patterns_launch(const float *in, float *out, size_t n, int w)
{
    const unsigned t = 256, g = (unsigned)((n + t - 1) / t);
    pat_coalesced<<<g, t>>>(in, out, n);
    pat_stride2<<<g, t>>>(in, out, n);
    pat_stride4<<<g, t>>>(in, out, n);
    pat_stride8<<<g, t>>>(in, out, n);
    pat_stride32<<<g, t>>>(in, out, n);
    pat_float4<<<(unsigned)((n / 4 + t - 1) / t), t>>>((const float4 *)in, (float4 *)out, n / 4);
    pat_misaligned<<<g, t>>>(in, out, n);
    pat_struct12_x<<<g, t>>>((const s12 *)in, out, n);
    pat_struct16_x<<<g, t>>>((const s16 *)in, out, n);
    pat_broadcast<<<g, t>>>(in, out, n);
    pat_halfwarp<<<g, t>>>(in, out, n);
    pat_chunk16<<<(unsigned)((n / 16 + t - 1) / t), t>>>(in, out, n);
    dim3 block(32, 32), grid((w + 31) / 32, (w + 31) / 32);
    pat_matmul_xcol<<<grid, block>>>(in, in + (size_t)w * w, out, w);
    pat_matmul_xrow<<<grid, block>>>(in, in + (size_t)w * w, out, w);
    return cudaGetLastError();
}
