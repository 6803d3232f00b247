/*
 * main.c - the 'grade' program: parse the command line, find the workbook, the grading child
 * and the compiler, then do the action asked for (the table at the end). Only this file
 * prints and exits.
 *
 * A grade, end to end: cli.c parses -> gr_probe() asks a child for the GPU -> for each lab,
 * gr_grade_lab() (grade.c) compiles with nvcc (build.c), runs the kernel in grade-worker
 * (child.c, runner.c; worker/worker.c), checks its outputs here (labs/NN-slug/labNN_spec.c),
 * traces it and reads its counters in more children (trace/tracer.c, worker/counters.c),
 * each child's record read through the wire (common/wire.c), and decides (decide.c) ->
 * report.c prints text, JSON, Gradescope's results.json or JUnit XML.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef CL_HAVE_BATCH
#include "batch.h"
#include "course.h"
#endif
#include "cli.h"
#include "i18n.h"
#include "child.h"
#include "doctor.h"
#include "exit_codes.h"
#include "explore.h"
#include "grade.h"
#include "lab.h"
#include "model.h"
#include "pool.h"
#include "report.h"
#include "confine.h"
#include "sandbox.h"
#include "runner.h"
#include "salt.h"

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
    fprintf(stderr, _(msg), arg); /* xgettext -kdie:2 */
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

/* What an action works with: the options and, for those that run children, the
 * configuration, the labs chosen, the report's file and a work folder of their own. */
typedef struct session {
    const cli_options *opt;
    FILE *out; /* where the report goes: stdout, or memory until every child has ended */
    char *report;
    size_t report_size;
    gr_config cfg;
    char worker[PATH_MAX], tracer_dir[PATH_MAX], cwd[PATH_MAX];
    char arch[16];             /* "native" made exact: sm_XY of the GPU the probe found */
    char cache[PATH_MAX + 32]; /* the compiled kernels (gr_config.compile_cache) */
    const lab_spec **labs;     /* the labs named, or every lab */
    size_t nlabs;
    char base[32];  /* the work folder, removed at the end unless --keep */
    unsigned slots; /* labs graded at once (pool_slots, once the GPU is known); 0 or 1: one */
    gl_lock gpu;    /* their GPU lock, made with the first side-by-side grading */
    /* A lab graded alone, compiled while the probe starts CUDA (compile_before_probe): the
     * compile's child (0: none, or waited for), the architecture and the cache it compiles for,
     * and our end of its stop socket (a byte sent: it stops). */
    pid_t early;
    char early_arch[16];
    char early_cache[PATH_MAX + 32];
    int early_stop;
    char no_gpu[1024]; /* why the GPU cannot be used here, once gpu_ready has found that */
} session;

static int cmd_list(session *s)
{
    (void)s;
    for (size_t i = 0; i < lab_count; ++i) {
        const lab_spec *s = lab_table[i];
        char name[64];
        snprintf(name, sizeof name, "%s-%s", s->id, s->slug);
        printf("%-22s %s\n", name, _(s->summary));
    }
    return CL_EXIT_OK;
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
        fprintf(stderr, _("grade: drew '%s' (Graphviz source '%s')\n"), svg_path, dot_path);
    else if (rc == 1)
        fprintf(stderr, _("grade: wrote '%s'; install Graphviz and run 'dot -Tsvg %s -o %s'\n"),
                dot_path, dot_path, svg_path);
    else
        fprintf(stderr, _("grade: cannot write the figure '%s'\n"), dot_path);
}

static int cmd_model(session *s)
{
    const cli_options *opt = s->opt;
    cl_request req;
    char err[256];
    if (md_request(opt, &req, err, sizeof err) != 0)
        die(CL_EXIT_USAGE, "%s", err);
    cl_cost c;
    if (cl_request_cost(&req, &c) != 0)
        die(CL_EXIT_USAGE, "%s", "not a valid request: no active lane");
    md_print(stdout, &req);
    char dot_path[PATH_MAX], svg_path[PATH_MAX + 8];
    snprintf(dot_path, sizeof dot_path, "%s", opt->figure ? opt->figure : "model.dot");
    snprintf(svg_path, sizeof svg_path, "%.*s.svg", stem_length(dot_path), dot_path);
    char title[128];
    snprintf(title, sizeof title, _("one warp request, %u B per lane"), req.size);
    figure_written(md_figure(&req, title, dot_path, svg_path), dot_path, svg_path);
    return CL_EXIT_OK;
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
        req.addr[l] = b->addr[l];
    char dot_path[64], svg_path[64], title[1400];
    snprintf(dot_path, sizeof dot_path, "explain-%s.dot", o->spec->id);
    snprintf(svg_path, sizeof svg_path, "explain-%s.svg", o->spec->id);
    snprintf(title, sizeof title, _("lab %s, %s:%u (%s): one sampled warp"), o->spec->id, b->file,
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

/* The labs named on the command line, in order, or every lab. */
#ifdef CL_HAVE_BATCH
static co_course course; /* --course: the course's copies of the lab specs */
#endif

/* A lab's spec as this run grades it: the course's copy where a course file is given. */
static const lab_spec *as_graded(const session *s, const lab_spec *spec)
{
#ifdef CL_HAVE_BATCH
    if (s->opt->course) {
        for (size_t i = 0; i < course.nlabs; ++i)
            if (!strcmp(course.labs[i].id, spec->id))
                return &course.labs[i];
        fprintf(stderr,
                "grade: lab %s is not one of the course's (see 'grade --course %s --print')\n",
                spec->id, s->opt->course);
        exit(CL_EXIT_USAGE);
    }
#endif
    (void)s;
    return spec;
}

static void select_labs(session *s)
{
    const cli_options *opt = s->opt;
    s->labs = calloc(opt->nlabs ? opt->nlabs : lab_count, sizeof *s->labs);
    if (!s->labs)
        die(CL_EXIT_ENV, "%s", "out of memory");
    for (size_t i = 0; i < opt->nlabs; ++i) {
        const lab_spec *spec = lab_find(opt->labs[i]);
        if (!spec)
            die(CL_EXIT_USAGE, "unknown lab '%s' (see 'grade --list')", opt->labs[i]);
        s->labs[s->nlabs++] = as_graded(s, spec);
    }
#ifdef CL_HAVE_BATCH
    for (size_t i = 0; !opt->nlabs && opt->course && i < course.nlabs; ++i)
        s->labs[s->nlabs++] = &course.labs[i];
#endif
    for (size_t i = 0; !opt->nlabs && !opt->course && i < lab_count; ++i)
        s->labs[s->nlabs++] = lab_table[i];
}

/* --course FILE: read before anything else runs (and, with --print, shown). */
static void load_course(const cli_options *opt)
{
    if (!opt->course)
        return;
#ifdef CL_HAVE_BATCH
    char why[1024];
    if (co_load(opt->course, &course, why, sizeof why) != 0)
        die(CL_EXIT_USAGE, "%s", why);
    if (opt->print) {
        co_print(stdout, &course);
        exit(CL_EXIT_OK);
    }
#else
    die(CL_EXIT_ENV, "%s",
        "this grader was built without course files: install libyaml-dev, then rebuild with "
        "CMake");
#endif
}

/* Whether a lab's replays and recording start with it and its outputs are checked while the
 * run child still measures (gr_config.early_replays, early_recording, early_checks): yes,
 * unless GRADE_EARLY=0 (none of them) or GRADE_EARLY=no-recording (the recording in its turn),
 * to measure what each saves (tests/gpu/time_breakdown.sh). */
static int early(const char *unless)
{
    const char *v = getenv("GRADE_EARLY");
    return !(v && (!strcmp(v, "0") || !strcmp(v, unless)));
}

/* The configuration every grade, explore and doctor run shares. */
static void make_config(session *s)
{
    const cli_options *opt = s->opt;
    worker_path(s->worker, sizeof s->worker);
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", s->worker);
    snprintf(s->tracer_dir, sizeof s->tracer_dir, "%s", dirname(copy)); /* beside the worker */
    if (!getcwd(s->cwd, sizeof s->cwd))
        s->cwd[0] = '\0';
    uint64_t seed =
        opt->seed_given ? opt->seed : ((uint64_t)time(NULL) * 2654435761u) ^ (uint64_t)getpid();
    s->cfg = (gr_config){.root = opt->root ? opt->root : CL_SOURCE_DIR,
                         .worker = s->worker,
                         .nvcc = nvcc_path(opt),
                         .arch = opt->arch ? opt->arch : "native",
                         .kernel = opt->kernel,
                         .solution = opt->solution,
                         .seed = seed,
                         .counters = opt->counters,
                         .trace = opt->trace,
                         .tracer_dir = s->tracer_dir,
                         .timing = opt->timing,
                         .compile_timeout_s = 180,
                         .run_timeout_s = opt->timeout_s > 0 ? opt->timeout_s : 60,
                         .trace_timeout_s = 180,
                         .cwd = s->cwd[0] ? s->cwd : NULL,
                         .progress = opt->quiet ? NULL : stderr,
                         .run_id = s->base,
                         .early_replays = early("0"),
                         .early_recording = early("no-recording"),
                         .early_checks = early("0")};
    /* Drawn afresh every run, --seed or not: the replays' arrays, which the recording never
     * sees, and the poison (salt.h). The verdict does not depend on them. */
    sl_run drawn;
    sl_draw_run(&drawn);
    s->cfg.salt = drawn.salt;
    s->cfg.record_salt = drawn.record_salt;
    s->cfg.poison = drawn.poison;
    s->cfg.record_poison = drawn.record_poison;
#ifdef CL_HAVE_BATCH
    if (opt->course && !(opt->timeout_s > 0) && course.timeout_s > 0)
        s->cfg.run_timeout_s = course.timeout_s; /* the course's, where --timeout is not given */
#endif
}

/* Whether the GPU can be used; says why not, for a person, when it cannot. */
static int gpu_ready(session *s, di_info *dev)
{
    char dir[PATH_MAX], why[1024];
    snprintf(dir, sizeof dir, "%s/probe", s->base);
    int confined = 0;
    int gpu = gr_probe(&s->cfg, dir, dev, &confined, why, sizeof why);
    if (gpu < 0)
        fprintf(stderr, _("grade: cannot run the grading child: %s\n"), why);
    else if (gpu > 0)
        no_gpu(why);
    if (gpu != 0)
        snprintf(s->no_gpu, sizeof s->no_gpu, "%s", why);
    s->cfg.confine_recording = confined;
    if (gpu == 0)
        s->slots = pool_slots(dev);
    if (gpu == 0 && confined == GR_UNCONFINED && sb_abi() > 0)
        fprintf(stderr, _("grade: warning: the GPU does not start inside the recording's sandbox "
                          "on this machine, so the student's host code runs unconfined (see "
                          "'grade --doctor')\n"));
    else if (gpu == 0 && confined == GR_WIDE)
        fprintf(stderr, _("grade: warning: the GPU starts inside the recording's sandbox here "
                          "only where it may open every device file, so the student's host code "
                          "can open this terminal (see 'grade --doctor')\n"));
    else if (gpu == 0 && confined == GR_WRITES && gr_confinement_asked() == GR_READS)
        fprintf(stderr, _("grade: warning: the GPU starts inside the recording's sandbox here "
                          "only where it may read every file, so the student's host code can "
                          "read what this user can (see 'grade --doctor')\n"));
    /* nvcc's "native" asks the driver, which the compile's sandbox keeps out of reach (it
     * would quietly build for nvcc's default architecture instead): the probe's answer is
     * given to it. */
    if (gpu == 0 && !strcmp(s->cfg.arch, "native")) {
        snprintf(s->arch, sizeof s->arch, "sm_%d%d", dev->cc_major, dev->cc_minor);
        s->cfg.arch = s->arch;
    }
    return gpu == 0;
}

static int cmd_doctor(session *s)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/doctor", s->base);
    return dr_run(&s->cfg, dir, stdout);
}

/* Says where the explore run's CSV and figure went, or how to draw the figure. */
static void explore_written(const lab_spec *spec, const char *csv)
{
    char gp[PATH_MAX + 8], svg[PATH_MAX + 8], why[512];
    int stem = stem_length(csv);
    snprintf(gp, sizeof gp, "%.*s.gp", stem, csv);
    snprintf(svg, sizeof svg, "%.*s.svg", stem, csv);
    fprintf(stderr, _("grade: wrote '%s'"), csv);
    if (!spec->explore_plot) {
        fputc('\n', stderr);
        return;
    }
    int plot = gr_explore_plot(spec, csv, gp, svg, why, sizeof why);
    if (plot == 0)
        fprintf(stderr, _(", the figure '%s' and its gnuplot script '%s'\n"), svg, gp);
    else if (plot == 1)
        fprintf(stderr, _(" and '%s'; install gnuplot and run 'gnuplot %s' to draw '%s'\n"), gp, gp,
                svg);
    else
        fprintf(stderr, _("; no figure: %s\n"), why);
}

static int cmd_explore(session *s)
{
    di_info dev;
    if (!gpu_ready(s, &dev))
        return CL_EXIT_ENV;
    const lab_spec *spec = s->labs[0];
    char csv[PATH_MAX], dir[PATH_MAX], why[1024];
    snprintf(csv, sizeof csv, "explore-%s.csv", spec->id);
    snprintf(dir, sizeof dir, "%s/explore", s->base);
    const char *written = s->opt->csv ? s->opt->csv : csv;
    char *table = NULL;
    int rc = gr_explore(&s->cfg, spec, dir, written, &table, why, sizeof why);
    fputs(table ? table : "", stdout);
    free(table);
    if (rc != 0) {
        fprintf(stderr, _("grade: the explore run failed: %s\n"), why);
        return CL_EXIT_ENV;
    }
    explore_written(spec, written);
    return CL_EXIT_OK;
}

/* The report in the format asked for, after every lab was graded (text is printed as it
 * goes); the summary line goes to standard error when standard output carries a format. */
static void report(const session *s, FILE *out, const di_info *dev, const oc_outcome *outcomes)
{
    const cli_options *opt = s->opt;
    size_t n = s->nlabs;
    if (opt->format == CLI_TEXT) {
        rp_text_summary(out, outcomes, n);
        return;
    }
    char *text = NULL;
    if (opt->format == CLI_GRADESCOPE) {
        text = rp_gradescope(outcomes, n);
    } else if (opt->format == CLI_CLASSROOM) {
        text = rp_classroom(outcomes, n);
    } else if (opt->format == CLI_JSON) {
        char nv[32];
        dr_nvcc_version(s->cfg.nvcc, nv, sizeof nv);
        rp_manifest m = {.version = CL_VERSION,
                         .nvcc_version = nv,
                         .device = dev,
                         .seed = s->cfg.seed,
                         .arch = s->cfg.arch};
        text = rp_json(&m, outcomes, n);
    }
    if (opt->format == CLI_JUNIT)
        rp_junit(out, outcomes, n);
    else
        fprintf(out, "%s\n", text ? text : "{}");
    free(text);
    rp_text_summary(stderr, outcomes, n);
}

/* The most compiled kernels grade-cache/ keeps: a few versions of every lab's file. */
#define CACHE_KEEP 64

/* Where compiled kernels are kept: grade-cache/ beside grade, from run to run, where grade may
 * write there (a folder of its own, not a link, that no one else may write in); with --no-cache,
 * where it may not, or when this run wants none of an earlier run's (!lasting), a folder of this
 * run's alone, where the labs compiled ahead of their grading are found. Only where the
 * recording is confined: the student's host code could otherwise write into it (choose_cache).
 * cache_place writes where into buf, 1 for the lasting one. */
static int cache_place(const session *s, int lasting, char *buf, size_t size)
{
    struct stat st;
    snprintf(buf, size, "%s/grade-cache", s->tracer_dir);
    if (lasting && !s->opt->no_cache && (mkdir(buf, 0700) == 0 || errno == EEXIST) &&
        lstat(buf, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
        (st.st_mode & 077) == 0 && access(buf, W_OK) == 0)
        return 1;
    snprintf(buf, size, "%s/compiled", s->base);
    return 0;
}

static void choose_cache(session *s, int lasting)
{
    if (!s->cfg.confine_recording)
        return;
    if (cache_place(s, lasting, s->cache, sizeof s->cache))
        s->cfg.compile_cache_keep = CACHE_KEEP;
    s->cfg.compile_cache = s->cache;
}

/* The architecture this grader was built for, where it was built for one (CMake's
 * CMAKE_CUDA_ARCHITECTURES, Makefile.student's ARCH: the GPU of the machine that built it),
 * as "sm_XY"; NULL otherwise. */
static const char *built_arch(void)
{
#ifdef CL_BUILT_ARCH
    const char *a = CL_BUILT_ARCH;
    if (!strncmp(a, "sm_", 3) && a[3] && strspn(a + 3, "0123456789") == strlen(a + 3))
        return a;
#endif
    return NULL;
}

/* A lab graded alone starts its compile before the probe, which takes a quarter of a second to
 * start CUDA (tests/gpu/RESULTS.md, thirteenth session), where nvcc's architecture is known
 * without it (--arch, or the one this grader was built for) and Landlock may confine the
 * recording: a compile ahead (gr_compile_ahead) into the cache choose_cache will choose if it
 * does. Nothing of the student's runs in it. The probe's answer decides whether its result is
 * used (early_compile_settle); it is stopped otherwise. */
static void compile_before_probe(session *s)
{
    const char *arch = strcmp(s->cfg.arch, "native") ? s->cfg.arch : built_arch();
    /* Its stop: a byte on a socket (the compile's child holds both ends, so closing ours
     * would not do; and a socket, unlike a pipe, is written without SIGPIPE once it is gone). */
    int stop[2];
    if (s->nlabs != 1 || !arch || sb_abi() < 1 ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, stop) != 0)
        return;
    gr_config c = s->cfg;
    snprintf(s->early_arch, sizeof s->early_arch, "%s", arch);
    c.arch = s->early_arch;
    if (cache_place(s, 1, s->early_cache, sizeof s->early_cache))
        c.compile_cache_keep = CACHE_KEEP;
    c.compile_cache = s->early_cache;
    c.compile_stop_fd = &stop[0];
    char dir[PATH_MAX], kernel[4096];
    snprintf(dir, sizeof dir, "%s/early", s->base);
    if (s->cfg.kernel)
        snprintf(kernel, sizeof kernel, "%s", s->cfg.kernel);
    else
        gr_default_kernel(&s->cfg, s->labs[0], kernel, sizeof kernel);
    s->early = gr_compile_ahead(&c, s->labs[0], dir, kernel, NULL, 0);
    close(stop[0]);
    s->early_stop = stop[1];
    if (!s->early) {
        close(stop[1]);
        s->early_stop = -1;
    }
}

/* Stops the early compile where it still runs and waits for it. */
static void early_compile_end(session *s)
{
    if (s->early && s->early_stop >= 0) {
        ssize_t said = send(s->early_stop, "s", 1, MSG_NOSIGNAL); /* fails where it has ended */
        (void)said;
    }
    if (s->early_stop >= 0)
        close(s->early_stop);
    s->early_stop = -1;
    if (s->early)
        gr_wait_ahead(s->early);
    s->early = 0;
    s->cfg.compiling = NULL;
}

/* Once the probe has answered: the early compile is used where it compiled for the probed
 * GPU into the cache chosen (s->cfg.compiling then names it), else stopped and waited for. */
static void early_compile_settle(session *s, int gpu)
{
    if (!s->early)
        return;
    if (gpu && s->cfg.compile_cache && !strcmp(s->cfg.compile_cache, s->early_cache) &&
        !strcmp(s->cfg.arch, s->early_arch)) {
        s->cfg.compiling = &s->early;
        return;
    }
    early_compile_end(s);
}

/* Starts the compile of lab i ahead of its grading (gr_compile_ahead), when several are
 * graded. */
static pid_t compile_ahead(const session *s, size_t i)
{
    if (s->nlabs < 2)
        return 0;
    char dir[PATH_MAX], kernel[4096];
    snprintf(dir, sizeof dir, "%s/ahead-%zu", s->base, i); /* a lab named twice: two folders */
    if (s->cfg.kernel)
        snprintf(kernel, sizeof kernel, "%s", s->cfg.kernel);
    else
        gr_default_kernel(&s->cfg, s->labs[i], kernel, sizeof kernel);
    return gr_compile_ahead(&s->cfg, s->labs[i], dir, kernel, NULL, 0);
}

/* A lab's text report (with print) and its --explain figure, as it is done. */
static void show_lab(session *s, const oc_outcome *o, int print)
{
    if (print) {
        rp_text_lab(s->out, o);
        fflush(s->out);
    }
    if (s->opt->explain)
        explain(o);
}

/* Grades every lab chosen into outcomes one after another, the next labs' compiles running on
 * the other cores while one is measured; with print, each lab's text report as it is done. */
static void grade_in_turn(session *s, oc_outcome *outcomes, int print)
{
    pid_t *ahead = calloc(s->nlabs, sizeof *ahead);
    if (!ahead)
        die(CL_EXIT_ENV, "%s", "out of memory");
    size_t window = gr_compiles_ahead(), started = 0;
    for (size_t i = 0; i < s->nlabs; ++i) {
        for (; started < s->nlabs && started < i + 1 + window; ++started)
            ahead[started] = compile_ahead(s, started);
        gr_wait_ahead(ahead[i]);
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%s/lab%s", s->base, s->labs[i]->id);
        gr_remove_tree(dir); /* a lab graded again in this run starts afresh */
        gr_grade_lab(&s->cfg, s->labs[i], dir, &outcomes[i]);
        show_lab(s, &outcomes[i], print);
    }
    free(ahead);
}

typedef struct side_by_side {
    session *s;
    oc_outcome *outcomes;
    char *ended;  /* which labs came back */
    size_t shown; /* the labs before it are printed */
    int print;
} side_by_side;

static void outcome_path(const session *s, size_t i, char *buf, size_t size)
{
    snprintf(buf, size, "%s/outcome-%zu.bin", s->base, i);
}

/* In a process of its own: lab i, its outcome into a file. */
static int grade_one_lab(void *ctx, size_t i, gl_lock *gpu)
{
    side_by_side *b = ctx;
    session *s = b->s;
    gr_config cfg = s->cfg;
    cfg.gpu = gpu;
    char dir[PATH_MAX], path[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/lab%s", s->base, s->labs[i]->id);
    for (size_t j = 0; j < i; ++j)
        if (s->labs[j] == s->labs[i]) /* a lab named twice: two folders */
            snprintf(dir, sizeof dir, "%s/lab%s-%zu", s->base, s->labs[i]->id, i);
    static oc_outcome o;
    gr_grade_lab(&cfg, s->labs[i], dir, &o);
    outcome_path(s, i, path, sizeof path);
    return pool_save_outcome(path, &o) == 0 ? 0 : CL_EXIT_IO;
}

/* Here, as lab i ends: its outcome read back, and the reports of the labs done in order. */
static int lab_ended(void *ctx, size_t i, int status)
{
    side_by_side *b = ctx;
    session *s = b->s;
    char path[PATH_MAX];
    outcome_path(s, i, path, sizeof path);
    oc_outcome *o = &b->outcomes[i];
    if (status != 0 || pool_load_outcome(path, o) != 0) {
        /* Not the kernel's doing: NOT GRADED, never a verdict against it. */
        memset(o, 0, sizeof *o);
        o->spec = s->labs[i];
        if (s->cfg.kernel)
            snprintf(o->kernel_path, sizeof o->kernel_path, "%s", s->cfg.kernel);
        else
            gr_default_kernel(&s->cfg, s->labs[i], o->kernel_path, sizeof o->kernel_path);
        gr_decide(o);
        o->stage = OC_STAGE_UNMEASURED;
        o->verdict = OC_NOT_GRADED;
        o->score = 0;
        o->hint[0] = '\0';
        char how[64];
        if (status < 0)
            snprintf(how, sizeof how, _("it was killed"));
        else if (status > 0)
            snprintf(how, sizeof how, _("it exited %d"), status);
        else
            snprintf(how, sizeof how, _("it left no outcome"));
        snprintf(o->reason, sizeof o->reason,
                 "the grader's process for this lab ended before it was done (%s): a fault of the "
                 "grader, not of the kernel; grade the lab again, alone (GRADE_JOBS=1)",
                 how);
    }
    remove(path);
    b->ended[i] = 1;
    for (; b->shown < s->nlabs && b->ended[b->shown]; b->shown++)
        show_lab(s, &b->outcomes[b->shown], b->print);
    return 0;
}

/* Grades every lab chosen into outcomes, several side by side where the machine has room
 * (pool.h: each in a process of its own, the measured sections alone on the GPU), else one
 * after another; with print, each lab's text report as soon as it and those before it are
 * done. */
static void grade_labs(session *s, oc_outcome *outcomes, int print)
{
    if (s->slots < 2 || s->nlabs < 2) {
        grade_in_turn(s, outcomes, print);
        return;
    }
    if (s->gpu.lock_fd < 0 && gl_create(s->base, &s->gpu) != 0) {
        grade_in_turn(s, outcomes, print); /* no lock here (a file system without flock) */
        return;
    }
    side_by_side b = {.s = s, .outcomes = outcomes, .print = print, .ended = calloc(s->nlabs, 1)};
    if (!b.ended)
        die(CL_EXIT_ENV, "%s", "out of memory");
    /* One process counts every lab's counters (countreq.h): CUPTI's start paid once, while
     * the labs compile and record (tests/gpu/count_server.sh, tests/gpu/RESULTS.md, sixteenth
     * and seventeenth sessions). GRADE_COUNT_SERVER=0: each lab counts in its own children.
     * Not where the driver lets only administrators count and this is not one: every lab
     * would ask the server, then count in a child of its own to say so. */
    gr_counting counting = {-1, -1};
    ch_server *server = NULL;
    const char *knob = getenv("GRADE_COUNT_SERVER");
    int may_count = di_profiling_admin_only("/proc/driver/nvidia/params") != 1 || geteuid() == 0;
    if (s->cfg.counters && may_count && !(knob && !strcmp(knob, "0"))) {
        char log[PATH_MAX + 32];
        snprintf(log, sizeof log, "%s/count-server.log", s->base);
        server = ch_serve(s->cfg.worker, &s->gpu, log, &counting.sock);
        counting.pid = ch_server_pid(server);
        if (server)
            s->cfg.counting = &counting;
    }
    pool_run(s->nlabs, s->slots, &s->gpu, grade_one_lab, lab_ended, &b);
    ch_serve_end(server, counting.sock, 10.0);
    s->cfg.counting = NULL;
    free(b.ended);
}

static int cmd_grade(session *s)
{
    const cli_options *opt = s->opt;
    FILE *out = s->out;
    di_info dev;
    compile_before_probe(s);
    int gpu = gpu_ready(s, &dev);
    if (gpu)
        choose_cache(s, 1);
    early_compile_settle(s, gpu);
    if (!gpu) {
        /* A platform that reads the report (Gradescope, a script) gets one that says why. */
        char *text =
            opt->format == CLI_GRADESCOPE  ? rp_gradescope_none(s->labs, s->nlabs, s->no_gpu)
            : opt->format == CLI_CLASSROOM ? rp_classroom_none(s->labs, s->nlabs, s->no_gpu)
            : opt->format == CLI_JSON      ? rp_json_none(s->no_gpu)
                                           : NULL;
        if (text)
            fprintf(out, "%s\n", text);
        free(text);
        return CL_EXIT_ENV;
    }
    if (opt->format == CLI_TEXT)
        fprintf(out, _("grading on %s (compute capability %d.%d), seed %llu\n"), dev.name,
                dev.cc_major, dev.cc_minor, (unsigned long long)s->cfg.seed);
    oc_outcome *outcomes = calloc(s->nlabs, sizeof *outcomes);
    if (!outcomes)
        die(CL_EXIT_ENV, "%s", "out of memory");
    grade_labs(s, outcomes, opt->format == CLI_TEXT);
    early_compile_end(s);
    report(s, out, &dev, outcomes);
    rp_counts c = rp_count(outcomes, s->nlabs);
    for (size_t i = 0; i < s->nlabs; ++i)
        oc_free(&outcomes[i]);
    free(outcomes);
    return c.failed ? CL_EXIT_FAIL : c.skipped ? CL_EXIT_ENV : CL_EXIT_OK;
}

/* grade --bench: every lab's stub, then its solution, then the solutions again, each pass
 * timed; the table on standard output and as CSV. The first two passes compile afresh (a cache
 * of this run's alone), the third finds what they compiled. */
static int cmd_bench(session *s)
{
    const cli_options *opt = s->opt;
    di_info dev;
    if (!gpu_ready(s, &dev))
        return CL_EXIT_ENV;
    char solution[4096];
    s->cfg.solution = 1;
    gr_default_kernel(&s->cfg, s->labs[0], solution, sizeof solution);
    if (access(solution, R_OK) != 0)
        die(CL_EXIT_USAGE,
            "--bench grades the reference solutions too, and there is none here ('%s'): run it "
            "in the instructor's copy",
            solution);
    const char *csv_path = opt->csv ? opt->csv : "bench.csv";
    FILE *csv = fopen(csv_path, "w");
    if (!csv)
        die(CL_EXIT_ENV, "cannot write '%s'", csv_path);
    choose_cache(s, 0);
    oc_outcome *o = calloc(3 * s->nlabs, sizeof *o);
    if (!o)
        die(CL_EXIT_ENV, "%s", "out of memory");
    double seconds[3];
    for (int pass = 0; pass < 3; ++pass) {
        s->cfg.solution = pass > 0;
        s->cfg.run_id = pass == 2 ? "again" : s->base; /* the third finds them compiled before */
        double t = rn_now_s();
        grade_labs(s, o + pass * s->nlabs, 0);
        seconds[pass] = rn_now_s() - t;
    }
    time_t now = time(NULL);
    char date[32];
    strftime(date, sizeof date, "%Y-%m-%d", localtime(&now));
    rp_bench b = {.gpu = dev.name,
                  .date = date,
                  .seed = s->cfg.seed,
                  .stubs = o,
                  .solutions = o + s->nlabs,
                  .n = s->nlabs,
                  .stubs_s = seconds[0],
                  .solutions_s = seconds[1],
                  .again_s = seconds[2],
                  .dev = &dev,
                  .no_cache = !s->cfg.confine_recording};
    rp_bench_table(s->out, csv, &b);
    int failed = fclose(csv) != 0;
    if (failed)
        fprintf(stderr, _("grade: cannot write '%s'\n"), csv_path);
    else
        fprintf(stderr, _("grade: wrote '%s'\n"), csv_path);
    for (size_t i = 0; i < 3 * s->nlabs; ++i)
        oc_free(&o[i]);
    free(o);
    return failed ? CL_EXIT_ENV : CL_EXIT_OK;
}

#ifdef CL_HAVE_BATCH
/* Rows of several students side by side only where no student's recording can signal another's
 * grading (Landlock ABI 6 scopes signals to the sandbox): one after another elsewhere. */
static unsigned batch_slots(const session *s)
{
    return s->cfg.confine_recording && sb_abi() >= 6 ? s->slots : 1;
}
#endif

/* --submissions DIR: every student's labs, into a gradebook and feedback files (batch.h). */
static int cmd_batch(session *s)
{
#ifdef CL_HAVE_BATCH
    const cli_options *opt = s->opt;
    if (opt->check) { /* what would be graded: no GPU, nothing compiled */
        bt_options bo = {.submissions = opt->submissions, .labs = s->labs, .nlabs = s->nlabs};
        return bt_check(&bo, stdout);
    }
    di_info dev;
    if (!gpu_ready(s, &dev))
        return CL_EXIT_ENV;
    if (!opt->quiet)
        fprintf(stderr, _("grade: grading on %s (compute capability %d.%d), seed %llu\n"), dev.name,
                dev.cc_major, dev.cc_minor, (unsigned long long)s->cfg.seed);
    bt_options bo = {.submissions = opt->submissions,
                     .out = opt->output ? opt->output : "grades",
                     .resume = opt->resume,
                     .labs = s->labs,
                     .nlabs = s->nlabs,
                     .workdir = s->base,
                     .keep = opt->keep,
                     .shard = opt->shard,
                     .shards = opt->shards,
                     .gpus = dev.count > 0 ? (unsigned)dev.count : 1,
                     .slots = batch_slots(s)};
    return bt_run(&s->cfg, &bo, opt->quiet ? NULL : stderr);
#else
    (void)s;
    die(CL_EXIT_ENV, "%s",
        "this grader was built without batch grading: install libarchive-dev and libcsv-dev, "
        "then rebuild with CMake");
    return CL_EXIT_ENV;
#endif
}

static int cmd_help(session *s)
{
    (void)s;
    fputs(cli_help(), stdout);
    return CL_EXIT_OK;
}

static int cmd_version(session *s)
{
    (void)s;
    printf("grade %s\n", CL_VERSION);
    return CL_EXIT_OK;
}

/* Every action: what it runs, and whether it runs grading children (then it gets the
 * configuration, the labs chosen and a work folder). */
static const struct {
    cli_action action;
    int children;
    int (*run)(session *s);
} actions[] = {
    {CLI_HELP, 0, cmd_help},     {CLI_VERSION, 0, cmd_version}, {CLI_LIST, 0, cmd_list},
    {CLI_MODEL, 0, cmd_model},   {CLI_GRADE, 1, cmd_grade},     {CLI_EXPLORE, 1, cmd_explore},
    {CLI_DOCTOR, 1, cmd_doctor}, {CLI_BATCH, 1, cmd_batch},     {CLI_BENCH, 1, cmd_bench},
};

/* Whether a file can be made at path: its folder exists and is writable. */
static int writable_place(const char *path)
{
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", path);
    return access(dirname(copy), W_OK) == 0;
}

/* Writes size bytes to path through a new file beside it and a rename: whatever was at path
 * (a link, another file) is replaced, not written through. Returns 0, or -1. */
static int write_whole(const char *path, const char *data, size_t size)
{
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    int ok = f && fwrite(data, 1, size, f) == size;
    if (f ? fclose(f) != 0 : close(fd) != 0)
        ok = 0;
    if (ok && (chmod(tmp, 0644) != 0 || rename(tmp, path) != 0))
        ok = 0;
    if (!ok)
        unlink(tmp);
    return ok ? 0 : -1;
}

/* Sets up the session of an action that runs children, runs it, and cleans up after it. */
static int run_with_children(session *s, int (*run)(session *s))
{
    const cli_options *opt = s->opt;
    select_labs(s);
    if (opt->kernel && access(opt->kernel, R_OK) != 0)
        die(CL_EXIT_USAGE, "cannot read '%s'", opt->kernel);
    make_config(s);
    for (size_t i = 0; opt->solution && i < s->nlabs; ++i) {
        char path[PATH_MAX];
        gr_default_kernel(&s->cfg, s->labs[i], path, sizeof path);
        if (access(path, R_OK) != 0)
            die(CL_EXIT_USAGE, "no reference solution '%s' (a student edition has none)", path);
    }
    /* Checked before the work folder exists, so a bad path leaves nothing behind; written
     * only when every child has ended (nothing the student started can touch it). */
    if (opt->action == CLI_GRADE && opt->output) {
        if (!writable_place(opt->output))
            die(CL_EXIT_ENV, "cannot write '%s'", opt->output);
        if (!(s->out = open_memstream(&s->report, &s->report_size)))
            die(CL_EXIT_ENV, "%s", "out of memory");
    }
    snprintf(s->base, sizeof s->base, "/tmp/grade-XXXXXX");
    if (!mkdtemp(s->base))
        die(CL_EXIT_ENV, "cannot create a work folder under '%s'", "/tmp");
    int status = run(s);
    if (s->out != stdout) {
        fclose(s->out);
        if (write_whole(opt->output, s->report, s->report_size) != 0) {
            fprintf(stderr, _("grade: cannot write '%s'\n"), opt->output);
            status = CL_EXIT_ENV;
        }
        free(s->report);
    }
    if (opt->keep)
        fprintf(stderr, _("grade: kept the work folder '%s'\n"), s->base);
    else
        gr_remove_tree(s->base);
    free(s->labs);
    return status;
}

/* --lang's value, read before anything is printed (the parser's errors are translated too). */
static const char *lang_option(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; ++i)
        if (!strcmp(argv[i], "--lang"))
            return argv[i + 1];
    return NULL;
}

int main(int argc, char **argv)
{
    cli_options opt;
    char err[512];
    if (i18n_setup(lang_option(argc, argv), argv[0]) != 0)
        die(CL_EXIT_USAGE, "%s", "--lang is en or zh");
    if (cli_parse(argc, argv, &opt, err, sizeof err) != 0)
        die(CL_EXIT_USAGE, "%s", err);
    /* Whatever a child leaves running comes back to us, to be stopped (runner.h). */
    rn_adopt_orphans();
    load_course(&opt);
    session s = {.opt = &opt, .out = stdout, .gpu = GL_NONE, .early_stop = -1};
    for (size_t i = 0; i < sizeof actions / sizeof actions[0]; ++i)
        if (actions[i].action == opt.action)
            return actions[i].children ? run_with_children(&s, actions[i].run) : actions[i].run(&s);
    die(CL_EXIT_USAGE, "%s", "nothing to do");
    return CL_EXIT_USAGE;
}
