/* child.c - see child.h. */
#define _POSIX_C_SOURCE 200809L
#include "child.h"

#include <stdio.h>
#include <string.h>

#include "exit_codes.h"

static void record_path(const char *workdir, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", workdir, WI_RESULT_FILE);
}

int ch_run(const char *worker, const ch_request *req, rn_result *r)
{
    const char *argv[WI_MAX_ARGV];
    char seed[24];
    wi_args_to_argv(worker, &req->args, seed, argv);
    rn_options ro = {.timeout_s = req->timeout_s,
                     .output_cap = 16 * 1024,
                     .env_add = req->env,
                     .sandbox = req->sandbox,
                     .max_data_bytes = req->max_data_bytes,
                     .max_file_bytes = req->max_file_bytes};
    char path[4200];
    record_path(req->args.workdir, path, sizeof path);
    remove(path);
    return rn_run(argv, &ro, r);
}

int ch_read_result(const char *workdir, wi_result *res, char *why, size_t why_size)
{
    char path[4200];
    record_path(workdir, path, sizeof path);
    cJSON *json = wi_read_file(path, why, why_size);
    int rc = json ? wi_result_from_json(json, res, why, why_size) : -1;
    cJSON_Delete(json);
    return rc;
}

void ch_explain(const rn_result *r, double limit_s, char *buf, size_t size)
{
    char how[256];
    rn_describe(r, how, sizeof how);
    if (r->status == RN_TIMED_OUT)
        snprintf(buf, size,
                 "timed out after %.0f s: the kernel never finished (a loop whose index never "
                 "reaches its bound?)",
                 limit_s);
    else if (r->status == RN_SIGNALED)
        snprintf(buf, size, "crashed: %s", how);
    else if (r->status == RN_START_FAILED)
        snprintf(buf, size, "the grading child %s", how);
    else if (r->exit_code == CL_EXIT_CUDA)
        snprintf(buf, size, "a CUDA call failed (the message below names it)");
    else if (r->exit_code == CL_EXIT_CONTRACT)
        snprintf(buf, size, "the compiled kernel does not fit the lab's launcher contract");
    else if (r->exit_code == CL_EXIT_IO)
        snprintf(buf, size, "the grading child could not save its results");
    else
        snprintf(buf, size, "the kernel's process %s", how);
}
