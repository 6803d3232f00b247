/*
 * worker.h - the grading child ("grade-worker"): the only process that initialises CUDA.
 *
 * The grader starts it once per lab and step, through the runner, and reads back only files
 * it writes into its work directory: raw output arrays (NAME.bin), result.json and, when it
 * records, record.json. Only one step loads the student's kernel object and runs its host
 * code: the recording (WI_RECORD), which calls the launchers once and writes down every
 * launch (record.h). Every other step loads the student's device code alone and replays those
 * launches on buffers of its own (replay.h): the correctness run and the timing, the trace and
 * the counters. Each lab supplies a wk_lab: how to set its problem up on the GPU, call the
 * student's launchers (recording only), and save the outputs. The worker does the rest.
 */
#ifndef CL_WORKER_H
#define CL_WORKER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cuda_runtime_api.h>

#include "devinfo.h"
#include "exit_codes.h"
#include "relocate.h"
#include "seeded.h"
#include "shape.h"
#include "timing.h"
#include "wire.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Guard bytes before and after each buffer the worker allocates, poisoned (wk_poison);
 * touched guards mean out-of-bounds writes. */
#define WK_GUARD_BYTES 4096

typedef struct wk_job {
    const char *lab; /* its number, "01" */
    uint64_t seed;   /* the task's: the scalars the launchers are given (seeded.h sd_seeds) */
    /* The input arrays' (sd_data_seed of seed and the child's data salt, WI_ENV_DATA_SALT):
     * the recording's is another than the replays', which only the grader knows. */
    uint64_t data_seed;
    const char *workdir;
    void *kernel_so; /* dlopen handle of the student's kernel object, NULL in explore mode */
    di_info dev;
    cl_shape shape;           /* the size of the problem to set up (one of the lab's shapes) */
    int shared_counters;      /* the counters engine also reads shared-memory bank conflicts */
    int no_timing;            /* the run saves the outputs and times nothing */
    const char *counters_dir; /* the run also reads the counters, into this folder; or NULL */
    /* The record being replayed and the device code it runs; NULL while recording (then
     * kernel_so is the student's). */
    const wi_record *record;
    const char *image;
    const char *record_dir; /* the folder the records are in (those of the check shapes too) */
} wk_job;

/* Finds symbol name in the kernel object; on failure prints why and exits CL_EXIT_CONTRACT.
 * In a replay there is no kernel object (no student host code): it returns NULL, and the
 * lab's launch is never called. */
void *wk_symbol(const wk_job *job, const char *name);

/* The current device's multiprocessors, into *sms (sol_copy.cu). */
cudaError_t wk_multiprocessors(int *sms);

/* Seeded inputs made on the GPU (fill.cu): dev[r * row_stride + c * col_stride] is value
 * r * cols + c of u's stream for seed, r < rows, c < cols: the floats sd_fill_uniform makes on
 * the CPU for the same (seed, stream, range), bit for bit. */
cudaError_t wk_fill_uniform(float *dev, uint64_t seed, const sd_uniform *u, size_t rows,
                            size_t cols, size_t row_stride, size_t col_stride);

/* The poison of this run (salt.h: a NaN with a random payload, --poison): written over every
 * output before the student's work and over every guard; an element that still holds it was
 * never written. */
uint32_t wk_poison(void);
/* Fills bytes (a multiple of 4) of device memory at dev (4-byte aligned) with the poison
 * (fill.cu); returns the launch's status. */
cudaError_t wk_fill_poison(void *dev, size_t bytes);
/* Whether bytes of host memory, copied from a 4-byte aligned device address, all hold the
 * poison. */
int wk_holds_poison(const void *host, size_t bytes);

/* Allocates bytes (a multiple of 4) of device memory with poisoned guards on both sides;
 * returns the usable pointer (aligned to 256 bytes). Exits through CL_CUDA_CHECK on failure.
 * The whole block becomes one of the lab's buffers (wk_buffers()): an input, named for the
 * report, which every replay must leave as the lab set it up, guards and all (the worker
 * checks it after each, worker.c); or an output (a scratch buffer too), poisoned: what its
 * usable part holds is the student's work. */
void *wk_alloc_input(const char *name, size_t bytes);
void *wk_alloc_output(size_t bytes);
/* Returns 1 when both guards of a wk_alloc_input() or wk_alloc_output() block still hold the
 * poison, else 0. */
int wk_guards_intact(const void *ptr, size_t bytes);
void wk_free_guarded(void *ptr);

/* Makes [base, base + bytes) one of the lab's buffers too: device memory the student's
 * launches may point into that the worker did not allocate (lab 07's images); an input named
 * input, or an output where input is NULL (poisoned whole before a count). */
void wk_add_buffer(const void *base, size_t bytes, const char *input);

/* Enqueues on the default stream a comparison of bytes of device memory at a and b (fill.cu),
 * which sets the device word *changed to 1 where any byte differs (and leaves it otherwise);
 * returns the launch's status. */
cudaError_t wk_compare_bytes(const void *a, const void *b, size_t bytes, unsigned *changed);
/* Which of the lab's buffers are inputs (named at allocation): bit i for buffer i of
 * wk_buffers(). No copy or memset of a launcher may write one, and where the lab's contract
 * allows no copies (device_copies), none may read one either: the kernels must. */
uint32_t wk_inputs(void);
/* The lab's buffers, in the order they were made (the same in every process, so a record
 * made in one is replayed on the same buffers in another); returns how many. */
uint32_t wk_buffers(rl_buffer out[WI_MAX_BUFFERS]);

/* Finds the driver function name (of CUDA 12.4's API) through the runtime, so the worker needs
 * no libcuda at link time; 0, or -1 with why. */
int wk_driver_function(const char *name, void **fn, char *why, size_t why_size);

/* The ceiling's copies (sol_copy.cu), by number k < wk_sol_copies(): each copies bytes (a
 * multiple of 16) from src to dst in its own way (float4 or float, grid-stride or one vector a
 * thread, with several loads in flight or one), named by wk_sol_copy_name(k) in at most 15
 * characters, and returns its launch's status. wk_sol_copy is copy 0. */
int wk_sol_copies(void);
const char *wk_sol_copy_name(int k);
cudaError_t wk_sol_copy_run(int k, const void *src, void *dst, size_t bytes);
cudaError_t wk_sol_copy(const void *src, void *dst, size_t bytes);
/* Times copy 0 with tm_measure(). */
cudaError_t wk_time_copy(const void *src, void *dst, size_t bytes, const tm_options *opt,
                         tm_result *res);
/* This GPU's bandwidth ceiling (time_all's): the best of the copies over two buffers of at
 * least WI_WORKING_SET_L2S times the L2 each (1 GiB where the memory allows, at least 256
 * MiB), each the median of opt's repeats after its warm-ups; *kernel names the copy,
 * *buffer_bytes each buffer's size. */
cudaError_t wk_ceiling(const wk_job *job, const tm_options *opt, tm_result *best,
                       const char **kernel, size_t *buffer_bytes);

/* The products' yardstick: tiles of WK_LEAST_TILE x WK_LEAST_TILE outputs, each loading its
 * row of A's tiles and its column of B's once (A m x k, B k x n, or their transposes: the
 * same bytes). A kernel with larger tiles, or register tiles, loads less. */
#define WK_LEAST_TILE 16
double wk_tiled_loads(double m, double n, double k);

/* Opens WORKDIR/explore.csv for an explore run's table; exits CL_EXIT_IO on failure. */
FILE *wk_explore_csv(const wk_job *job);

/* Writes bytes of host memory to WORKDIR/NAME.bin; exits CL_EXIT_IO on failure. */
void wk_save(const wk_job *job, const char *name, const void *host, size_t bytes);

/* Copies bytes of any device memory back and saves them as NAME.bin; exits CL_EXIT_IO when
 * host memory or the file fails. */
void wk_save_device_raw(const wk_job *job, const char *name, const void *dev, size_t bytes);

/* Copies a wk_alloc_output() output back and saves it as NAME.bin; returns 1 when its guards
 * are intact, 0 when the kernel wrote outside it. Exits CL_EXIT_IO when host memory or the
 * file fails. */
int wk_save_device(const wk_job *job, const char *name, const void *dev, size_t bytes);

typedef struct wk_lab {
    int builtin; /* runs grader-owned kernels only: no --kernel needed */
    /* Binds the launcher(s), allocates, fills the seeded inputs and poisons the outputs. */
    void *(*open)(const wk_job *job);
    /* Runs the student's work once (launches only; no synchronisation). Recording only. */
    cudaError_t (*launch)(void *state);
    /* After one launch: copies the outputs back, saves them with wk_save(), and returns 1
     * when every guard is intact, 0 when the kernel wrote outside its outputs. */
    int (*save)(void *state, const wk_job *job);
    /* Bytes the task must move at the least: each input read once, each output written once. */
    double (*useful_bytes)(const void *state);
    /* The task's least traffic, loads and stores apart: what its kernels' sectors are weighed
     * against (decide.c: splitting requests or adding re-reads can only lower the grade). The
     * labs that read each input once say so; the products say what a kernel with
     * WK_LEAST_TILE x WK_LEAST_TILE tiles moves (wk_tiled_loads). NULL: not weighed. */
    void (*least)(const void *state, double *load_bytes, double *store_bytes);
    /* Optional: the bytes the timed work must move at the least, where that is more than
     * useful_bytes (lab 06: its conversions, which may be copies no engine sees, so the
     * engines' figures leave them out); the bandwidth is these over the time. NULL: useful. */
    double (*timed_bytes)(const void *state);
    void (*close)(void *state);
    /* Optional: the lab's explore run (grader-owned kernels); prints a table, writes CSV. */
    int (*explore)(const wk_job *job);
    /* Optional: the grader's own kernel for the same task on the same state, timed beside the
     * student's launch for the lab's speed gate. Writes only the lab's scratch output. */
    cudaError_t (*baseline)(void *state);
    /* With baseline: poisons the outputs again, so that one more launch after the timing can be
     * saved and checked (a launcher must compute on every call, not only the first). */
    void (*reset)(void *state);
    /* Optional, recording only: what the replays need to set the same buffers up, noted after
     * open (lab 07: the pitches the student's allocation chose), read back from job->record. */
    void (*note)(void *state, uint64_t values[WI_LAB_VALUES]);
    /* The contract lets launchers copy between the lab's device buffers at any time (lab 06:
     * its conversions may be copies). Without it, a copy may only write an output from an
     * output, before the first kernel; memsets of outputs are recorded either way. */
    int device_copies;
    /* The sizes open sets up from job->shape: graded, traced, checked (labNN_data.c). NULL for
     * a built-in lab, which has one size of its own. */
    const cl_shapes *shapes;
} wk_lab;

/* Lab NN's side of the grading child, wk_labNN, in grader/labs/NN-slug/labNN_run.c: one for
 * every row of the registry (labs/labs.def). */
#define CL_LAB(nn, slug) extern const wk_lab wk_lab##nn;
#include "labs.def"
#undef CL_LAB
/* DESIGN's access patterns, for checking the engines (patterns_run.c); not a lab. */
extern const wk_lab wk_lab_patterns;

#ifdef __cplusplus
}
#endif

#endif
