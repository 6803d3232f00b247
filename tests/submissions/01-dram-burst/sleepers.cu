// Mutant (hostile): the stub's kernel, and a launcher that forks 64 children which leave the
// grading child's session (setsid) and sleep, to outlive the grade; their pids go to
// $CL_HOSTILE_PIDFILE, their name is clh-sleeper. The grader adopts orphans and kills them when
// the recording ends: must fail on efficiency as the stub does (FAIL 40), and none of them may
// be alive afterwards. For safety each sleeps 300 s at most.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>
#include "lab01.h"

#define CHUNK 16
#define SLEEPERS 64

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (size_t i = first; i < first + CHUNK && i < n; ++i)
        y[i] = a * x[i];
}

static void leave_sleepers(void)
{
    static int left;
    if (left)
        return; /* once, however often the launcher is called */
    left = 1;
    pid_t pids[SLEEPERS];
    int forked = 0;
    for (int i = 0; i < SLEEPERS; ++i) {
        pid_t pid = fork();
        if (pid == 0) {
            setsid();
            prctl(PR_SET_NAME, "clh-sleeper", 0, 0, 0);
            signal(SIGHUP, SIG_IGN);
            signal(SIGTERM, SIG_IGN);
            for (int s = 0; s < 300; ++s)
                sleep(1);
            _exit(0);
        }
        if (pid > 0)
            pids[forked++] = pid;
    }
    const char *pidfile = getenv("CL_HOSTILE_PIDFILE");
    FILE *p = pidfile ? fopen(pidfile, "a") : NULL;
    for (int i = 0; p && i < forked; ++i)
        fprintf(p, "%ld\n", (long)pids[i]);
    if (p)
        fclose(p);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    leave_sleepers();
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
