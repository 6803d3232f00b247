/*
 * intake.h - a folder of submissions, as an instructor collects them: one entry per student,
 * a sub-folder (a student-edition tree, or a flat folder of NN-slug.cu, NN.cu or kernel.cu
 * files, or the archive a student uploaded, as Moodle exports it) or an archive (IN_ARCHIVES,
 * as the platforms export them). Every other entry gets a row too, refused with what to do:
 * a file that is not an archive, a hidden one (its name begins with '.'). Only kernel
 * files are taken, read into memory (never extracted: no path in an archive is ever written);
 * links, paths that leave the submission, oversized and binary files are refused, each with a
 * reason for that student's row. Nothing here runs or compiles anything.
 *
 * Which file is which lab's: labs/NN-slug/kernel.cu or NN-slug/kernel.cu (a tree), NN-slug.cu
 * or NN.cu (flat), and kernel.cu alone when one lab is graded; at any depth, so that an
 * archive holding one folder of the student's own reads the same.
 */
#ifndef CL_INTAKE_H
#define CL_INTAKE_H

#include <stddef.h>

#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IN_MAX_LABS 16
#define IN_MAX_KERNEL_BYTES ((size_t)1 << 20)   /* a kernel file larger is refused */
#define IN_MAX_ARCHIVE_BYTES ((size_t)64 << 20) /* what an archive may expand to, in all */
#define IN_MAX_ENTRIES 20000                    /* files a submission may hold */
/* What a hidden folder of an archive (.git/, a .backup/ copy) may hold, never read: its data
 * is passed over, uncounted against IN_MAX_ARCHIVE_BYTES (a repository's history), up to this. */
#define IN_MAX_HIDDEN_BYTES ((size_t)1 << 30)
/* The archives read, for --help and the refusals: their endings. */
#define IN_ARCHIVES ".zip, .tar, .tar.gz, .tgz, .tar.xz, .txz, .tar.bz2, .tbz2, .tar.zst, .7z, .rar"

typedef struct in_kernel {
    char origin[600]; /* where it came from: "alice/labs/01-dram-burst/kernel.cu" */
    char *text;       /* owned, NUL-terminated; NULL when there is none or it was refused */
    size_t size;
    char problem[400]; /* why it was refused ("" when taken or absent) */
} in_kernel;

typedef struct in_student {
    /* the folder's or archive's name, without the archive's extension, cut at 200 bytes on a
     * character's boundary; where two names cut alike, each gets "~" and 8 hex digits of its
     * whole name */
    char name[256];
    char entry[256];   /* its whole name in the folder, as it is there */
    char problem[400]; /* why the whole submission was refused ("" when it was read) */
    /* what the reading passed over that may hold a kernel: a link never followed, a folder too
     * deep, an archive inside an archive (the first of them; "" none): said where a lab is
     * missing */
    char skipped[300];
    in_kernel labs[IN_MAX_LABS]; /* one per lab asked for, in that order */
} in_student;

typedef struct in_batch {
    in_student *students; /* sorted by name */
    size_t n;
} in_batch;

/* Reads every submission in dir for the nlabs labs. Returns 0 with *out filled (free with
 * in_free), or -1 with why when dir itself cannot be read. */
int in_scan(const char *dir, const lab_spec *const *labs, size_t nlabs, in_batch *out, char *why,
            size_t why_size);

/* Which of the nlabs labs a file at path (inside a submission, '/' separated) is the kernel
 * of: its index, or -1 when it is none. */
int in_lab_of(const char *path, const lab_spec *const *labs, size_t nlabs);

void in_free(in_batch *b);

#ifdef __cplusplus
}
#endif

#endif
