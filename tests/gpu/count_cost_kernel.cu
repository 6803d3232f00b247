// The kernel count_cost.cu counts: a grid-stride copy, loaded from its fatbin.
extern "C" __global__ void copy(float *dst, const float *src, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}

// A second kernel of the same module: what CUPTI's SASS metrics API patches of a module whose
// kernels are launched one after another.
extern "C" __global__ void copy_back(float *dst, const float *src, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        dst[i] = src[i];
}
