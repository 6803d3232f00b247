/* model.c - see model.h. */
#include "model.h"

#include "i18n.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "hints.h"
#include "runner.h"
#include "warpfig.h"

/* A line of the model's table: its label, translated and padded to 30 columns. */
static void row(FILE *out, const char *label)
{
    fputs("  ", out);
    i18n_pad(out, label, 30);
    fputc(' ', out);
}

/* A load or store of size bytes must start at a multiple of size: the GPU faults otherwise
 * ("misaligned address"), so such a request is refused rather than costed. */
static int aligned(const cl_request *req, char *err, size_t err_size)
{
    int lane = cl_request_misaligned(req);
    if (lane < 0)
        return 0;
    snprintf(err, err_size,
             _("lane %d's address is %llu bytes past a multiple of %u: a %u-byte access there "
               "faults on the GPU (misaligned address); start every lane at a multiple of %u "
               "(--offset, --stride, --addresses)"),
             lane, (unsigned long long)(req->addr[lane] % req->size), req->size, req->size,
             req->size);
    return 2;
}

int md_request(const cli_options *o, cl_request *req, char *err, size_t err_size)
{
    memset(req, 0, sizeof *req);
    if (!o->model_addresses) {
        /* Lane 0 sits offset bytes past a 128-byte boundary, far from address 0 so a negative
         * stride stays positive. */
        cl_request_strided(req, (uint64_t)1 << 40, o->model_offset, o->model_stride, o->model_size,
                           o->model_active);
        return aligned(req, err, err_size);
    }
    req->size = o->model_size;
    const char *p = o->model_addresses;
    int lane = 0;
    while (*p) {
        char *end = NULL;
        errno = 0;
        unsigned long long a = strtoull(p, &end, 0);
        if (errno || end == p || (*end && *end != ',')) {
            snprintf(err, err_size, _("cannot read the address list at '%s'"), p);
            return 2;
        }
        if (lane == CL_WARP_SIZE) {
            snprintf(err, err_size, _("more than %d addresses: a warp has %d lanes"), CL_WARP_SIZE,
                     CL_WARP_SIZE);
            return 2;
        }
        req->addr[lane] = a;
        req->active |= 1u << lane;
        ++lane;
        p = *end ? end + 1 : end;
    }
    if (!lane) {
        snprintf(err, err_size, "%s", _("--addresses needs at least one address"));
        return 2;
    }
    return aligned(req, err, err_size);
}

void md_print(FILE *out, const cl_request *req)
{
    cl_cost c;
    if (cl_request_cost(req, &c) != 0) {
        fputs(_("not a valid request\n"), out);
        return;
    }
    cl_tally t = {0};
    cl_tally_add(&t, &c);
    fprintf(out, _("one warp request: %u active lanes, %u bytes each\n"), c.active_lanes,
            req->size);
    row(out, _("32-byte sectors touched"));
    fprintf(out, "%6u\n", c.sectors);
    row(out, _("128-byte lines touched"));
    fprintf(out, "%6u\n", c.lines);
    row(out, _("bytes asked for (unique)"));
    fprintf(out, "%6u\n", c.unique_bytes);
    row(out, _("sectors that would carry them"));
    fprintf(out, "%6u\n", c.ideal_sectors);
    row(out, _("efficiency"));
    fprintf(out, _("%5.1f%%  (ideal / touched; a broadcast is 100%%)\n"),
            100 * cl_tally_efficiency(&t));
    row(out, _("bytes per sector"));
    fprintf(out, _("%5.1f%%  (unique bytes / (32 x sectors), as Nsight Compute)\n"),
            100 * cl_tally_bytes_per_sector(&t));
    char hint[600];
    hn_signature(_("This request"), c.sectors, c.unique_bytes, hint, sizeof hint);
    if (*hint)
        fprintf(out, "  %s\n", hint);
}

int md_figure(const cl_request *req, const char *title, const char *dot_path, const char *svg_path)
{
    FILE *f = fopen(dot_path, "w");
    if (!f)
        return -1;
    int rc = wf_write_dot(f, req, title);
    if (fclose(f) != 0 || rc != 0)
        return -1;
    const char *argv[] = {"dot", "-Tsvg", dot_path, "-o", svg_path, NULL};
    rn_options ro = {.timeout_s = 60, .output_cap = 4096};
    rn_result r;
    if (rn_run(argv, &ro, &r) != 0)
        return -1;
    rc = r.status == RN_START_FAILED ? 1 : r.status == RN_EXITED && r.exit_code == 0 ? 0 : -1;
    rn_result_free(&r);
    return rc;
}
