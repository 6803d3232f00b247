/*
 * main.c - the 'grade' program: parse the command line, find the workbook, the grading child
 * and the compiler, then list, check, explore or grade. Only this file prints and exits.
 *
 * A run, end to end: cli.c parses -> gr_probe() asks a child for the GPU -> for each lab,
 * gr_grade_lab() (grade.c) compiles with nvcc (build.c), runs the kernel in grade-worker
 * (runner.c; worker/worker.c), checks its outputs here (labs/NN-slug/labNN_spec.c), reads counters
 * in another child (worker/counters.c) and decides -> report.c prints text or JSON.
 */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "doctor.h"
#include "grade.h"
#include "lab.h"
#include "model.h"
#include "report.h"

#ifndef CL_VERSION
#define CL_VERSION "0.1.0"
#endif
#ifndef CL_SOURCE_DIR
#define CL_SOURCE_DIR "."
#endif
#ifndef CL_NVCC_PATH
#define CL_NVCC_PATH "nvcc"
#endif

static void die(int status, const char *msg, const char *arg)
{
    fprintf(stderr, "grade: ");
    fprintf(stderr, msg, arg);
    fputc('\n', stderr);
    exit(status);
}

static void worker_path(char *buf, size_t size)
{
    const char *env = getenv("GRADE_WORKER");
    if (env && *env) {
        snprintf(buf, size, "%s", env);
        return;
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) {
        snprintf(buf, size, "grade-worker");
        return;
    }
    self[n] = '\0';
    snprintf(buf, size, "%s/grade-worker", dirname(self));
}

static const char *nvcc_path(const cli_options *o)
{
    if (o->nvcc)
        return o->nvcc;
    const char *env = getenv("NVCC");
    if (env && *env)
        return env;
    if (access(CL_NVCC_PATH, X_OK) == 0)
        return CL_NVCC_PATH;
    return "nvcc";
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

static void list_labs(void)
{
    for (size_t i = 0; i < lab_count; ++i) {
        const lab_spec *s = lab_table[i];
        char name[64];
        snprintf(name, sizeof name, "%s-%s", s->id, s->slug);
        printf("%-22s %s\n", name, s->summary);
    }
}

/* The length of path without its extension ("a.b/x.csv" -> "a.b/x"). */
static int stem_length(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(path, '.');
    return dot && (!slash || dot > slash) ? (int)(dot - path) : (int)strlen(path);
}

/* Reports where a figure went, or how to render it. */
static void figure_written(int rc, const char *dot_path, const char *svg_path)
{
    if (rc == 0)
        fprintf(stderr, "grade: drew '%s' (Graphviz source '%s')\n", svg_path, dot_path);
    else if (rc == 1)
        fprintf(stderr, "grade: wrote '%s'; install Graphviz and run 'dot -Tsvg %s -o %s'\n",
                dot_path, dot_path, svg_path);
    else
        fprintf(stderr, "grade: cannot write the figure '%s'\n", dot_path);
}

static int model(const cli_options *opt)
{
    cl_request req;
    char err[256];
    if (md_request(opt, &req, err, sizeof err) != 0)
        die(2, "%s", err);
    cl_cost c;
    if (cl_request_cost(&req, &c) != 0)
        die(2, "%s", "not a valid request: no active lane");
    md_print(stdout, &req);
    char dot_path[PATH_MAX], svg_path[PATH_MAX + 8];
    snprintf(dot_path, sizeof dot_path, "%s", opt->figure ? opt->figure : "model.dot");
    snprintf(svg_path, sizeof svg_path, "%.*s.svg", stem_length(dot_path), dot_path);
    char title[128];
    snprintf(title, sizeof title, "one warp request, %u B per lane", req.size);
    figure_written(md_figure(&req, title, dot_path, svg_path), dot_path, svg_path);
    return 0;
}

/* --explain: the sampled warp of the worst instruction of lab o, drawn. */
static void explain(const oc_outcome *o)
{
    const oc_worst *b = o->blamed;
    if (!b) {
        fprintf(stderr,
                "grade: nothing to explain for lab %s: the trace engine did not run "
                "or found no wasteful access\n",
                o->spec->id);
        return;
    }
    cl_request req = {.active = b->active, .size = b->size};
    for (int l = 0; l < CL_WARP_SIZE; ++l)
        req.addr[l] = b->addr[l] >= 0 ? (uint64_t)b->addr[l] : 0;
    char dot_path[64], svg_path[64], title[1400];
    snprintf(dot_path, sizeof dot_path, "explain-%s.dot", o->spec->id);
    snprintf(svg_path, sizeof svg_path, "explain-%s.svg", o->spec->id);
    snprintf(title, sizeof title, "lab %s, %s:%u (%s): one sampled warp", o->spec->id, b->file,
             b->line, b->is_store ? "store" : "load");
    figure_written(md_figure(&req, title, dot_path, svg_path), dot_path, svg_path);
}

static void no_gpu(const char *why)
{
    fprintf(stderr,
            "grade: %s\n"
            "The labs are graded on what your kernels really do on an NVIDIA GPU, so grading\n"
            "needs one. What you can do:\n"
            "  - on a machine with an NVIDIA GPU: check that 'nvidia-smi' lists it, then run\n"
            "    'make -f Makefile.student doctor' and grade there;\n"
            "  - without a GPU: read handouts/00-introduction.md and work each handout's\n"
            "    \"Predict\" exercises on paper; the unit tests run anywhere (see README.md).\n",
            why);
}

int main(int argc, char **argv)
{
    cli_options opt;
    char err[512];
    if (cli_parse(argc, argv, &opt, err, sizeof err) != 0)
        die(2, "%s", err);
    switch (opt.action) {
    case CLI_HELP:
        fputs(cli_help_text, stdout);
        return 0;
    case CLI_VERSION:
        printf("grade %s\n", CL_VERSION);
        return 0;
    case CLI_LIST:
        list_labs();
        return 0;
    case CLI_MODEL:
        return model(&opt);
    default:
        break;
    }

    const lab_spec *selected[CLI_MAX_LABS > 16 ? CLI_MAX_LABS : 16];
    size_t nsel = 0;
    for (size_t i = 0; i < opt.nlabs; ++i) {
        const lab_spec *s = lab_find(opt.labs[i]);
        if (!s)
            die(2, "unknown lab '%s' (see 'grade --list')", opt.labs[i]);
        selected[nsel++] = s;
    }
    if (!nsel)
        for (size_t i = 0; i < lab_count && nsel < 16; ++i)
            selected[nsel++] = lab_table[i];
    if (opt.kernel && access(opt.kernel, R_OK) != 0)
        die(2, "cannot read '%s'", opt.kernel);
    const char *root = opt.root ? opt.root : CL_SOURCE_DIR;
    for (size_t i = 0; opt.solution && i < nsel; ++i) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/solutions/%s-%s/kernel.cu", root, selected[i]->id,
                 selected[i]->slug);
        if (access(path, R_OK) != 0)
            die(2, "no reference solution '%s' (a student edition has none)", path);
    }

    char worker[PATH_MAX], tracer_dir[PATH_MAX];
    worker_path(worker, sizeof worker);
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", worker);
    snprintf(tracer_dir, sizeof tracer_dir, "%s", dirname(copy)); /* the tracer lies beside it */
    uint64_t seed =
        opt.seed_given ? opt.seed : ((uint64_t)time(NULL) * 2654435761u) ^ (uint64_t)getpid();
    gr_config cfg = {.root = root,
                     .worker = worker,
                     .nvcc = nvcc_path(&opt),
                     .arch = opt.arch ? opt.arch : "native",
                     .kernel = opt.kernel,
                     .solution = opt.solution,
                     .seed = seed,
                     .counters = opt.counters,
                     .trace = opt.trace,
                     .tracer_dir = tracer_dir,
                     .timing = opt.timing,
                     .compile_timeout_s = 180,
                     .run_timeout_s = opt.timeout_s > 0 ? opt.timeout_s : 60,
                     .counters_timeout_s = 180,
                     .progress = opt.quiet ? NULL : stderr};

    /* Opened before the work folder exists, so a bad path leaves nothing behind. */
    FILE *out = stdout;
    if (opt.action == CLI_GRADE && opt.output && !(out = fopen(opt.output, "w")))
        die(3, "cannot write '%s'", opt.output);

    char base[] = "/tmp/grade-XXXXXX";
    if (!mkdtemp(base))
        die(3, "cannot create a work folder under '%s'", "/tmp");
    char dir[PATH_MAX];
    int status = 0;

    if (opt.action == CLI_DOCTOR) {
        snprintf(dir, sizeof dir, "%s/doctor", base);
        status = dr_run(&cfg, dir, stdout);
        goto done;
    }

    di_info dev;
    char why[1024];
    snprintf(dir, sizeof dir, "%s/probe", base);
    int gpu = gr_probe(&cfg, dir, &dev, why, sizeof why);
    if (gpu != 0) {
        if (gpu < 0)
            fprintf(stderr, "grade: cannot run the grading child: %s\n", why);
        else
            no_gpu(why);
        status = 3;
        goto done;
    }

    if (opt.action == CLI_EXPLORE) {
        char csv[PATH_MAX];
        snprintf(csv, sizeof csv, "explore-%s.csv", selected[0]->id);
        snprintf(dir, sizeof dir, "%s/explore", base);
        if (gr_explore(&cfg, selected[0], dir, opt.csv ? opt.csv : csv, why, sizeof why) != 0) {
            fprintf(stderr, "grade: the explore run failed: %s\n", why);
            status = 3;
        } else {
            const char *written = opt.csv ? opt.csv : csv;
            char gp[PATH_MAX + 8], svg[PATH_MAX + 8];
            int stem = stem_length(written);
            snprintf(gp, sizeof gp, "%.*s.gp", stem, written);
            snprintf(svg, sizeof svg, "%.*s.svg", stem, written);
            int plot = selected[0]->explore_plot
                           ? gr_explore_plot(selected[0], written, gp, svg, why, sizeof why)
                           : 2;
            fprintf(stderr, "grade: wrote '%s'", written);
            if (plot == 0)
                fprintf(stderr, ", the figure '%s' and its gnuplot script '%s'\n", svg, gp);
            else if (plot == 1)
                fprintf(stderr, " and '%s'; install gnuplot and run 'gnuplot %s' to draw '%s'\n",
                        gp, gp, svg);
            else if (plot == 2)
                fputc('\n', stderr);
            else
                fprintf(stderr, "; no figure: %s\n", why);
        }
        goto done;
    }

    if (opt.format == CLI_TEXT)
        fprintf(out, "grading on %s (compute capability %d.%d), seed %llu\n", dev.name,
                dev.cc_major, dev.cc_minor, (unsigned long long)seed);

    oc_outcome outcomes[16];
    for (size_t i = 0; i < nsel; ++i) {
        snprintf(dir, sizeof dir, "%s/lab%s", base, selected[i]->id);
        gr_grade_lab(&cfg, selected[i], dir, &outcomes[i]);
        if (opt.format == CLI_TEXT) {
            rp_text_lab(out, &outcomes[i]);
            fflush(out);
        }
        if (opt.explain)
            explain(&outcomes[i]);
    }
    if (opt.format == CLI_GRADESCOPE) {
        char *text = rp_gradescope(outcomes, nsel);
        fprintf(out, "%s\n", text ? text : "{}");
        free(text);
        rp_text_summary(stderr, outcomes, nsel);
    } else if (opt.format == CLI_JUNIT) {
        rp_junit(out, outcomes, nsel);
        rp_text_summary(stderr, outcomes, nsel);
    } else if (opt.format == CLI_JSON) {
        char nv[32];
        dr_nvcc_version(cfg.nvcc, nv, sizeof nv);
        rp_manifest m = {.version = CL_VERSION,
                         .nvcc_version = nv,
                         .device = &dev,
                         .seed = seed,
                         .arch = cfg.arch};
        char *text = rp_json(&m, outcomes, nsel);
        fprintf(out, "%s\n", text ? text : "{}");
        free(text);
        rp_text_summary(stderr, outcomes, nsel);
    } else {
        rp_text_summary(out, outcomes, nsel);
    }
    if (out != stdout)
        fclose(out);

    int failed = 0, skipped = 0;
    for (size_t i = 0; i < nsel; ++i) {
        failed += outcomes[i].verdict == OC_FAIL;
        skipped += outcomes[i].verdict == OC_NOT_GRADED;
        oc_free(&outcomes[i]);
    }
    status = failed ? 1 : skipped ? 3 : 0;

done:
    if (opt.keep)
        fprintf(stderr, "grade: kept the work folder '%s'\n", base);
    else
        nftw(base, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    return status;
}
