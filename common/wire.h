/*
 * wire.h - everything that travels between the grader, its grading child (grade-worker) and
 * the trace engine injected into that child: the child's modes and command line, the names of
 * files and environment variables, and one record type per message, each with a writer and a
 * reader. Nothing else writes or reads these names.
 *
 *   grader --argv (wi_args)--> grade-worker record --result.json (wi_result)--> grader
 *                                   |            --record.json (wi_record)--> the replays
 *                              grade-worker run|trace|counters (replays) --result.json--> grader
 *                                   | tracer.c --trace.json (wi_trace)--> grader
 *
 * Records travel as JSON (cJSON) files in the child's work folder. A writer returns a new
 * cJSON object (the caller owns it; NULL when out of memory); a reader fills a struct from one
 * and returns 0, or -1 with why naming the first key that is missing or of the wrong type: a
 * renamed key is an error on the reading side, never a silent 0. Sections that a mode does
 * not write (a probe has no run) are absent as a whole, and the reader says so with a flag.
 */
#ifndef CL_WIRE_H
#define CL_WIRE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "coalesce.h"
#include "devinfo.h"
#include "trace_analysis.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- names ---- */

#define WI_RESULT_FILE "result.json"             /* the child's record, in its work folder */
#define WI_TRACE_FILE "trace.json"               /* the tracer's record, beside it */
#define WI_EXPLORE_CSV "explore.csv"             /* an explore run's table */
#define WI_RECORD_FILE "record.json"             /* the student's launches, recorded */
#define WI_TRACE_RECORD_FILE "record-trace.json" /* the same, on the trace's smaller problem */
#define WI_REPLAY_IMAGE "kernel.fatbin" /* in the replays' folder: the device code replayed */
#define WI_COUNTERS_DIR "counters"      /* ... and where the counters' replay leaves its result */
#define WI_CHECK_RECORD_FILE "record-check-%02u.json" /* ... on check shape %u (printf) */
#define WI_CHECK_DIR "check-%02u"       /* where a replay saves what it made on check shape %u */
#define WI_TRACER_LIB "libcl_tracer.so" /* the trace engine, beside grade-worker */
#define WI_TRACER_PATCH "cl_trace_patch.fatbin"  /* its device patch, beside it */
#define WI_ENV_INJECTION "CUDA_INJECTION64_PATH" /* how the driver is told to load the tracer */
#define WI_ENV_TRACE_PATCHES "CL_TRACE_PATCHES"  /* the patch, for the tracer */
#define WI_ENV_TRACE_OUT "CL_TRACE_OUT"          /* where the tracer writes its record */
#define WI_ENV_TRACE_SAMPLE "CL_TRACE_SAMPLE"    /* trace one warp in N (default 16) */
#define WI_ENV_TRACE_MAX_RECORDS "CL_TRACE_MAX_RECORDS" /* records per launch (default 2^18) */
#define WI_ENV_TRACE_KEY "CL_TRACE_KEY"                 /* the trace's sampling key (hex) */
/* The data salt (salt.h), decimal: the replays' is the grading run's secret, so it travels in
 * their environment, which a confined recording cannot read (Landlock keeps it from tracing
 * them), and never on a command line, which any process may read in /proc; the recording is
 * given its own. None: salt 0. */
#define WI_ENV_DATA_SALT "CL_DATA_SALT"
/* The tracer's function the grading child calls (found with dlsym) to tell it the lab's
 * buffers: void cl_tracer_watch(const uint64_t *ranges, int n), four numbers a buffer: its
 * allocation [lo, hi) and the part of it the lab uses [in_lo, in_hi). */
#define WI_TRACER_WATCH "cl_tracer_watch"

/* The largest record file a reader accepts. */
#define WI_MAX_FILE_BYTES ((size_t)64 << 20)

/* ---- the child's command line ---- */

typedef enum wi_mode {
    WI_PROBE,    /* what GPU is there */
    WI_RECORD,   /* the student's host code, once: its launches recorded, its outputs saved */
    WI_RUN,      /* a replay, its outputs saved; then (unless told not) timed replays */
    WI_COUNTERS, /* a replay under CUPTI; without a lab, the doctor's self-test */
    WI_TRACE,    /* a replay, traced (the tracer is injected by the grader) */
    WI_EXPLORE,  /* the lab's explore run: grader-owned kernels, a table and a CSV */
    WI_NMODES
} wi_mode;

/* "probe", "run", ...; NULL for a value out of range. */
const char *wi_mode_name(wi_mode m);
/* Sets *m from its name; 0, or -1 for an unknown name. */
int wi_mode_parse(const char *name, wi_mode *m);

typedef struct wi_args {
    wi_mode mode;
    const char *lab;     /* the lab's number, or NULL */
    const char *kernel;  /* WI_RECORD: the compiled kernel object (host and device code) */
    const char *image;   /* the replays: the kernel's device code alone (a fatbin) */
    const char *record;  /* the replays: the record of the launches to replay */
    const char *workdir; /* where the child writes (required) */
    uint64_t seed;
    /* The poison of every output and guard (salt.h, sl_poison); 0: none given, the child's
     * SL_DEFAULT_POISON. */
    uint32_t poison;
    int no_timing;       /* WI_RUN: save the outputs, time nothing */
    int shared_counters; /* WI_COUNTERS (and WI_RUN's counters): shared-memory bank conflicts */
    /* WI_RUN: the counters engine in the same process (after the timing; before it, with the
     * GPU shared, where the child is handed a lock and the lab's counters allow), its result
     * and outputs in this folder as a WI_COUNTERS child leaves them; NULL: no counters. */
    const char *counters_dir;
    /* The replays: the GPU lock of labs graded side by side, "FD:FD:FD" of descriptors the
     * child inherits (gpulock.h); NULL: none, the GPU is the child's alone. */
    const char *gpu_lock;
    /* Started early (ch_start_early), the child reads its go from this inherited descriptor
     * ("FD") once it has set itself up: one line naming the folder its relative paths resolve
     * in. A run child keeps it and writes "m" on it once it has measured (ch_measured); the
     * recording closes it before it loads the student's code. NULL: none, it starts at once. */
    const char *go_fd;
    /* WI_COUNTERS without a lab: the counting server (countreq.h), serving the requests that
     * come on this inherited socket ("FD") until every sender's end is closed. NULL: none. */
    const char *serve_fd;
} wi_args;

/* How long a replay waits for the GPU lock before it gives up with CL_EXIT_GPU_BUSY (its
 * parent then runs it again with the GPU to itself). */
#define WI_GPU_WAIT_S 10.0
/* What a child handed the lock may wait in all, beside its own time (child.c first_run): its
 * seven limited takes and its retake after measuring. */
#define WI_GPU_WAIT_S_BESIDE (8 * WI_GPU_WAIT_S)

#define WI_MAX_ARGV 30
/* Room for the digits of the seed and of the poison (wi_args_to_argv). */
#define WI_ARG_DIGITS 48
/* Writes the command line for a into argv (program first, NULL last), the digits of its
 * numbers into digits (which must outlive argv). Returns the number of arguments. */
int wi_args_to_argv(const char *program, const wi_args *a, char digits[WI_ARG_DIGITS],
                    const char *argv[WI_MAX_ARGV]);
/* Parses argc/argv (argv[0] is the program) into *a. Returns 0, or -1 with why. */
int wi_args_parse(int argc, char *const argv[], wi_args *a, char *why, size_t why_size);

/* ---- result.json: what the child says ---- */

typedef struct wi_device {
    di_info info;
    char error[64];       /* cudaGetErrorName of why no device can be used; "" when one can */
    char error_text[256]; /* cudaGetErrorString of it */
} wi_device;

typedef struct wi_run {
    int launched;        /* the lab's work ran to the end and its outputs were saved */
    int guards_intact;   /* no byte around an output or input changed (0: not checked) */
    double useful_bytes; /* the fewest bytes the task moves (its problem's size) */
    /* The task's least traffic, loads and stores apart (wk_lab.least): the yardstick the
     * sectors every kernel moved are weighed against (decide.c). */
    double least_load_bytes, least_store_bytes;
    int checked_after_timing; /* the saved outputs are those of one more launch after timing */
    /* The first of the lab's inputs that a replay of this child changed (its name, "x"), any
     * byte of its allocation, guards and padding included; "" when every one was left as the
     * lab set it up. */
    char input_changed[64];
} wi_run;

typedef struct wi_time {
    double median_ms, min_ms, max_ms;
    int repeats;
    double bytes;       /* the bytes this time is for */
    double bytes_per_s; /* bytes / median */
} wi_time;

/* A working set smaller than this many times the GPU's L2 is partly served from the cache; the
 * bandwidth ceiling's copies use buffers at least this large. */
#define WI_WORKING_SET_L2S 4

typedef struct wi_timing {
    wi_time student;             /* the lab's work */
    wi_time ceiling;             /* this GPU's bandwidth ceiling, the same run's best copy */
    char ceiling_kernel[16];     /* which copy that was (wk_sol_copy_name): "float4 8/SM" */
    double ceiling_buffer_bytes; /* the size of each of its two buffers */
    int has_baseline;
    wi_time baseline; /* the lab's own baseline kernel, when it has one */
    double flush_bytes;
} wi_timing;

typedef enum wi_engine_status {
    WI_ENGINE_OK,
    WI_ENGINE_NO_PERMISSION, /* the driver keeps the counters to administrators */
    WI_ENGINE_UNSUPPORTED,   /* this build, GPU or platform cannot measure (why says which) */
    WI_ENGINE_FAILED         /* the tool or the work failed (why says where) */
} wi_engine_status;

/* The counters read per kernel, in this order (counters.c names the CUPTI metrics alike). */
typedef enum wi_counter {
    WI_LD_REQUESTS, /* global load instructions executed, warp-level */
    WI_LD_SECTORS,  /* the 32-byte sectors they touched */
    WI_LD_BYTES,    /* the bytes they asked for */
    WI_ST_REQUESTS,
    WI_ST_SECTORS,
    WI_ST_BYTES,
    WI_SH_LD_REQUESTS, /* shared-memory loads and stores, and their bank conflicts */
    WI_SH_ST_REQUESTS,
    WI_SH_LD_CONFLICTS,
    WI_SH_ST_CONFLICTS,
    WI_DRAM_READ_BYTES, /* bytes the DRAM read and wrote for the kernel (explore runs) */
    WI_DRAM_WRITE_BYTES,
    WI_NCOUNTERS
} wi_counter;
/* The first WI_NGLOBAL_COUNTERS are always read; the next up to WI_NSHARED_COUNTERS (the
 * shared-memory ones) on request, and the DRAM's after them on request too (counters.h). */
#define WI_NGLOBAL_COUNTERS 6
#define WI_NSHARED_COUNTERS 10

/* The longest kernel name a record carries, its NUL included: a launch of a kernel with a longer
 * one is refused by name, never cut (a cut name names no kernel of the replayed module). */
#define WI_MAX_KERNEL_NAME 4096

#define WI_MAX_KERNELS 16
typedef struct wi_counter_kernel {
    char name[WI_MAX_KERNEL_NAME];
    double v[WI_NCOUNTERS];
} wi_counter_kernel;

typedef struct wi_counters {
    wi_engine_status status;
    int cupti_code; /* the CUptiResult behind a failure, 0 otherwise */
    char why[512];
    char chip[64];
    int passes;
    double setup_ms, measure_ms;
    int nkernels;
    wi_counter_kernel kernels[WI_MAX_KERNELS];
} wi_counters;

typedef struct wi_result {
    wi_mode mode;
    wi_device device;
    int has_run, has_timing, has_counters; /* which sections the child wrote */
    wi_run run;
    wi_timing timing;
    wi_counters counters;
} wi_result;

cJSON *wi_result_to_json(const wi_result *r);
int wi_result_from_json(const cJSON *o, wi_result *r, char *why, size_t why_size);

/* ---- record.json: what the student's launcher did ---- */

#define WI_MAX_BUFFERS 16
#define WI_MAX_OPS 64
#define WI_MAX_PARAMS 64
#define WI_MAX_PARAM_BYTES 4096
#define WI_MAX_RELOCS 64
#define WI_LAB_VALUES 4

/* A pointer in a kernel's parameters, as a place in one of the lab's buffers: the 8 bytes at
 * offset in the parameters are buffer's address (in the replaying process) + delta. */
typedef struct wi_reloc {
    uint32_t offset;
    uint32_t buffer;
    uint64_t delta;
} wi_reloc;

typedef enum wi_op_kind { WI_OP_LAUNCH, WI_OP_COPY, WI_OP_MEMSET } wi_op_kind;

typedef struct wi_op {
    wi_op_kind kind;
    /* WI_OP_LAUNCH */
    char kernel[WI_MAX_KERNEL_NAME]; /* the kernel's (mangled) name in the student's device code */
    uint32_t grid[3], block[3], shared_bytes;
    /* The kernel's attributes as it was launched, which the replay sets again on its own
     * function (what cudaFuncSetAttribute set): the most dynamic shared memory it may have, in
     * bytes (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES), and its preferred shared-memory
     * carveout, in percent (CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT); -1 where the
     * driver did not say, and for the carveout also its default. */
    int32_t max_dynamic_shared, carveout;
    uint32_t nparams;
    uint32_t param_offset[WI_MAX_PARAMS], param_size[WI_MAX_PARAMS];
    uint32_t param_bytes; /* the parameters' whole extent */
    unsigned char params[WI_MAX_PARAM_BYTES];
    uint32_t nrelocs;
    wi_reloc relocs[WI_MAX_RELOCS];
    /* WI_OP_COPY (device to device) and WI_OP_MEMSET, on the default stream: height rows of
     * width bytes, row r of the destination at dst_delta + r * dst_pitch in dst_buffer, of a
     * copy's source at src_delta + r * src_pitch in src_buffer (one row: a linear copy or
     * memset, its pitches those of the row). */
    uint32_t dst_buffer, src_buffer;
    uint64_t dst_delta, src_delta, dst_pitch, src_pitch, width, height;
    uint32_t value; /* WI_OP_MEMSET: the byte written */
} wi_op;

typedef struct wi_buffer_info {
    char name[32];
    uint64_t bytes; /* the whole allocation, guards included */
    int input;      /* one of the lab's inputs, which no copy or memset may write */
} wi_buffer_info;

typedef struct wi_record {
    char refused[512]; /* the first thing the launcher did that its contract forbids; "" none */
    uint32_t nbuffers;
    wi_buffer_info buffers[WI_MAX_BUFFERS];
    uint64_t lab_values[WI_LAB_VALUES]; /* what the lab's own setup noted (lab 07: pitches) */
    uint32_t nops;
    wi_op ops[WI_MAX_OPS];
} wi_record;

cJSON *wi_record_to_json(const wi_record *r);
/* Also checks that every reference is in range (a buffer index, a relocation inside the
 * parameters, a copy or memset inside its buffers and not into an input, an attribute of the
 * driver's range): a record is replayed as it reads. */
int wi_record_from_json(const cJSON *o, wi_record *r, char *why, size_t why_size);
/* The same, as a file (read as wi_read_file reads); 0, or -1 (with why, when reading). */
int wi_record_load(const char *path, wi_record *r, char *why, size_t why_size);
int wi_record_save(const char *path, const wi_record *r);

/* Whether height rows of width bytes, row r at delta + r * pitch, lie inside size bytes (with
 * more than one row, a pitch below the width does not); an empty span fits where delta does.
 * Overflow-safe for any values: records are read untrusted. */
int wi_span_fits(uint64_t size, uint64_t delta, uint64_t pitch, uint64_t width, uint64_t height);

/* ---- trace.json: what the tracer saw ---- */

typedef struct wi_trace_kernel {
    ta_kernel k; /* its name, instructions (each with file, line and one sampled warp), tallies */
    unsigned launches;
    unsigned sample;  /* one warp in sample was traced (the last launch's) */
    double scale;     /* how many requests each analysed record stands for, all launches */
    uint64_t dropped; /* records the buffer had no room for */
    /* Loads (lanes, over the traced warps) that read a lab buffer's guard bytes: out of bounds,
     * just before or after an input or output; the first such load's place in the source. */
    uint64_t oob_reads;
    char oob_file[512];
    unsigned oob_line;
} wi_trace_kernel;

typedef struct wi_trace {
    char error[512]; /* what went wrong inside the tracer; "" when nothing */
    unsigned sample, max_records;
    size_t nkernels;
    wi_trace_kernel *kernels; /* owned; free with wi_trace_free */
} wi_trace;

cJSON *wi_trace_to_json(const wi_trace *t);
/* Allocates t's kernels and instructions; free with wi_trace_free, also after a failure. */
int wi_trace_from_json(const cJSON *o, wi_trace *t, char *why, size_t why_size);
void wi_trace_free(wi_trace *t);

/* ---- pieces, and files ---- */

cJSON *wi_tally_to_json(const cl_tally *t);
int wi_tally_from_json(const cJSON *o, cl_tally *t, char *why, size_t why_size);
cJSON *wi_device_to_json(const wi_device *d);

/* Writes json to path through path.tmp and a rename, so a reader never sees half a file.
 * Returns 0, or -1. */
int wi_write_file(const char *path, const cJSON *json);

/* Creates path afresh for writing ("wb"), whatever was there: an entry of that name (a link, a
 * FIFO, a hard link to another file, planted by student code in the folder) is removed first,
 * and the new file is made with O_EXCL and O_NOFOLLOW, so nothing outside the folder is ever
 * written through it. NULL (errno set) when it cannot. */
FILE *wi_create(const char *path);
/* Reads path, which must be a regular file (a link is not followed, a pipe not waited on) of
 * at most max bytes, into a malloc'ed buffer (NUL-terminated; *size bytes); NULL with why. */
void *wi_read_bytes(const char *path, size_t max, size_t *size, char *why, size_t why_size);
/* Replaces in s, in place, every byte that could move a terminal's cursor or change what is
 * shown: control characters (but newline and tab), DEL, C1 controls and Unicode's
 * bidirectional overrides become '?'; so does every byte that is not part of valid UTF-8
 * (Latin-1 text, a binary file, a name cut inside a character), so that what is cleaned is
 * valid UTF-8 in any CSV, JSON or Markdown file. Every reader above applies it to the strings
 * it reads; apply it to any other text that came from student code. */
void wi_clean_text(char *s);
/* How many bytes of s, at most max, end on a character's boundary (UTF-8; an invalid byte
 * counts as one character): where to cut a name so that no character is cut in two. */
size_t wi_utf8_cut(const char *s, size_t max);
/* Reads and parses path, which must be a regular file (a link is not followed, a pipe not
 * waited on) of at most WI_MAX_FILE_BYTES. Returns the parsed JSON (the caller frees it), or
 * NULL with why. */
cJSON *wi_read_file(const char *path, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif

#endif
