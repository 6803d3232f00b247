/* cli.c - see cli.h. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char cli_help_text[] =
    "usage: grade [options] [LAB...]\n"
    "\n"
    "Grades the coalescing labs on this machine's GPU: compiles each lab's kernel.cu, runs it\n"
    "in a separate process, checks its output against a CPU reference, and measures how\n"
    "well its warps' global memory accesses coalesce.\n"
    "\n"
    "  LAB                 a lab number (01) or name (dram-burst); default: every lab\n"
    "  --list              list the labs and exit\n"
    "  --kernel FILE       grade FILE instead of labs/NN-name/kernel.cu (one lab only)\n"
    "  --solution          grade the reference solutions (instructor checkouts)\n"
    "  --format FORMAT     report format: text (default), json (with a run manifest),\n"
    "                      gradescope (results.json), junit (XML for CI)\n"
    "  --output FILE       write the report to FILE instead of standard output\n"
    "  --seed N            seed of the random inputs (default: a new one each run)\n"
    "  --timeout SECONDS   time limit of each run of a kernel (default: 60)\n"
    "  --no-trace          do not trace the kernel's accesses (Compute Sanitizer)\n"
    "  --no-counters       do not read the GPU's performance counters\n"
    "  --no-timing         do not time the kernel\n"
    "  --explore           run the lab's explore experiment instead of grading\n"
    "  --csv FILE          with --explore: where to write the table (default: explore-NN.csv)\n"
    "  --explain           also draw one sampled warp of the worst instruction\n"
    "                      (explain-NN.dot, and .svg where Graphviz is installed)\n"
    "  --doctor            check the GPU, driver, CUDA, nvcc and counter permission\n"
    "\n"
    "The coalescing model, no GPU needed: grade --model [options] prints what one warp\n"
    "request costs and draws it (model.dot, and .svg where Graphviz is installed):\n"
    "  --size B            bytes each lane reads or writes: 1, 2, 4, 8, 16 (default 4)\n"
    "  --stride B          bytes from one lane's address to the next (default: the size;\n"
    "                      0 is a broadcast)\n"
    "  --offset B          where lane 0 starts, from a 128-byte boundary (default 0)\n"
    "  --active MASK       the lanes taking part, e.g. 0xffff (default: all 32)\n"
    "  --addresses A,B,..  the active lanes' byte addresses instead of a stride\n"
    "  --figure FILE.dot   where to write the figure\n"
    "\n"
    "  --root DIR          the workbook's folder (default: where grade was built from)\n"
    "  --arch ARCH         nvcc -arch for kernels (default: native)\n"
    "  --nvcc PATH         the CUDA compiler (default: $NVCC, then the build's, then PATH)\n"
    "  --keep              keep the work folder (compiled kernel, outputs, result.json)\n"
    "  -q, --quiet         no progress lines on standard error\n"
    "  -h, --help          this text\n"
    "  --version           the grader's version\n"
    "\n"
    "Exit status: 0 every graded lab passed, 1 some failed, 2 usage error,\n"
    "3 environment problem (no GPU, no nvcc, or coalescing could not be measured).\n";

static int usage_error(char *err, size_t size, const char *fmt, const char *arg)
{
    snprintf(err, size, fmt, arg);
    return 2;
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
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int takes_value =
            !strcmp(a, "--kernel") || !strcmp(a, "--format") || !strcmp(a, "--output") ||
            !strcmp(a, "--seed") || !strcmp(a, "--root") || !strcmp(a, "--arch") ||
            !strcmp(a, "--nvcc") || !strcmp(a, "--csv") || !strcmp(a, "--figure") ||
            !strcmp(a, "--addresses") || !strcmp(a, "--size") || !strcmp(a, "--stride") ||
            !strcmp(a, "--offset") || !strcmp(a, "--active") || !strcmp(a, "--timeout");
        if (takes_value && !v)
            return usage_error(err, err_size, "option '%s' needs a value", a);
        if (!strcmp(a, "-h") || !strcmp(a, "--help"))
            o->action = CLI_HELP;
        else if (!strcmp(a, "--version"))
            o->action = CLI_VERSION;
        else if (!strcmp(a, "--list"))
            o->action = CLI_LIST;
        else if (!strcmp(a, "--doctor"))
            o->action = CLI_DOCTOR;
        else if (!strcmp(a, "--explore"))
            o->action = CLI_EXPLORE;
        else if (!strcmp(a, "--model"))
            o->action = CLI_MODEL;
        else if (!strcmp(a, "--explain"))
            o->explain = 1;
        else if (!strcmp(a, "--figure"))
            o->figure = argv[++i];
        else if (!strcmp(a, "--addresses"))
            o->model_addresses = argv[++i];
        else if (!strcmp(a, "--size") || !strcmp(a, "--stride") || !strcmp(a, "--offset") ||
                 !strcmp(a, "--active")) {
            ++i;
            char *end = NULL;
            errno = 0;
            long long x = strtoll(v, &end, 0);
            if (errno || end == v || *end)
                return usage_error(err, err_size, "'%s' is not a number", v);
            if (!strcmp(a, "--size")) {
                if (x != 1 && x != 2 && x != 4 && x != 8 && x != 16)
                    return usage_error(err, err_size, "size '%s' must be 1, 2, 4, 8 or 16", v);
                o->model_size = (unsigned)x;
            } else if (!strcmp(a, "--stride")) {
                o->model_stride = x;
                stride_given = 1;
            } else if (!strcmp(a, "--offset")) {
                o->model_offset = x;
            } else {
                if (x <= 0 || x > 0xffffffffLL)
                    return usage_error(err, err_size, "active mask '%s' needs a lane", v);
                o->model_active = (unsigned)x;
            }
        } else if (!strcmp(a, "--solution"))
            o->solution = 1;
        else if (!strcmp(a, "--no-counters"))
            o->counters = 0;
        else if (!strcmp(a, "--no-trace"))
            o->trace = 0;
        else if (!strcmp(a, "--no-timing"))
            o->timing = 0;
        else if (!strcmp(a, "--keep"))
            o->keep = 1;
        else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
            o->quiet = 1;
        else if (!strcmp(a, "--kernel"))
            o->kernel = argv[++i];
        else if (!strcmp(a, "--output"))
            o->output = argv[++i];
        else if (!strcmp(a, "--root"))
            o->root = argv[++i];
        else if (!strcmp(a, "--arch"))
            o->arch = argv[++i];
        else if (!strcmp(a, "--nvcc"))
            o->nvcc = argv[++i];
        else if (!strcmp(a, "--csv"))
            o->csv = argv[++i];
        else if (!strcmp(a, "--format")) {
            ++i;
            if (!strcmp(v, "text"))
                o->format = CLI_TEXT;
            else if (!strcmp(v, "json"))
                o->format = CLI_JSON;
            else if (!strcmp(v, "gradescope"))
                o->format = CLI_GRADESCOPE;
            else if (!strcmp(v, "junit"))
                o->format = CLI_JUNIT;
            else
                return usage_error(err, err_size,
                                   "unknown format '%s' (text, json, gradescope or junit)", v);
        } else if (!strcmp(a, "--seed")) {
            ++i;
            char *end = NULL;
            errno = 0;
            unsigned long long s = strtoull(v, &end, 0);
            if (errno || end == v || *end || !isdigit((unsigned char)*v))
                return usage_error(err, err_size, "seed '%s' is not a non-negative integer", v);
            o->seed = s;
            o->seed_given = 1;
        } else if (!strcmp(a, "--timeout")) {
            ++i;
            char *end = NULL;
            double t = strtod(v, &end);
            if (end == v || *end || !(t > 0 && t <= 86400))
                return usage_error(err, err_size, "timeout '%s' is not a number of seconds", v);
            o->timeout_s = t;
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage_error(err, err_size, "unknown option '%s' (see 'grade --help')", a);
        } else {
            if (o->nlabs == CLI_MAX_LABS)
                return usage_error(err, err_size, "too many labs named (at most %s)", "16");
            o->labs[o->nlabs++] = a;
        }
    }
    if (!stride_given)
        o->model_stride = o->model_size;
    if (o->action == CLI_HELP || o->action == CLI_VERSION)
        return 0;
    if (o->action == CLI_MODEL && o->nlabs)
        return usage_error(err, err_size, "%s", "--model takes no lab: it describes one request");
    if (o->kernel && o->nlabs != 1)
        return usage_error(err, err_size, "%s",
                           "--kernel grades one lab: name it, e.g. "
                           "'grade --kernel my.cu 01'");
    if (o->kernel && o->solution)
        return usage_error(err, err_size, "%s", "--kernel and --solution exclude each other");
    if (o->action == CLI_EXPLORE && o->nlabs != 1)
        return usage_error(err, err_size, "%s",
                           "--explore runs one lab: name it, e.g. "
                           "'grade --explore 01'");
    return 0;
}
