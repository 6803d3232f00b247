/*
 * confine.h - what each child that runs a student's work may reach (sandbox.h's policies): the
 * compile, and the recording, the only process that runs the student's host code. Both read
 * the system's folders, the toolkit and their own work folder, not the grader's tree (the
 * solutions), the student's home or other students' folders; both write only their own
 * folder; the recording also opens the GPU's device files, and no terminal.
 */
#ifndef CL_CONFINE_H
#define CL_CONFINE_H

#include <limits.h>

#include "grade.h"
#include "sandbox.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the compile of a submission may read and write, for a lab's work folder: the system,
 * the toolkit nvcc belongs to (its folder written into toolkit) and workdir. */
void gr_compile_policy(const gr_config *cfg, const char *workdir, sb_policy *p,
                       char toolkit[PATH_MAX]);

/* How far the recording is confined (gr_record_policy, and what the probe found works). */
typedef enum gr_confinement {
    GR_UNCONFINED, /* no Landlock, or the GPU does not start inside it */
    GR_WIDE,       /* it writes only its own folder, but reads and opens what its user may */
    GR_WRITES,     /* and opens no device file but the GPU's and the plain ones (no terminal) */
    GR_READS       /* and reads only the system, the toolkit and its own folder */
} gr_confinement;

/* How far the recording is to be confined where Landlock allows, as the environment's
 * GRADE_CONFINE says: "reads" (GR_READS: not the default until it has been seen to let the GPU
 * start on the course's machines), "writes" (GR_WRITES, the default), "wide" (GR_WIDE, where
 * the GPU wants a device or a socket the default keeps from it) or "none"; GR_UNCONFINED
 * without Landlock. The probe goes down from it as far as the GPU needs. */
gr_confinement gr_confinement_asked(void);

/* What the recording (the student's host code) may reach, with its folder dir, at level how
 * (GR_WIDE, GR_WRITES or GR_READS): it writes dir and its own /proc/self (the CUDA driver
 * writes there). From GR_WRITES it opens the GPU's device files and /dev/null, /dev/zero,
 * /dev/full, /dev/random and /dev/urandom, no other device (no terminal: not even to read);
 * at GR_READS it reads only the
 * system's folders, the toolkit, the grading child's program and the folders of the libraries
 * it links (those this process loaded, and LD_LIBRARY_PATH's), lab_dir (the lab's work folder,
 * where its compiled kernel is; NULL: none) and dir, never a folder that holds the grader's
 * tree, the folder it was started from or the user's home; below GR_READS it also writes
 * /dev/shm and reads what its user may (at GR_WIDE, any device file too). */
void gr_record_policy(const gr_config *cfg, const char *dir, const char *lab_dir,
                      gr_confinement how, sb_policy *p);

/* What the recording leaves in /dev/shm, which it may write (the driver may want it) and which
 * outlives a process: the entries there before it started (gr_leftovers_note), so that those
 * it made can be removed once it has ended (gr_leftovers_remove). */
typedef struct gr_leftovers {
    unsigned long *inodes; /* owned, sorted; n of them */
    size_t n;
} gr_leftovers;

/* Notes what /dev/shm holds now; 0, or -1 (nothing noted: nothing will be removed). */
int gr_leftovers_note(gr_leftovers *l);
/* Removes the files, links and folders in /dev/shm that this user owns and that were not there
 * at the note, what lies in those folders too, but no file a process of this user holds open
 * or mapped (one another grading's child uses is left alone); returns how many files and links,
 * and frees what the note kept. */
int gr_leftovers_remove(gr_leftovers *l);

#ifdef __cplusplus
}
#endif

#endif
