/*
 * cli.h - the command line of 'grade', parsed into options; no side effects, so it is tested.
 */
#ifndef CL_CLI_H
#define CL_CLI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CLI_MAX_LABS 16

typedef enum cli_action {
    CLI_GRADE,
    CLI_LIST,
    CLI_HELP,
    CLI_VERSION,
    CLI_DOCTOR,
    CLI_EXPLORE,
    CLI_MODEL,
    CLI_BATCH, /* --submissions DIR */
    CLI_BENCH  /* --bench */
} cli_action;

typedef enum cli_format { CLI_TEXT, CLI_JSON, CLI_GRADESCOPE, CLI_JUNIT, CLI_CLASSROOM } cli_format;

typedef struct cli_options {
    cli_action action;
    const char *labs[CLI_MAX_LABS]; /* as typed: "01", "1", "dram-burst"; none means all */
    size_t nlabs;
    const char *kernel; /* --kernel FILE */
    int solution;       /* --solution */
    cli_format format;
    const char *output;      /* --output FILE (with --submissions: a folder); NULL means stdout */
    const char *submissions; /* --submissions DIR: a folder of submissions, one per student */
    int resume;              /* --resume: go on with the batch's gradebook */
    int check;               /* --check: say what a batch would grade and refuse, grade nothing */
    unsigned shard, shards;  /* --shard K/N: only the submissions whose index % N is K */
    const char *course;      /* --course FILE: the course's labs and settings (course.h) */
    int print;               /* --print: with --course, show its effective settings */
    uint64_t seed;
    int seed_given;
    const char *root, *arch, *nvcc, *csv;
    int counters, timing, trace; /* engines on (1) or off (0) */
    double timeout_s;            /* --timeout; 0 means the default */
    int keep, quiet;
    int no_cache; /* --no-cache: compile every kernel again, keep no compiled kernels */
    int explain;  /* --explain: draw a sampled warp of the worst instruction */
    /* --model: one warp request described by hand */
    unsigned model_size;         /* bytes per lane (--size), default 4 */
    long long model_stride;      /* bytes between lanes (--stride), default the size */
    long long model_offset;      /* bytes (--offset) */
    unsigned model_active;       /* lane mask (--active) */
    const char *model_addresses; /* --addresses a,b,c,...: one per active lane, overrides */
    const char *figure;          /* --figure FILE.dot */
    const char *lang;            /* --lang en|zh: the messages' language (i18n.h) */
} cli_options;

/* Parses argv into *o. Returns 0, or 2 with a one-line message in err (git's grammar) for a
 * usage error. */
int cli_parse(int argc, char **argv, cli_options *o, char *err, size_t err_size);

/* The --help text, made from the table of options (static storage). */
const char *cli_help(void);

#ifdef __cplusplus
}
#endif

#endif
