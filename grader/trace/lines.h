/*
 * lines.h - pc -> source file and line, through CUPTI's SASS-to-source correlation on the
 * kernel's cubin (compiled with -lineinfo). Kept apart from tracer.c because cupti.h and
 * sanitizer.h cannot share a translation unit.
 */
#ifndef CL_LINES_H
#define CL_LINES_H

#include <stddef.h>
#include <stdint.h>

/* Fills file (size bytes) and *line for the instruction at offset pc_offset of function in
 * cubin. Returns 0, or the CUPTI error code (file and line left empty). */
int tl_line_of(const void *cubin, size_t cubin_size, const char *function, uint64_t pc_offset,
               char *file, size_t size, unsigned *line);

#endif
