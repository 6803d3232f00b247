/*
 * cli.c - see cli.h. Every option is one row of the table below: its name, what it sets, the
 * name of its value and its help. The parser and the --help text are both made from the
 * table, so an option and its help cannot drift apart (git's parse-options, in small).
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"

typedef enum opt_kind {
    OPT_ACTION,  /* sets o->action to value */
    OPT_SET,     /* sets an int to value */
    OPT_STRING,  /* a const char * taken as it is */
    OPT_SEED,    /* a non-negative integer; also sets seed_given */
    OPT_SECONDS, /* a number of seconds in (0, 86400] */
    OPT_FORMAT,  /* text, json, gradescope, junit, classroom */
    OPT_SIZE,    /* bytes per lane: 1, 2, 4, 8, 16 */
    OPT_BYTES,   /* a signed number of bytes; --stride also notes it was given */
    OPT_MASK,    /* a lane mask with at least one lane */
    OPT_SHARD    /* K/N with 0 <= K < N */
} opt_kind;

typedef enum opt_group { GROUP_GRADE, GROUP_MODEL, GROUP_SETUP } opt_group;

typedef struct cli_option {
    const char *name;  /* "--seed" */
    const char *alias; /* "-q", or NULL */
    opt_kind kind;
    size_t offset;    /* of the field it sets in cli_options */
    int value;        /* OPT_ACTION: the action; OPT_SET: the value */
    const char *arg;  /* the value's name in --help; NULL when it takes none */
    const char *help; /* lines of help; '\n' starts another */
    opt_group group;
} cli_option;

#define AT(field) offsetof(cli_options, field)

static const cli_option options[] = {
    {"--list", NULL, OPT_ACTION, 0, CLI_LIST, NULL, N_("list the labs and exit"), GROUP_GRADE},
    {"--kernel", NULL, OPT_STRING, AT(kernel), 0, "FILE",
     N_("grade FILE instead of labs/NN-name/kernel.cu (one lab only)"), GROUP_GRADE},
    {"--solution", NULL, OPT_SET, AT(solution), 1, NULL,
     N_("grade the reference solutions (instructor checkouts)"), GROUP_GRADE},
    {"--format", NULL, OPT_FORMAT, AT(format), 0, "FORMAT",
     N_("report format: text (default), json (with a run manifest),\n"
        "gradescope (results.json), junit (XML for CI),\n"
        "classroom (GitHub Classroom's runner result)"),
     GROUP_GRADE},
    {"--output", NULL, OPT_STRING, AT(output), 0, "FILE",
     N_("write the report to FILE instead of standard output"), GROUP_GRADE},
    {"--submissions", NULL, OPT_STRING, AT(submissions), 0, "DIR",
     N_("grade every submission in DIR (a folder or an archive per\n"
        "student: .zip, .tar, .tar.gz, .tgz, .tar.xz, .tar.bz2, .tar.zst,\n"
        ".7z, .rar; a folder may hold the archive uploaded): every entry\n"
        "a row of OUT/gradebook.csv, graded or refused with why, and\n"
        "OUT/feedback/STUDENT.md, where OUT is --output (default: grades)"),
     GROUP_GRADE},
    {"--shard", NULL, OPT_SHARD, AT(shard), 0, "K/N",
     N_("with --submissions: only every Nth submission, from the Kth\n"
        "(0-based; one array task's share, tools/slurm/)"),
     GROUP_GRADE},
    {"--resume", NULL, OPT_SET, AT(resume), 1, NULL,
     N_("with --submissions: go on with OUT/gradebook.csv, grading\nonly what it has no row for"),
     GROUP_GRADE},
    {"--check", NULL, OPT_SET, AT(check), 1, NULL,
     N_("with --submissions: read the class and print, for every\n"
        "student and lab, the file that would be graded or why it is\n"
        "refused or missing; grades nothing, needs no GPU (exit 0 when\n"
        "every row would be graded, 1 otherwise)"),
     GROUP_GRADE},
    {"--course", NULL, OPT_STRING, AT(course), 0, "FILE",
     N_("grade the course's labs with its points, thresholds, visibility\n"
        "and time limit (a YAML file; see grader/course.h)"),
     GROUP_GRADE},
    {"--print", NULL, OPT_SET, AT(print), 1, NULL,
     N_("with --course: show the effective settings of each lab and exit"), GROUP_GRADE},
    {"--seed", NULL, OPT_SEED, AT(seed), 0, "N",
     N_("seed of the task: its scalars and check shapes; the arrays are drawn\n"
        "afresh each run all the same (default: a new one each run)"),
     GROUP_GRADE},
    {"--timeout", NULL, OPT_SECONDS, AT(timeout_s), 0, "SECONDS",
     N_("time limit of each run of a kernel (default: 60)"), GROUP_GRADE},
    {"--no-trace", NULL, OPT_SET, AT(trace), 0, NULL,
     N_("do not trace the kernel's accesses (Compute Sanitizer)"), GROUP_GRADE},
    {"--no-counters", NULL, OPT_SET, AT(counters), 0, NULL,
     N_("do not read the GPU's performance counters"), GROUP_GRADE},
    {"--no-timing", NULL, OPT_SET, AT(timing), 0, NULL, N_("do not time the kernel"), GROUP_GRADE},
    {"--explore", NULL, OPT_ACTION, 0, CLI_EXPLORE, NULL,
     N_("run the lab's explore experiment instead of grading"), GROUP_GRADE},
    {"--bench", NULL, OPT_ACTION, 0, CLI_BENCH, NULL,
     N_("grade every lab's stub and solution (instructor copies) and\n"
        "print bandwidth against this GPU's ceiling and peak, the\n"
        "engines' efficiencies and the grading time of each step"),
     GROUP_GRADE},
    {"--csv", NULL, OPT_STRING, AT(csv), 0, "FILE",
     N_("with --explore or --bench: where to write the table\n"
        "(default: explore-NN.csv, bench.csv)"),
     GROUP_GRADE},
    {"--explain", NULL, OPT_SET, AT(explain), 1, NULL,
     N_("also draw one sampled warp of the worst instruction\n"
        "(explain-NN.dot, and .svg where Graphviz is installed)"),
     GROUP_GRADE},
    {"--doctor", NULL, OPT_ACTION, 0, CLI_DOCTOR, NULL,
     N_("check the GPU, driver, CUDA, nvcc and counter permission"), GROUP_GRADE},
    {"--model", NULL, OPT_ACTION, 0, CLI_MODEL, NULL,
     N_("describe one warp request with the options below"), GROUP_MODEL},
    {"--size", NULL, OPT_SIZE, AT(model_size), 0, "B",
     N_("bytes each lane reads or writes: 1, 2, 4, 8, 16 (default 4)"), GROUP_MODEL},
    {"--stride", NULL, OPT_BYTES, AT(model_stride), 0, "B",
     N_("bytes from one lane's address to the next (default: the size;\n0 is a broadcast)"),
     GROUP_MODEL},
    {"--offset", NULL, OPT_BYTES, AT(model_offset), 0, "B",
     N_("where lane 0 starts, from a 128-byte boundary (default 0)"), GROUP_MODEL},
    {"--active", NULL, OPT_MASK, AT(model_active), 0, "MASK",
     N_("the lanes taking part, e.g. 0xffff (default: all 32)"), GROUP_MODEL},
    {"--addresses", NULL, OPT_STRING, AT(model_addresses), 0, "A,B,..",
     N_("the active lanes' byte addresses instead of a stride"), GROUP_MODEL},
    {"--figure", NULL, OPT_STRING, AT(figure), 0, "FILE.dot", N_("where to write the figure"),
     GROUP_MODEL},
    {"--root", NULL, OPT_STRING, AT(root), 0, "DIR",
     N_("the workbook's folder (default: where grade was built from)"), GROUP_SETUP},
    {"--arch", NULL, OPT_STRING, AT(arch), 0, "ARCH",
     N_("nvcc -arch for kernels (default: native)"), GROUP_SETUP},
    {"--nvcc", NULL, OPT_STRING, AT(nvcc), 0, "PATH",
     N_("the CUDA compiler (default: $NVCC, then the build's, then PATH)"), GROUP_SETUP},
    {"--no-cache", NULL, OPT_SET, AT(no_cache), 1, NULL,
     N_("compile every kernel again (default: a kernel compiled before,\n"
        "the same file, header, flags and nvcc, is taken from the\n"
        "grade-cache/ folder beside grade)"),
     GROUP_SETUP},
    {"--keep", NULL, OPT_SET, AT(keep), 1, NULL,
     N_("keep the work folder (compiled kernel, outputs, result.json)"), GROUP_SETUP},
    {"--quiet", "-q", OPT_SET, AT(quiet), 1, NULL, N_("no progress lines on standard error"),
     GROUP_SETUP},
    {"--lang", NULL, OPT_STRING, AT(lang), 0, "LANG",
     N_("the language of the messages: en or zh (default: from\n"
        "LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"),
     GROUP_SETUP},
    {"--help", "-h", OPT_ACTION, 0, CLI_HELP, NULL, N_("this text"), GROUP_SETUP},
    {"--version", NULL, OPT_ACTION, 0, CLI_VERSION, NULL, N_("the grader's version"), GROUP_SETUP},
};
#define NOPTIONS (sizeof options / sizeof options[0])

/* What --help says before each group of options, and last. */
static const char *const group_intro[] = {
    [GROUP_GRADE] = N_("usage: grade [options] [LAB...]\n"
                       "\n"
                       "Grades the coalescing labs on this machine's GPU: compiles each lab's "
                       "kernel.cu, runs it\n"
                       "in a separate process, checks its output against a CPU reference, and "
                       "measures how\n"
                       "well its warps' global memory accesses coalesce.\n"
                       "\n"
                       "  LAB                 a lab number (01) or name (dram-burst); default: "
                       "every lab\n"),
    [GROUP_MODEL] = N_("\n"
                       "The coalescing model, no GPU needed: grade --model [options] prints what "
                       "one warp\n"
                       "request costs and draws it (model.dot, and .svg where Graphviz is "
                       "installed):\n"),
    [GROUP_SETUP] = "\n",
};
static const char help_tail[] =
    N_("\n"
       "Several labs (and --submissions rows) are graded side by side, one for every two cores\n"
       "and 8 GiB of GPU memory, up to 8; their timing and counters still have the GPU to\n"
       "themselves. GRADE_JOBS=N sets how many (1: one after another).\n"
       "\n"
       "Exit status: 0 every graded lab passed, 1 some failed, 2 usage error,\n"
       "3 environment problem (no GPU, no nvcc, or coalescing could not be measured).\n");

const char *cli_help(void)
{
    static char text[12288];
    if (text[0])
        return text;
    size_t used = 0;
    for (int g = GROUP_GRADE; g <= GROUP_SETUP; ++g) {
        used += (size_t)snprintf(text + used, sizeof text - used, "%s",
                                 *group_intro[g] == '\n' && !group_intro[g][1] ? group_intro[g]
                                                                               : _(group_intro[g]));
        for (size_t i = 0; i < NOPTIONS && used < sizeof text; ++i) {
            const cli_option *op = &options[i];
            if ((int)op->group != g || (g == GROUP_MODEL && op->kind == OPT_ACTION))
                continue;
            char left[64];
            snprintf(left, sizeof left, "%s%s%s%s%s", op->alias ? op->alias : "",
                     op->alias ? ", " : "", op->name, op->arg ? " " : "", op->arg ? op->arg : "");
            const char *h = _(op->help);
            for (int first = 1; *h || first; first = 0) {
                size_t len = strcspn(h, "\n");
                used += (size_t)snprintf(text + used, sizeof text - used, "  %-19s %.*s\n",
                                         first ? left : "", (int)len, h);
                h += len + (h[len] == '\n');
            }
        }
    }
    snprintf(text + used, sizeof text - used, "%s", _(help_tail));
    return text;
}

static int usage_error(char *err, size_t size, const char *fmt, const char *arg)
{
    snprintf(err, size, fmt, arg);
    return 2;
}

static const cli_option *option_named(const char *a)
{
    for (size_t i = 0; i < NOPTIONS; ++i)
        if (!strcmp(a, options[i].name) || (options[i].alias && !strcmp(a, options[i].alias)))
            return &options[i];
    return NULL;
}

static int parse_number(const char *v, long long *x, char *err, size_t size)
{
    char *end = NULL;
    errno = 0;
    *x = strtoll(v, &end, 0);
    if (errno || end == v || *end)
        return usage_error(err, size, _("'%s' is not a number"), v);
    return 0;
}

/* Stores v, the value of op, in *o; 0, or 2 with err for a bad value. */
static int set_value(const cli_option *op, const char *v, cli_options *o, char *err, size_t size)
{
    char *field = (char *)o + op->offset;
    long long x = 0;
    switch (op->kind) {
    case OPT_STRING:
        *(const char **)field = v;
        return 0;
    case OPT_SEED: {
        char *end = NULL;
        errno = 0;
        unsigned long long s = strtoull(v, &end, 0);
        if (errno || end == v || *end || !isdigit((unsigned char)*v))
            return usage_error(err, size, _("seed '%s' is not a non-negative integer"), v);
        o->seed = s;
        o->seed_given = 1;
        return 0;
    }
    case OPT_SECONDS: {
        char *end = NULL;
        double t = strtod(v, &end);
        if (end == v || *end || !(t > 0 && t <= 86400))
            return usage_error(err, size, _("timeout '%s' is not a number of seconds"), v);
        *(double *)field = t;
        return 0;
    }
    case OPT_FORMAT: {
        static const char *const names[] = {"text", "json", "gradescope", "junit", "classroom"};
        for (int f = 0; f < 5; ++f)
            if (!strcmp(v, names[f])) {
                *(cli_format *)field = (cli_format)f;
                return 0;
            }
        return usage_error(
            err, size, _("unknown format '%s' (text, json, gradescope, junit or classroom)"), v);
    }
    case OPT_SIZE:
        if (parse_number(v, &x, err, size))
            return 2;
        if (x != 1 && x != 2 && x != 4 && x != 8 && x != 16)
            return usage_error(err, size, _("size '%s' must be 1, 2, 4, 8 or 16"), v);
        *(unsigned *)field = (unsigned)x;
        return 0;
    case OPT_BYTES:
        if (parse_number(v, &x, err, size))
            return 2;
        *(long long *)field = x;
        return 0;
    case OPT_SHARD: {
        unsigned k, n;
        char end;
        if (sscanf(v, "%u/%u%c", &k, &n, &end) != 2 || n == 0 || k >= n || n > 100000)
            return usage_error(err, size, _("shard '%s' is not K/N with 0 <= K < N"), v);
        o->shard = k;
        o->shards = n;
        return 0;
    }
    case OPT_MASK:
        if (parse_number(v, &x, err, size))
            return 2;
        if (x <= 0 || x > 0xffffffffLL)
            return usage_error(err, size, _("active mask '%s' needs a lane"), v);
        *(unsigned *)field = (unsigned)x;
        return 0;
    default:
        return 0;
    }
}

/* The combinations that make no sense, checked once everything is parsed. */
static int check_combinations(const cli_options *o, char *err, size_t err_size)
{
    if (o->action == CLI_HELP || o->action == CLI_VERSION)
        return 0;
    if (o->action == CLI_MODEL && o->nlabs)
        return usage_error(err, err_size, "%s",
                           _("--model takes no lab: it describes one request"));
    if (o->kernel && o->nlabs != 1)
        return usage_error(err, err_size, "%s",
                           _("--kernel grades one lab: name it, e.g. 'grade --kernel my.cu 01'"));
    if (o->kernel && o->solution)
        return usage_error(err, err_size, "%s", _("--kernel and --solution exclude each other"));
    if (o->print && !o->course)
        return usage_error(err, err_size, "%s", _("--print shows a --course file's settings"));
    if (o->shards && !o->submissions)
        return usage_error(err, err_size, "%s",
                           _("--shard takes a share of a --submissions batch"));
    if (o->resume && !o->submissions)
        return usage_error(err, err_size, "%s", _("--resume goes on with a --submissions batch"));
    if (o->check && !o->submissions)
        return usage_error(err, err_size, "%s", _("--check reads a --submissions class"));
    if (o->submissions && o->action != CLI_GRADE && o->action != CLI_BATCH)
        return usage_error(err, err_size, "%s",
                           _("--submissions grades: it takes no other action"));
    if (o->submissions && (o->kernel || o->solution))
        return usage_error(
            err, err_size, "%s",
            _("--submissions grades the students' files: no --kernel or --solution"));
    if (o->submissions && o->format != CLI_TEXT)
        return usage_error(err, err_size, "%s",
                           _("--submissions writes a CSV gradebook and Markdown feedback: no "
                             "--format"));
    if (o->action == CLI_BENCH && (o->kernel || o->solution || o->format != CLI_TEXT))
        return usage_error(err, err_size, "%s",
                           _("--bench grades each lab's stub and solution and prints a table: no "
                             "--kernel, --solution or --format"));
    if (o->action == CLI_EXPLORE && o->nlabs != 1)
        return usage_error(err, err_size, "%s",
                           _("--explore runs one lab: name it, e.g. 'grade --explore 01'"));
    return 0;
}

int cli_parse(int argc, char **argv, cli_options *o, char *err, size_t err_size)
{
    memset(o, 0, sizeof *o);
    o->action = CLI_GRADE;
    o->counters = o->timing = o->trace = 1;
    o->model_size = 4;
    o->model_active = 0xffffffffu;
    int stride_given = 0;
    err[0] = '\0';
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        const cli_option *op = option_named(a);
        if (!op && a[0] == '-' && a[1] != '\0')
            return usage_error(err, err_size, _("unknown option '%s' (see 'grade --help')"), a);
        if (!op) {
            if (o->nlabs == CLI_MAX_LABS) {
                char max[16];
                snprintf(max, sizeof max, "%d", CLI_MAX_LABS);
                return usage_error(err, err_size, _("too many labs named (at most %s)"), max);
            }
            o->labs[o->nlabs++] = a;
        } else if (op->kind == OPT_ACTION) {
            o->action = (cli_action)op->value;
        } else if (op->kind == OPT_SET) {
            *(int *)((char *)o + op->offset) = op->value;
        } else if (i + 1 >= argc) {
            return usage_error(err, err_size, _("option '%s' needs a value"), a);
        } else if (set_value(op, argv[++i], o, err, err_size)) {
            return 2;
        } else {
            stride_given |= op->offset == AT(model_stride);
        }
    }
    if (!stride_given)
        o->model_stride = o->model_size;
    int rc = check_combinations(o, err, err_size);
    if (rc == 0 && o->submissions)
        o->action = CLI_BATCH;
    return rc;
}
