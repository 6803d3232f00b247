// Mutant (hostile): the stub's kernel, and a constructor that SIGKILLs the grader (its parent),
// the grader's process group, and every process named "grade", so that no report is written.
// The recording's sandbox (Landlock ABI 6) lets it signal nothing outside: the grader must
// survive and report a failure on efficiency as the stub does (FAIL 40). For safety it attacks
// only once it has seen that it cannot signal its parent; where it can, it prints
// HOSTILE-UNCONFINED and attacks nothing.
#include <ctype.h>
#include <dirent.h>
#include <signal.h>
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

// Whether process pid is named (comm) name.
static int named(const char *pid, const char *name)
{
    char path[64], comm[64] = "";
    snprintf(path, sizeof path, "/proc/%s/comm", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    if (!fgets(comm, sizeof comm, f))
        comm[0] = '\0';
    fclose(f);
    comm[strcspn(comm, "\n")] = '\0';
    return !strcmp(comm, name);
}

__attribute__((constructor)) static void kill_the_grader(void)
{
    pid_t parent = getppid(), self = getpid();
    if (parent <= 1 || kill(parent, 0) == 0) {
        printf("HOSTILE-UNCONFINED: this process may signal the grader (pid %ld); nothing "
               "attacked\n",
               (long)parent);
        fflush(stdout);
        return;
    }
    int refused = 0, tries = 0;
    ++tries;
    refused += kill(parent, SIGKILL) != 0;
    pid_t group = getpgid(parent);
    if (group > 1 && group != getpgrp()) {
        ++tries;
        refused += kill(-group, SIGKILL) != 0;
    }
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && tries < 4096 && (e = readdir(d))) {
        if (!isdigit((unsigned char)e->d_name[0]) || !named(e->d_name, "grade"))
            continue;
        pid_t pid = (pid_t)atol(e->d_name);
        if (pid <= 1 || pid == self)
            continue;
        ++tries;
        refused += kill(pid, SIGKILL) != 0;
    }
    if (d)
        closedir(d);
    printf("hostile: %d of %d kills refused\n", refused, tries);
    fflush(stdout);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
