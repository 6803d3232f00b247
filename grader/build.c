/* build.c - see build.h. */
#include "build.h"

#include <stdio.h>
#include <string.h>

int bd_command(const char *source, const char *output, const bd_options *opt, bd_argstore *store,
               const char *argv[BD_MAX_ARGS])
{
    char *arch = store->arch, *include = store->include;
    snprintf(arch, sizeof store->arch, "-arch=%s", opt->arch && *opt->arch ? opt->arch : "native");
    snprintf(include, sizeof store->include, "-I%s", opt->include_dir ? opt->include_dir : ".");
    int n = 0;
    argv[n++] = opt->nvcc && *opt->nvcc ? opt->nvcc : "nvcc";
    argv[n++] = "-shared";
    argv[n++] = "-Xcompiler";
    argv[n++] = "-fPIC";
    argv[n++] = "-O3";
    /* The host code is the launchers, run once by the recording: gcc's optimiser is not worth
     * its 0.05-0.1 s of the compile there (the device code is the same byte for byte). */
    argv[n++] = "-Xcompiler";
    argv[n++] = "-O0";
    argv[n++] = "-lineinfo";
    argv[n++] = "--cudart";
    argv[n++] = "shared";
    /* The host and device steps in parallel where they can be (0: one thread a core): on the
     * H200 machine 1.27-1.35 s a kernel instead of 1.43-1.51 s (tests/gpu/RESULTS.md). */
    argv[n++] = "--threads";
    argv[n++] = "0";
    argv[n++] = arch;
    argv[n++] = include;
    if (opt->keep_dir) {
        snprintf(store->keep, sizeof store->keep, "%s", opt->keep_dir);
        argv[n++] = "--keep";
        argv[n++] = "--keep-dir";
        argv[n++] = store->keep;
    }
    argv[n++] = "-o";
    argv[n++] = output;
    argv[n++] = source;
    argv[n] = NULL;
    return n;
}

int bd_compile(const char *source, const char *output, const bd_options *opt, rn_result *res)
{
    if (!source || !output || !opt || !res)
        return -1;
    const char *argv[BD_MAX_ARGS];
    bd_argstore store;
    bd_command(source, output, opt, &store, argv);
    /* A compile that would fill the disk or the memory stops, as one that never ends does. */
    rn_options ro = {.timeout_s = opt->timeout_s,
                     .output_cap = 64 * 1024,
                     .workdir = opt->workdir,
                     .max_file_bytes = (size_t)1 << 30,
                     .max_memory_bytes = (size_t)16 << 30,
                     .sandbox = opt->sandbox,
                     .env_add = opt->env,
                     .stop_fd = opt->stop_fd};
    if (rn_run(argv, &ro, res) != 0)
        return -1;
    return res->status == RN_EXITED && res->exit_code == 0 ? 0 : 1;
}
