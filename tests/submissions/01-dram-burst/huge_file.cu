// Mutant (hostile): the stub's kernel, and a launcher that first writes 2 GiB into a file of
// its work folder, to fill the disk. The grading child may write files of 1 GiB at most
// (RLIMIT_FSIZE): must fail (stopped by the limit), not "timed out", and the grader must go
// on to report it. For safety it writes only below /tmp, at most 2 GiB, and removes the file
// when it was let through.
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lab01.h"

#define CHUNK 16
#define PIECE ((size_t)1 << 20)
#define PIECES 2048 /* 2 GiB */

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

static void fill_the_disk(void)
{
    char wd[PATH_MAX], real[PATH_MAX], path[PATH_MAX + 32];
    work_folder(wd, sizeof wd);
    if (!wd[0] || !realpath(wd, real) || strncmp(real, "/tmp/", 5))
        return;
    snprintf(path, sizeof path, "%s/hostile-huge.bin", real);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    char *piece = (char *)calloc(1, PIECE);
    size_t written = 0;
    for (int i = 0; fd >= 0 && piece && i < PIECES; ++i) {
        ssize_t w = write(fd, piece, PIECE);
        if (w <= 0)
            break;
        written += (size_t)w;
    }
    printf("hostile: wrote %zu MiB into %s\n", written >> 20, path);
    fflush(stdout);
    if (fd >= 0)
        close(fd);
    unlink(path);
    free(piece);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    fill_the_disk();
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
