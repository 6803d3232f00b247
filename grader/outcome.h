/*
 * outcome.h - everything grading one lab found, from compile to verdict. grade.c fills the
 * measured part, decide.c the verdict; report.c prints it.
 */
#ifndef CL_OUTCOME_H
#define CL_OUTCOME_H

#include "coalesce.h"
#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum oc_verdict {
    OC_PASS,
    OC_FAIL,
    OC_NOT_GRADED /* correct, but no engine could measure efficiency on this machine */
} oc_verdict;

/* Where grading stopped: the first gate the lab did not pass, in the order gr_decide checks
 * them, or OC_STAGE_PASSED. */
typedef enum oc_stage {
    OC_STAGE_BUILD,         /* the kernel does not compile */
    OC_STAGE_CONTRACT,      /* the launcher did what the lab's contract forbids */
    OC_STAGE_RUN,           /* it did not run to the end */
    OC_STAGE_GUARDS,        /* it wrote outside its outputs */
    OC_STAGE_OUTPUTS,       /* its outputs could not be checked */
    OC_STAGE_CORRECTNESS,   /* its output is wrong */
    OC_STAGE_REMEASURE,     /* correct, but it failed when run again to be measured */
    OC_STAGE_UNMEASURED,    /* correct; no engine could measure it here (NOT GRADED) */
    OC_STAGE_TRAFFIC,       /* correct, but no global loads or stores were seen */
    OC_STAGE_MOVED,         /* correct, but its kernels moved too few of the task's bytes */
    OC_STAGE_COALESCING,    /* correct; loads or stores fall short */
    OC_STAGE_SPEED_UNTIMED, /* correct and coalesced; the speed gate was not timed */
    OC_STAGE_SPEED,         /* correct and coalesced, but too slow */
    OC_STAGE_PASSED
} oc_stage;
/* "build", "run", ..., "passed": the stage as the JSON report names it. */
const char *oc_stage_name(oc_stage s);

/* The engine whose efficiency is graded. */
typedef enum oc_engine { OC_BY_NONE, OC_BY_TRACE, OC_BY_COUNTERS } oc_engine;
/* "", "trace", "counters". */
const char *oc_engine_name(oc_engine e);

typedef enum oc_engine_state {
    OC_ENGINE_NOT_RUN,
    OC_ENGINE_OK,
    OC_ENGINE_NO_PERMISSION,
    OC_ENGINE_UNSUPPORTED,
    OC_ENGINE_FAILED,    /* the engine itself failed (its tool, not the kernel) */
    OC_ENGINE_RUN_FAILED /* the kernel crashed, hung or failed when run under the engine */
} oc_engine_state;

/* Global-memory traffic of the lab's kernels, loads and stores, as one engine measured it. */
typedef struct oc_traffic {
    double requests, sectors, bytes; /* warp-level requests, 32-byte sectors, bytes asked for */
} oc_traffic;

/* One instruction, as the trace saw it, and one sampled warp of it. */
typedef struct oc_worst {
    int found;
    char file[1024];
    unsigned line;
    char text[256]; /* that line of the source, trimmed */
    char kernel[256];
    int is_store;
    unsigned size;
    cl_tally tally;
    double waste; /* sectors beyond the ideal, scaled to the whole run */
    uint32_t active;
    uint64_t addr[CL_WARP_SIZE]; /* one sampled warp's lane addresses (active lanes only) */
} oc_worst;

typedef struct oc_outcome {
    const lab_spec *spec;
    char kernel_path[4096];
    char workdir[4096];

    /* wall seconds of each step, as the grader waited for it (trace_wall_s: the trace, run
     * beside run_s and check_s; check_s: the CPU checks of outputs, inside the others for the
     * measured replays' outputs; counters_s: their share of the run child's time, taken out of
     * run_s); total_s: the lab, from the start */
    double record_s, run_s, trace_wall_s, counters_s, check_s, total_s;

    /* build */
    int compiled;
    int compile_cached; /* taken from gr_config.compile_cache, not compiled again */
    double compile_s;
    char *compile_log; /* owned; the compiler's output */

    /* correctness run */
    int ran;                  /* the child ran the kernel and saved its outputs */
    char run_problem[512];    /* why it did not: crash, timeout, CUDA error, ... */
    int run_status, run_exit; /* the child's rn_status and exit code */
    char *run_log;            /* owned; the child's output, shown as is */
    int guards_intact;
    int check_ok; /* the spec could compare the outputs */
    lab_check check;
    char check_at[160];      /* the check shape check is of, in words; "" for the graded one */
    unsigned shapes_checked; /* problems checked: the graded one and the small check shapes */
    /* a measured replay (the trace's, the counters') whose outputs were wrong: "traced", "" */
    char measured_wrong[64];
    lab_check measured_check; /* what its check found */
    char refused[512];        /* what the launcher did that its contract forbids; "" none */
    int trace_recorded;       /* the launcher was recorded apart on the trace's smaller problem */
    int recorded_run_correct; /* the check failed the replay, not the launcher's own run */

    /* Instructions of the device code (its SASS) that move global memory where the counters do
     * not count it: global atomics and reductions, generic-address loads and stores. Only the
     * trace measures them. */
    size_t counters_blind;

    /* counters engine */
    oc_engine_state counters;
    char counters_why[512];
    char counters_kernels[512]; /* the kernels it saw, comma-separated */
    oc_traffic load, store;
    /* shared memory, as the counters saw it: warp-level instructions and bank conflicts */
    double shared_ld_requests, shared_st_requests, shared_ld_conflicts, shared_st_conflicts;

    /* trace engine */
    oc_engine_state trace;
    char trace_why[512];
    cl_tally trace_loads, trace_stores; /* over the traced (sampled) warps */
    /* The part of them that the counters do not count (counters_blind's instructions): left
     * out where the engines are compared. */
    cl_tally trace_blind[2];
    unsigned trace_sample; /* one warp in trace_sample was traced */
    double trace_records, trace_dropped;
    /* loads (lanes of the traced warps) that read an input's or output's guard bytes, and the
     * first one's place: kernel, file (the compiled one, as the student names it), line, text */
    double oob_reads;
    char oob_kernel[256], oob_file[1024], oob_text[256];
    unsigned oob_line;
    double trace_s;
    /* the load [0] and the store [1] that waste the most sectors, as the trace saw them */
    oc_worst worst[2];
    const oc_worst *blamed; /* the one the report and the hint name (gr_decide); may be NULL */

    /* timing engine */
    int timed;
    double student_ms, student_bytes_per_s;
    /* this GPU's bandwidth ceiling, the same run's best copy over buffers several times the L2
     * (which copy: ceiling_kernel), and the memory's theoretical peak (0: not reported) */
    double ceiling_bytes_per_s, peak_bytes_per_s;
    char ceiling_kernel[16];
    size_t l2_bytes;    /* the GPU's L2, for saying when a working set fits in it */
    double baseline_ms; /* the lab's own baseline kernel, same run (0 when the lab has none) */

    double useful_bytes;       /* the fewest bytes the task moves, as the child reported it */
    double trace_useful_bytes; /* the same for the problem the trace ran (it may be smaller) */
    /* The task's least traffic, loads [0] and stores [1] (wk_lab.least), of the graded problem
     * and of the one the trace ran: the yardstick of the task efficiency (decide.c). */
    double least_bytes[2], trace_least_bytes[2];
    int trace_smaller; /* the trace ran a smaller problem: engines not compared */

    /* verdict */
    oc_stage stage;
    int efficiency_measured;
    oc_engine engine;           /* whose efficiency is graded */
    char disagreement[512];     /* set when trace and counters disagree; reported, not averaged */
    double load_eff, store_eff; /* [0, 1], when measured */
    /* The same against the task's least traffic (least_bytes: its least sectors over the sectors
     * the requests moved), and whether that is the one graded (lower than the engine's own); -1
     * when not applied. */
    double load_task_eff, store_task_eff;
    int load_by_task, store_by_task;
    oc_verdict verdict;
    int score, max_score;
    int score_correct, score_load, score_store, score_speed; /* the parts of score */
    double speedup;    /* baseline time / student time, when the lab has a speed gate and it ran */
    char reason[2600]; /* one line: why it passed or failed */
    char hint[1024];   /* what to try next; empty when passed */
} oc_outcome;

void oc_free(oc_outcome *o);

#ifdef __cplusplus
}
#endif

#endif
