// Alternative solution: another layout, an array of structures of arrays. The particles are kept
// in tiles of 32, each tile 8 rows of 32 floats, one row per field: field f of particle i at
// work[(i / 32) * 256 + f * 32 + i % 32], which fills the same 8 * LAB06_PLANE(n) floats. A warp's
// particles are one tile, so each field it reads is 128 bytes on a 128-byte boundary, and a
// block's tiles are as contiguous in the work buffer as its structures are in aos. Must pass.
#include "lab06.h"

enum {
    FIELDS = 8,
    TILE = 32,                      // particles per tile
    TILE_WORDS = FIELDS * TILE,     // 256
    BLOCK = 256,                    // particles (and threads) per block of a conversion
    TILES_PER_BLOCK = BLOCK / TILE, // 8
    ROW = TILE + 4                  // a field's row in shared memory, padded (see below)
};

// Where field f of particle p of the block sits in shared memory: the tiles' rows, ROW words
// apart. Storing a run of structures, a warp writes 4 particles x 8 fields; with ROW = 36 the
// bank of (f, p) is (4 f + p) % 32, 32 different banks. Reading a row back is 32 consecutive words.
__device__ static int staged(int p, int f)
{
    return (p / TILE * FIELDS + f) * ROW + p % TILE;
}

// A block converts BLOCK particles. Their structures, BLOCK * 8 consecutive words of aos, are
// read with consecutive threads on consecutive words; their tiles, BLOCK * 8 consecutive words of
// work starting at word first * 8, are written the same way. Shared memory regroups the words
// between the two. In the last tile, the words of particles past n are neither read nor written.
__global__ void pack_tiles(const float *aos, float *work, int n)
{
    __shared__ float stage[TILES_PER_BLOCK * FIELDS * ROW];
    size_t first = (size_t)blockIdx.x * BLOCK;
    int count = (int)((size_t)n - first < BLOCK ? (size_t)n - first : BLOCK);
    const float *src = aos + first * FIELDS;
    for (int j = threadIdx.x; j < count * FIELDS; j += BLOCK)
        stage[staged(j / FIELDS, j % FIELDS)] = src[j];
    __syncthreads();
    float *dst = work + first * FIELDS;
    for (int s = threadIdx.x; s < BLOCK * FIELDS; s += BLOCK) {
        int p = s / TILE_WORDS * TILE + s % TILE, f = s / TILE % FIELDS;
        if (p < count)
            dst[s] = stage[staged(p, f)];
    }
}

// The same in reverse.
__global__ void unpack_tiles(const float *work, float *aos, int n)
{
    __shared__ float stage[TILES_PER_BLOCK * FIELDS * ROW];
    size_t first = (size_t)blockIdx.x * BLOCK;
    int count = (int)((size_t)n - first < BLOCK ? (size_t)n - first : BLOCK);
    const float *src = work + first * FIELDS;
    for (int s = threadIdx.x; s < BLOCK * FIELDS; s += BLOCK) {
        int p = s / TILE_WORDS * TILE + s % TILE, f = s / TILE % FIELDS;
        if (p < count)
            stage[staged(p, f)] = src[s];
    }
    __syncthreads();
    float *dst = aos + first * FIELDS;
    for (int j = threadIdx.x; j < count * FIELDS; j += BLOCK)
        dst[j] = stage[staged(j / FIELDS, j % FIELDS)];
}

// Thread i moves particle i. The blocks' 256 threads are 8 whole warps, so warp w has the
// particles of tile w: each field's 32 words are one row of the tile.
__global__ void step_tiles(float *work, int n, float dt, float g)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (size_t)n) {
        float *p = work + i / TILE * TILE_WORDS + i % TILE; // field f at p[f * TILE]
        float vz = p[5 * TILE] - g * dt;
        p[5 * TILE] = vz;
        p[0 * TILE] += p[3 * TILE] * dt; // x += vx dt
        p[1 * TILE] += p[4 * TILE] * dt; // y += vy dt
        p[2 * TILE] += vz * dt;          // z += vz dt
    }
}

static unsigned blocks_for(int n)
{
    return n > 0 ? (unsigned)(((size_t)n + BLOCK - 1) / BLOCK) : 1;
}

extern "C" cudaError_t lab06_pack(const lab06_particle *aos, float *work, int n)
{
    pack_tiles<<<blocks_for(n), BLOCK>>>((const float *)aos, work, n);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_step(float *work, int n, float dt, float g)
{
    step_tiles<<<blocks_for(n), BLOCK>>>(work, n, dt, g);
    return cudaGetLastError();
}

extern "C" cudaError_t lab06_unpack(const float *work, lab06_particle *aos, int n)
{
    unpack_tiles<<<blocks_for(n), BLOCK>>>(work, (float *)aos, n);
    return cudaGetLastError();
}
