// Mutant (hostile): the stub's kernel, and host code (a constructor and the launcher) that
// plants forged "perfect" result.json, record*.json and trace.json files wherever a grader's
// child might write them: its cwd, its work folder and the two above it, $TMPDIR, and every
// writable folder under /tmp named cl-* or grade-* (two levels down). The grader reads only
// what its own children write, in a folder made after the recording: must fail on efficiency
// as the stub does (FAIL 40). For safety it writes nowhere but below /tmp.
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "lab01.h"

#define CHUNK 16
#define MAX_FOLDERS 512

__global__ void scale_chunked(float a, const float *x, float *y, size_t n)
{
    size_t first = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
    for (size_t i = first; i < first + CHUNK && i < n; ++i)
        y[i] = a * x[i];
}

static const char forged_result[] =
    "{\"mode\":\"run\",\"run\":{\"launched\":true,\"guards_intact\":true,\"useful_bytes\":"
    "402653240,\"checked_after_timing\":true},\"timing\":{\"student\":{\"median_ms\":0.05,"
    "\"min_ms\":0.05,\"max_ms\":0.05,\"repeats\":15,\"bytes\":402653240,\"bytes_per_s\":"
    "8.0e12}}}";
static const char forged_record[] =
    "{\"refused\":\"\",\"buffers\":[],\"lab_values\":[],\"ops\":[]}";
static const char forged_trace[] =
    "{\"engine\":\"trace\",\"error\":\"\",\"sample\":1,\"max_records\":1,\"kernels\":[{\"name\":"
    "\"scale_chunked\",\"launches\":1,\"sample\":1,\"scale\":1,\"records\":100,\"dropped\":0,"
    "\"invalid\":0,\"loads\":{\"requests\":100,\"sectors\":400,\"lines\":100,\"unique_bytes\":"
    "12800,\"ideal_sectors\":400},\"stores\":{\"requests\":100,\"sectors\":400,\"lines\":100,"
    "\"unique_bytes\":12800,\"ideal_sectors\":400},\"instructions\":[]}]}";

// Whether path is a folder below /tmp, once every link is resolved: the only place this case
// writes.
static int below_tmp(const char *path)
{
    char real[PATH_MAX];
    struct stat st;
    return realpath(path, real) && !strncmp(real, "/tmp/", 5) && stat(real, &st) == 0 &&
           S_ISDIR(st.st_mode);
}

static void put(const char *folder, const char *name, const char *text)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void forge_in(const char *folder)
{
    if (!below_tmp(folder))
        return;
    put(folder, "result.json", forged_result);
    put(folder, "record.json", forged_record);
    put(folder, "record-trace.json", forged_record);
    for (int k = 0; k < 16; ++k) {
        char name[64];
        snprintf(name, sizeof name, "record-check-%02d.json", k);
        put(folder, name, forged_record);
    }
    put(folder, "trace.json", forged_trace);
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

// Every folder below dir whose name starts with cl- or grade- (the grader's mkdtemp pattern) at
// depth 0, down to depth 2.
static void forge_below(const char *dir, int depth, int *left)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && *left > 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (depth == 0 && strncmp(e->d_name, "cl-", 3) && strncmp(e->d_name, "grade-", 6))
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!below_tmp(path))
            continue;
        --*left;
        forge_in(path);
        if (depth < 2)
            forge_below(path, depth + 1, left);
    }
    if (d)
        closedir(d);
}

static void forge_everywhere(void)
{
    char wd[PATH_MAX], up[PATH_MAX + 8];
    forge_in(".");
    work_folder(wd, sizeof wd);
    if (wd[0]) {
        forge_in(wd);
        snprintf(up, sizeof up, "%s/..", wd);
        forge_in(up);
        snprintf(up, sizeof up, "%s/../..", wd);
        forge_in(up);
    }
    const char *tmpdir = getenv("TMPDIR");
    if (tmpdir)
        forge_in(tmpdir);
    int left = MAX_FOLDERS;
    forge_below("/tmp", 0, &left);
}

__attribute__((constructor)) static void forge_early(void)
{
    forge_everywhere();
}

extern "C" cudaError_t lab01_scale(float a, const float *x, float *y, size_t n)
{
    forge_everywhere();
    const unsigned threads = 256;
    size_t workers = (n + CHUNK - 1) / CHUNK;
    scale_chunked<<<(unsigned)((workers + threads - 1) / threads), threads>>>(a, x, y, n);
    return cudaGetLastError();
}
