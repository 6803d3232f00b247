// Mutant (hostile): the stub's kernel, and a launcher that replaces the files the grading child
// is about to write in its work folder (record.json, result.json, y.bin, their .tmp names)
// with symbolic links to $CL_HOSTILE_TARGET, a file outside that folder, so that the child's
// own writes would overwrite it. The child never writes through a link (it renames a new file
// over it, or refuses): must fail, as the stub does or unable to save, and quickly; the target
// must be unchanged.
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lab01.h"

#define CHUNK 16

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (size_t i = first; i < first + CHUNK && i < n; ++i)
        y[i] = a * x[i];
}

// The folder after --workdir on this process's command line: the grading child's own.
static void work_folder(char *buf, size_t size)
{
    static char args[16384];
    buf[0] = '\0';
    FILE *f = fopen("/proc/self/cmdline", "rb");
    size_t n = f ? fread(args, 1, sizeof args - 1, f) : 0;
    if (f)
        fclose(f);
    args[n] = '\0';
    for (size_t i = 0; i < n; i += strlen(args + i) + 1)
        if (!strcmp(args + i, "--workdir") && i + 10 < n)
            snprintf(buf, size, "%s", args + i + 10);
}

static void plant_links(void)
{
    static const char *const names[] = {"record.json",     "record.json.tmp", "result.json",
                                        "result.json.tmp", "y.bin",           "record-trace.json"};
    const char *target = getenv("CL_HOSTILE_TARGET");
    char wd[PATH_MAX], real[PATH_MAX];
    work_folder(wd, sizeof wd);
    if (!target || !wd[0] || !realpath(wd, real) || strncmp(real, "/tmp/", 5))
        return;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/%s", real, names[i]);
        unlink(path);
        if (symlink(target, path) != 0)
            perror(path);
    }
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    plant_links();
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
