/*
 * lab07_run.c - lab 07 in the grading child: let the student allocate and fill the images
 * (while recording; a replay allocates images of the recorded pitches and fills them itself),
 * poison the output (padding included), launch lab07_adjust, save the output as laid out.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cuda_check.h"
#include "lab07.h"
#include "lab07_data.h"
#include "worker.h"

typedef cudaError_t (*alloc_fn)(float **, size_t *, int, int);
typedef cudaError_t (*upload_fn)(float *, size_t, const float *, int, int);
typedef cudaError_t (*adjust_fn)(const float *, size_t, float *, size_t, int, int, float, float);

/* Each image is allocated (by the student's function) with one extra row before and after it:
 * the guard rows, poisoned, which a kernel writing outside the image would change. in and out
 * point at row 1 of in_base and out_base. */
typedef struct lab07_state {
    adjust_fn adjust;
    int width, height;
    float *in_base, *out_base, *in, *out;
    size_t in_pitch, out_pitch;
    float gain, bias;
} lab07_state;

/* The image's rows and its two guard rows. */
static size_t rows_allocated(const lab07_state *s)
{
    return (size_t)s->height + 2;
}

/* Allocates one image and its guard rows: through the student's function while recording,
 * with the pitch it chose then in a replay. A pitch that cannot hold a row (or is absurdly
 * large) breaks the contract. */
static float *alloc_image(const lab07_state *s, alloc_fn alloc, size_t *pitch, uint64_t recorded,
                          const char *input)
{
    float *image = NULL;
    size_t least = (size_t)s->width * sizeof(float), most = lab07_max_pitch(s->width);
    *pitch = (size_t)recorded;
    if (alloc)
        CL_CUDA_CHECK(alloc(&image, pitch, s->width, (int)rows_allocated(s)));
    else if (*pitch >= least && *pitch <= most)
        CL_CUDA_CHECK(cudaMalloc((void **)&image, *pitch * rows_allocated(s)));
    if (!image || *pitch < least || *pitch % sizeof(float) || *pitch > most) {
        fprintf(stderr,
                "lab07_alloc_image returned %s with a pitch of %zu bytes: the pitch must be at "
                "least a row, %zu bytes, at most %zu, and a multiple of 4\n",
                image ? "an image" : "no image", *pitch, least, most);
        exit(CL_EXIT_CONTRACT);
    }
    if ((uintptr_t)image % sizeof(float)) {
        fprintf(stderr, "lab07_alloc_image returned an image at %p, not aligned to a float\n",
                (void *)image);
        exit(CL_EXIT_CONTRACT);
    }
    wk_add_buffer(image, *pitch * rows_allocated(s), input);
    return image;
}

static float *row(float *base, size_t pitch, size_t r)
{
    return (float *)((char *)base + r * pitch);
}

/* 1 when the guard rows (the first and the last of rows) of an image still hold the poison. */
static int guard_rows_intact(float *base, size_t pitch, size_t rows)
{
    unsigned char *host = malloc(pitch);
    int ok = host != NULL;
    for (size_t r = 0; ok && r < rows; r += rows - 1) {
        CL_CUDA_CHECK(cudaMemcpy(host, row(base, pitch, r), pitch, cudaMemcpyDeviceToHost));
        ok &= wk_holds_poison(host, pitch);
    }
    free(host);
    return ok;
}

static void *lab07_open(const wk_job *job)
{
    lab07_state *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->width = (int)job->shape.d[0];
    s->height = (int)job->shape.d[1];
    float *host = malloc((size_t)s->width * s->height * sizeof(float));
    if (!host) {
        free(s);
        free(host);
        return NULL;
    }
    /* NULL in a replay: no student host code there. */
    alloc_fn alloc = (alloc_fn)wk_symbol(job, "lab07_alloc_image");
    upload_fn upload = (upload_fn)wk_symbol(job, "lab07_upload");
    s->adjust = (adjust_fn)wk_symbol(job, "lab07_adjust");
    lab07_fill(job->data_seed, host, s->width, s->height);
    lab07_scalars(job->seed, &s->gain, &s->bias);
    const uint64_t *pitches = job->record ? job->record->lab_values : (uint64_t[2]){0, 0};
    s->in_base = alloc_image(s, alloc, &s->in_pitch, pitches[0], "in");
    s->out_base = alloc_image(s, alloc, &s->out_pitch, pitches[1], NULL);
    s->in = row(s->in_base, s->in_pitch, 1);
    s->out = row(s->out_base, s->out_pitch, 1);
    size_t packed = (size_t)s->width * sizeof(float), rows = rows_allocated(s);
    if (upload)
        CL_CUDA_CHECK(upload(s->in, s->in_pitch, host, s->width, s->height));
    else
        CL_CUDA_CHECK(cudaMemcpy2D(s->in, s->in_pitch, host, packed, packed, (size_t)s->height,
                                   cudaMemcpyHostToDevice));
    CL_CUDA_CHECK(cudaDeviceSynchronize());
    /* The input's guard rows, and the whole output with its padding and guard rows, hold the
     * poison: what is still there afterwards was never written. */
    CL_CUDA_CHECK(wk_fill_poison(s->in_base, s->in_pitch));
    CL_CUDA_CHECK(wk_fill_poison(row(s->in_base, s->in_pitch, rows - 1), s->in_pitch));
    CL_CUDA_CHECK(wk_fill_poison(s->out_base, s->out_pitch * rows));
    CL_CUDA_CHECK(cudaDeviceSynchronize());
    free(host);
    return s;
}

/* The pitches the student's allocation chose, for the replays to allocate alike. */
static void lab07_note(void *state, uint64_t values[WI_LAB_VALUES])
{
    lab07_state *s = state;
    values[0] = s->in_pitch;
    values[1] = s->out_pitch;
}

static cudaError_t lab07_launch(void *state)
{
    lab07_state *s = state;
    return s->adjust(s->in, s->in_pitch, s->out, s->out_pitch, s->width, s->height, s->gain,
                     s->bias);
}

static int lab07_save(void *state, const wk_job *job)
{
    lab07_state *s = state;
    wk_save(job, "pitch", &s->out_pitch, sizeof s->out_pitch);
    wk_save_device_raw(job, "out_raw", s->out, s->out_pitch * (size_t)s->height);
    /* The padding inside the image is the check's to read; the rows around it are ours. */
    return guard_rows_intact(s->out_base, s->out_pitch, rows_allocated(s)) &&
           guard_rows_intact(s->in_base, s->in_pitch, rows_allocated(s));
}

static double lab07_useful_bytes(const void *state)
{
    const lab07_state *s = state;
    return 2.0 * s->width * s->height * sizeof(float);
}

static void lab07_least(const void *state, double *loads, double *stores)
{
    const lab07_state *s = state;
    *loads = *stores = (double)s->width * s->height * sizeof(float); /* every pixel once */
}

static void lab07_close(void *state)
{
    lab07_state *s = state;
    cudaFree(s->in_base);
    cudaFree(s->out_base);
    free(s);
}

int lab07_explore(const wk_job *job);

const wk_lab wk_lab07 = {
    .open = lab07_open,
    .launch = lab07_launch,
    .save = lab07_save,
    .useful_bytes = lab07_useful_bytes,
    .least = lab07_least,
    .close = lab07_close,
    .explore = lab07_explore,
    .note = lab07_note,
    .shapes = &lab07_shapes,
};
