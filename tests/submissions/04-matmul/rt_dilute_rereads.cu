// Mutant (hostile, red team B): a strided tile copy diluted with cheap coalesced re-reads.
// expect: FAIL
// expect-stage: coalescing
//
// What it does: 32 x 32 tiles, A's tile copied down A's columns (lanes k floats apart: 32
// sectors for 4 useful bytes), B's the right way; then each warp reads its row of B's tile 64
// more times, each lane another word of it each time (no load repeats another, so none can be
// dropped; their sum is added times 0, which changes nothing). Every re-read is a whole warp on
// the row's 128 bytes: 4 sectors, 100%, an L1 hit. Per request, (4 + 4 + 64 * 4) ideal sectors
// in (32 + 4 + 64 * 4) moved: 0.904, over the 0.90 bar. Labs 04 and 05 weighed no waste
// against the task before (their load share was 0), so nothing else looked.
// Rule attacked: rule 1 (yardstick = the task: cheap coalesced re-reads can only lower it).
// Must get: FAIL, coalescing (loads): the re-reads are sectors the task never needed; against a
// 16x16-tiled kernel's traffic the loads' task efficiency is a few percent.
#include "lab04.h"

#define TILE 32
#define REREADS 64

__global__ void matmul_diluted(const float *a, const float *b, float *c, int m, int n, int k)
{
    __shared__ float as[TILE][TILE + 1];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
    int row = row0 + ty, col = col0 + tx;
    float sum = 0.0f, extra = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        as[tx][ty] = row0 + tx < m && t + ty < k ? a[(size_t)(row0 + tx) * k + t + ty] : 0.0f;
        bs[ty][tx] = t + ty < k && col < n ? b[(size_t)(t + ty) * n + col] : 0.0f;
        const float *brow = b + (size_t)(t + ty) * n + col0;
        if (t + ty < k && col0 + TILE <= n)
            for (int r = 1; r <= REREADS; ++r)
                extra += brow[(tx + r) % TILE];
        __syncthreads();
        for (int i = 0; i < TILE; ++i)
            sum += as[ty][i] * bs[i][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum + extra * 0.0f; /* extra is finite: adds (-)0 */
}

extern "C" cudaError_t lab04_matmul(const float *a, const float *b, float *c, int m, int n, int k)
{
    dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (m + TILE - 1) / TILE);
    matmul_diluted<<<grid, block>>>(a, b, c, m, n, k);
    return cudaGetLastError();
}
