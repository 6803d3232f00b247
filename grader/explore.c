/* explore.c - see explore.h. */
#define _POSIX_C_SOURCE 200809L
#include "i18n.h"
#include "explore.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "child.h"
#include "runner.h"

/* An explore run sweeps many sizes of grader-owned kernels: minutes, not seconds. */
#define EXPLORE_TIMEOUT_S 600

int gr_explore(const gr_config *cfg, const lab_spec *spec, const char *workdir, const char *csv_out,
               char **table, char *why, size_t why_size)
{
    *table = NULL;
    ch_request req = {.args = {.mode = WI_EXPLORE, .lab = spec->id, .workdir = workdir},
                      .timeout_s = EXPLORE_TIMEOUT_S};
    rn_result r;
    if ((mkdir(workdir, 0700) != 0 && errno != EEXIST) || ch_run(cfg->worker, &req, &r) != 0) {
        snprintf(why, why_size, _("cannot start the grading child"));
        return -1;
    }
    *table = r.output ? r.output : calloc(1, 1);
    r.output = NULL;
    int rc = r.status == RN_EXITED && r.exit_code == 0 ? 0 : -1;
    if (rc)
        ch_explain(&r, EXPLORE_TIMEOUT_S, why, why_size);
    rn_result_free(&r);
    if (rc == 0 && csv_out) {
        char src[4200];
        snprintf(src, sizeof src, "%s/%s", workdir, WI_EXPLORE_CSV);
        FILE *in = fopen(src, "rb"), *out = fopen(csv_out, "wb");
        char buf[8192];
        size_t n;
        while (in && out && (n = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, n, out);
        if (!in || !out) {
            snprintf(why, why_size, _("cannot write '%s'"), csv_out);
            rc = -1;
        }
        if (in)
            fclose(in);
        if (out && fclose(out) != 0)
            rc = -1;
    }
    return rc;
}

/* Copies text to f with every $CSV and $SVG replaced. */
static void expand(FILE *f, const char *text, const char *csv, const char *svg)
{
    for (const char *p = text; *p;) {
        if (!strncmp(p, "$CSV", 4)) {
            fputs(csv, f);
            p += 4;
        } else if (!strncmp(p, "$SVG", 4)) {
            fputs(svg, f);
            p += 4;
        } else {
            fputc(*p++, f);
        }
    }
}

int gr_explore_plot(const lab_spec *spec, const char *csv, const char *gp, const char *svg,
                    char *why, size_t why_size)
{
    if (!spec->explore_plot) {
        snprintf(why, why_size, _("lab %s draws no figure"), spec->id);
        return -1;
    }
    FILE *f = fopen(gp, "w");
    if (!f) {
        snprintf(why, why_size, _("cannot write '%s'"), gp);
        return -1;
    }
    expand(f, spec->explore_plot, csv, svg);
    if (fclose(f) != 0) {
        snprintf(why, why_size, _("cannot write '%s'"), gp);
        return -1;
    }
    const char *argv[] = {"gnuplot", gp, NULL};
    rn_options ro = {.timeout_s = 60, .output_cap = 4096};
    rn_result r;
    if (rn_run(argv, &ro, &r) != 0)
        return -1;
    int rc = 0;
    if (r.status == RN_START_FAILED) {
        rc = 1;
    } else if (r.status != RN_EXITED || r.exit_code != 0) {
        snprintf(why, why_size, _("gnuplot failed: %.300s"), r.output ? r.output : "");
        rc = -1;
    }
    rn_result_free(&r);
    return rc;
}
