// Mutant (hostile, issue 35): the solution's kernel, and a launcher that looks for the
// reference solution where an instructor's checkout keeps it: beside the grading child's
// program (/proc/self/exe, BUILD/grade-worker, so TREE/solutions/), and up from its folder. It
// prints what it read into its failure log, which the report quotes, and fails. With the
// recording's reads confined (GRADE_CONFINE_READS=1) it reads nothing: the report must hold no
// line of the solution (tests/gpu/lab01.sh, case reach_tree).
// expect: FAIL
// expect-stage: run
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "lab01.h"

__global__ void scale(float a, const float *x, float *y, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        y[i] = a * x[i];
}

/* Prints the file at path, up to 60 lines; 1 when it could be read. */
static int leak(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[512];
    fprintf(stderr, "read %s:\n", path);
    for (int i = 0; i < 60 && fgets(line, sizeof line, f); ++i)
        fputs(line, stderr);
    fclose(f);
    return 1;
}

static int look(void)
{
    char exe[PATH_MAX], path[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    int found = 0;
    if (n > 0) {
        exe[n] = '\0';
        for (int up = 0; up < 3; ++up) {
            char *slash = strrchr(exe, '/');
            if (!slash)
                break;
            *slash = '\0';
            snprintf(path, sizeof path, "%s/solutions/01-dram-burst/kernel.cu", exe);
            found += leak(path);
        }
    }
    const char *ups[] = {"..", "../..", "../../..", "../../../.."};
    for (int i = 0; i < 4; ++i) {
        snprintf(path, sizeof path, "%s/solutions/01-dram-burst/kernel.cu", ups[i]);
        found += leak(path);
    }
    if (!found)
        fprintf(stderr, "reach_tree: no solution could be read\n");
    return found;
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    static int looked;
    if (!looked++) {
        look();
        return cudaErrorUnknown; /* so that the report quotes the log */
    }
    scale<<<1024, 256>>>(a, x, y, n);
    return cudaGetLastError();
}
