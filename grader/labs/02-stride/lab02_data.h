/*
 * lab02_data.h - lab 02's problem, shared by the grading child (which runs it) and the grader
 * (which checks it).
 */
#ifndef CL_LAB02_DATA_H
#define CL_LAB02_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "seeded.h"
#include "shape.h"

/* Six channels (as in 5.1 sound), 6291552 frames: 151 MB in and out, several times any L2; a
 * multiple of 32 frames, so every channel's plane starts on a sector, but not of 256. */
#define LAB02_CHANNELS 6
#define LAB02_N ((size_t)3 * (1u << 21) + 96)

/* The sizes (d[0] = channels, d[1] = frames): graded, and checked at every channel count the
 * contract allows, each with an odd number of frames, and at one frame and partial warps. */
extern const cl_shapes lab02_shapes;

/* The interleaved input for a data seed (seeded.h sd_seeds): count floats. */
void lab02_fill_input(uint64_t data_seed, float *in, size_t count);
/* The input's values, for the GPU's fill. */
extern const sd_uniform lab02_input;

#endif
