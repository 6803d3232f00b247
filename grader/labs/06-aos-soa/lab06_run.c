/*
 * lab06_run.c - lab 06 in the grading child: the particles as structures on the GPU, the
 * student's pack, LAB06_STEPS steps and unpack, then aos saved.
 */
#include <stdlib.h>

#include "cuda_check.h"
#include "lab06.h"
#include "lab06_data.h"
#include "worker.h"

_Static_assert(LAB06_STEPS == LAB06_DATA_STEPS, "lab06.h and lab06_data.h disagree on the steps");
_Static_assert(sizeof(lab06_particle) == LAB06_FIELDS * sizeof(float), "a particle is 8 floats");

typedef cudaError_t (*pack_fn)(const lab06_particle *, float *, int);
typedef cudaError_t (*step_fn)(float *, int, float, float);
typedef cudaError_t (*unpack_fn)(const float *, lab06_particle *, int);

typedef struct lab06_state {
    pack_fn pack;
    step_fn step;
    unpack_fn unpack;
    int n;
    lab06_particle *in, *out;
    float *work;
} lab06_state;

static size_t bytes(const lab06_state *s)
{
    return (size_t)s->n * sizeof(lab06_particle);
}

static size_t work_bytes(const lab06_state *s)
{
    return (size_t)LAB06_FIELDS * LAB06_PLANE((size_t)s->n) * sizeof(float);
}

static void *lab06_open(const wk_job *job)
{
    lab06_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->n = (int)job->shape.d[0];
    s->pack = (pack_fn)wk_symbol(job, "lab06_pack");
    s->step = (step_fn)wk_symbol(job, "lab06_step");
    s->unpack = (unpack_fn)wk_symbol(job, "lab06_unpack");
    s->in = wk_alloc_input("in", bytes(s));
    s->work = wk_alloc_output(work_bytes(s)); /* the student's scratch: poisoned, never read */
    s->out = wk_alloc_output(bytes(s));
    for (int f = 0; f < LAB06_FIELDS; ++f) /* field f of particle i at in[i * 8 + f] */
        CL_CUDA_CHECK(wk_fill_uniform((float *)s->in + f, job->data_seed, &lab06_fields[f],
                                      (size_t)s->n, 1, LAB06_FIELDS, 1));
    return s;
}

/* The whole sequence, as the contract promises it: pack, the steps, unpack. */
static cudaError_t lab06_launch(void *state)
{
    lab06_state *s = state;
    cudaError_t err = s->pack(s->in, s->work, s->n);
    for (int i = 0; i < LAB06_STEPS && err == cudaSuccess; ++i)
        err = s->step(s->work, s->n, LAB06_DT, LAB06_G);
    if (err == cudaSuccess)
        err = s->unpack(s->work, s->out, s->n);
    return err;
}

static int lab06_save(void *state, const wk_job *job)
{
    lab06_state *s = state;
    int ok = wk_save_device(job, "aos", s->out, bytes(s));
    return ok && wk_guards_intact(s->in, bytes(s)) && wk_guards_intact(s->work, work_bytes(s));
}

static double lab06_useful_bytes(const void *state)
{
    const lab06_state *s = state;
    /* What the steps cannot do without: position and velocity read, position and vz written.
     * The conversions may be device-to-device copies, which no engine sees. */
    return (double)LAB06_STEPS * s->n * (6 + 4) * sizeof(float);
}

static double lab06_timed_bytes(const void *state)
{
    const lab06_state *s = state;
    /* The steps' bytes, and each conversion's: every structure read once and written once. */
    return lab06_useful_bytes(state) + 2.0 * 2.0 * s->n * sizeof(lab06_particle);
}

static void lab06_least(const void *state, double *loads, double *stores)
{
    const lab06_state *s = state;
    /* Each conversion reads and writes every structure once; each step reads position and
     * velocity and writes position and vz. Conversions done by copies move nothing the
     * engines see, which only leaves the kernels more room. */
    double conversions = 2.0 * s->n * LAB06_FIELDS * sizeof(float);
    *loads = conversions + (double)LAB06_STEPS * s->n * 6 * sizeof(float);
    *stores = conversions + (double)LAB06_STEPS * s->n * 4 * sizeof(float);
}

static void lab06_close(void *state)
{
    lab06_state *s = state;
    wk_free_guarded(s->in);
    wk_free_guarded(s->work);
    wk_free_guarded(s->out);
    free(s);
}

int lab06_explore(const wk_job *job);

const wk_lab wk_lab06 = {
    .open = lab06_open,
    .launch = lab06_launch,
    .save = lab06_save,
    .useful_bytes = lab06_useful_bytes,
    .least = lab06_least,
    .timed_bytes = lab06_timed_bytes,
    .close = lab06_close,
    .device_copies = 1,
    .explore = lab06_explore,
    .shapes = &lab06_shapes,
};
