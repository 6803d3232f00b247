/*
 * lab07_data.h - lab 07's problem, shared by the grading child (which runs it) and the grader
 * (which checks it).
 */
#ifndef CL_LAB07_DATA_H
#define CL_LAB07_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "shape.h"

/* 1001 x 39999 floats: a row is 4004 bytes, 4 more than a multiple of 32, so packed rows start
 * at every 4-byte offset within a sector in turn; 160 MB an image, 320 MB read and written, over
 * 4x the L2 of any GPU up to the H200's 60 MB. The trace follows the first 3999 rows (the same
 * 8-row cycle of row starts, 10 times fewer requests). */
#define LAB07_WIDTH 1001
#define LAB07_HEIGHT 39999
#define LAB07_HEIGHT_TRACED 3999
/* The sizes (d[0] = width, d[1] = height): graded, and checked at one pixel, one column, and
 * widths whose rows end anywhere in a sector. */
extern const cl_shapes lab07_shapes;

/* The largest pitch the grader accepts for rows of width floats: 64 rows' worth, or 64 KB for
 * narrow images (any real alignment is far below either). */
size_t lab07_max_pitch(int width);

/* The packed input image for a data seed (seeded.h sd_seeds): width * height floats, some
 * outside [0, 1] so that clamping shows. */
void lab07_fill(uint64_t data_seed, float *image, int width, int height);
/* gain and bias, from the task's seed: the same in the recording and the replays. */
void lab07_scalars(uint64_t seed, float *gain, float *bias);

/* One output pixel, as the lab defines it. */
float lab07_adjust_pixel(float in, float gain, float bias);

#endif
