/* child.c - see child.h. */
#define _POSIX_C_SOURCE 200809L
#include "child.h"

#include <stdio.h>
#include <string.h>

#include "exit_codes.h"
#include "i18n.h"

static void record_path(const char *workdir, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%s", workdir, WI_RESULT_FILE);
}

static int run_once(const char *worker, const ch_request *req, const wi_args *args,
                    const int *keep_fds, rn_result *r)
{
    const char *argv[WI_MAX_ARGV];
    char seed[24];
    wi_args_to_argv(worker, args, seed, argv);
    rn_options ro = {.timeout_s = req->timeout_s,
                     .output_cap = 16 * 1024,
                     .env_add = req->env,
                     .sandbox = req->sandbox,
                     .max_data_bytes = req->max_data_bytes,
                     .max_file_bytes = req->max_file_bytes,
                     .keep_fds = keep_fds,
                     .stop_fd = req->stop_fd};
    char path[4200];
    record_path(args->workdir, path, sizeof path);
    remove(path);
    return rn_run(argv, &ro, r);
}

/* The parent holds the lock as how while the child runs without it (where the lock cannot be
 * taken, an error of the lock's own, the child runs all the same: unprotected, not lost). */
static int run_holding(const char *worker, const ch_request *req, int how, rn_result *r)
{
    char tag[64];
    snprintf(tag, sizeof tag, "%s %s (for it)", wi_mode_name(req->args.mode),
             req->args.lab ? req->args.lab : "-");
    gl_tag(tag);
    int held = gl_take(req->gpu, how, -1) == 0;
    wi_args args = req->args;
    args.gpu_lock = NULL;
    int rc = run_once(worker, req, &args, NULL, r);
    if (held)
        gl_release(req->gpu);
    return rc;
}

static int clean(const rn_result *r)
{
    return r->status == RN_EXITED && r->exit_code == 0;
}

int ch_run(const char *worker, const ch_request *req, rn_result *r)
{
    gl_lock *gpu = req->gpu;
    if (!gpu || gpu->lock_fd < 0)
        return run_once(worker, req, &req->args, NULL, r);
    /* Beside other gradings the time limit also covers the waits: at most WI_GPU_WAIT_S at each
     * of a replay's two limited takes of the lock, as much again for its retake after measuring
     * (which has no limit), and a quarter more for a GPU shared with others. What still runs out of
     * that time is not run again: a kernel that hangs costs its own slot the longer limit, never
     * the whole GPU a second one. */
    ch_request beside = *req;
    beside.timeout_s = req->timeout_s * 1.25 + 3 * WI_GPU_WAIT_S;
    int rc;
    if (req->args.mode != WI_RUN && req->args.mode != WI_TRACE && req->args.mode != WI_COUNTERS) {
        rc = run_holding(worker, &beside, GL_SHARED, r);
    } else {
        char fds[32];
        gl_format(gpu, fds, sizeof fds);
        wi_args args = req->args;
        args.gpu_lock = fds;
        int keep[] = {gpu->lock_fd, gpu->turn_fd, -1};
        rc = run_once(worker, &beside, &args, keep, r);
    }
    /* Whatever else went wrong beside other gradings (the lock not free in time, a CUDA error
     * such as memory a neighbour held) is confirmed alone before it counts: the child runs
     * again with the whole GPU and its own time limit. */
    if (rc == 0 && !clean(r) && r->status != RN_TIMED_OUT && !r->stopped) {
        rn_result_free(r);
        rc = run_holding(worker, req, GL_EXCLUSIVE, r);
    }
    return rc;
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
    if (r->status == RN_TIMED_OUT) /* beside others the limit was stretched (ch_run) */
        snprintf(buf, size,
                 _("timed out after %.0f s: the kernel never finished (a loop whose index never "
                   "reaches its bound?)"),
                 r->elapsed_s > limit_s ? r->elapsed_s : limit_s);
    else if (r->status == RN_SIGNALED)
        snprintf(buf, size, _("crashed: %s"), how);
    else if (r->status == RN_START_FAILED)
        snprintf(buf, size, _("the grading child %s"), how);
    else if (r->exit_code == CL_EXIT_CUDA)
        snprintf(buf, size, _("a CUDA call failed (the message below names it)"));
    else if (r->exit_code == CL_EXIT_CONTRACT)
        snprintf(buf, size, _("the compiled kernel does not fit the lab's launcher contract"));
    else if (r->exit_code == CL_EXIT_IO)
        snprintf(buf, size, _("the grading child could not save its results"));
    else
        snprintf(buf, size, _("the kernel's process %s"), how);
}
