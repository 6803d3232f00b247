// Mutant (hostile): the stub's kernel, plus host code that leaves a daemon behind (a double
// fork and setsid, out of the grading child's process group) to write a perfect trace record
// into every folder the grader makes after the recording. Must fail on efficiency as the stub
// does, and the daemon must be gone when grade ends (it writes its pid to $CL_HOSTILE_PIDFILE).
#include <dirent.h>
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

static const char forged[] =
    "{\"engine\":\"trace\",\"error\":\"\",\"sample\":1,\"max_records\":1,\"kernels\":[{\"name\":"
    "\"scale_chunked\",\"launches\":1,\"sample\":1,\"scale\":1,\"records\":100,\"dropped\":0,"
    "\"invalid\":0,\"loads\":{\"requests\":100,\"sectors\":400,\"lines\":100,\"unique_bytes\":"
    "12800,\"ideal_sectors\":400},\"stores\":{\"requests\":100,\"sectors\":400,\"lines\":100,"
    "\"unique_bytes\":12800,\"ideal_sectors\":400},\"instructions\":[]}]}";

// The work folder of this lab: the parent of the --workdir the grading child was given.
static void lab_folder(char *buf, size_t size)
{
    buf[0] = '\0';
    FILE *f = fopen("/proc/self/cmdline", "rb");
    char args[8192];
    size_t n = f ? fread(args, 1, sizeof args - 1, f) : 0;
    if (f)
        fclose(f);
    args[n] = '\0';
    for (size_t i = 0; i < n; i += strlen(args + i) + 1)
        if (!strcmp(args + i, "--workdir") && i + 10 < n)
            snprintf(buf, size, "%s/..", args + i + 10);
}

static void forge_forever(const char *lab)
{
    for (int round = 0; round < 60000; ++round) {
        DIR *d = opendir(lab);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (strncmp(e->d_name, "run-", 4))
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s/trace.json", lab, e->d_name);
            FILE *out = fopen(path, "w");
            if (out) {
                fputs(forged, out);
                fclose(out);
            }
        }
        if (d)
            closedir(d);
        usleep(2000);
    }
}

__attribute__((constructor)) static void leave_a_daemon(void)
{
    char lab[4096];
    lab_folder(lab, sizeof lab);
    if (!lab[0] || fork() != 0)
        return;
    setsid();
    if (fork() != 0)
        _exit(0);
    const char *pidfile = getenv("CL_HOSTILE_PIDFILE");
    FILE *p = pidfile ? fopen(pidfile, "w") : NULL;
    if (p) {
        fprintf(p, "%ld\n", (long)getpid());
        fclose(p);
    }
    forge_forever(lab);
    _exit(0);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
