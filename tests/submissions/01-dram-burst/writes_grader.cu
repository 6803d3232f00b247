// Mutant (hostile): the stub's kernel, and host code that writes into the grader's own tree:
// it overwrites $CL_HOSTILE_TARGET (a canary file the test put in the build folder) and makes
// a file hostile-was-here beside the grading child's binary (/proc/self/exe), as it would to
// replace the grader. The recording may write only inside its own folder (Landlock): must fail
// on efficiency as the stub does (FAIL 40), the canary unchanged, no hostile-was-here. For
// safety it never creates the canary, nor overwrites an existing hostile-was-here.
#include <fcntl.h>
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

static void write_into_the_grader(void)
{
    static const char owned[] = "owned by a hostile submission\n";
    const char *canary = getenv("CL_HOSTILE_TARGET");
    int fd = canary ? open(canary, O_WRONLY | O_TRUNC) : -1;
    if (fd >= 0) {
        if (write(fd, owned, sizeof owned - 1) < 0)
            perror(canary);
        close(fd);
        printf("hostile: overwrote %s\n", canary);
    }
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return;
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return;
    snprintf(slash + 1, sizeof exe - (size_t)(slash + 1 - exe), "hostile-was-here");
    fd = open(exe, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
        if (write(fd, owned, sizeof owned - 1) < 0)
            perror(exe);
        close(fd);
        printf("hostile: made %s\n", exe);
    }
    fflush(stdout);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    write_into_the_grader();
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
