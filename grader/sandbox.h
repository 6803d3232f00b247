/*
 * sandbox.h - confines a child process with Landlock, the Linux security module any user may
 * apply to his own processes (no root, no setuid helper): once entered, the process and
 * everything it starts can open only the paths the policy names, and (Landlock ABI 6 and
 * later) can neither signal nor trace a process outside its sandbox, nor reach its abstract
 * sockets. TCP is closed too (ABI 4 and later).
 *
 * The grader confines the two steps that run what a student wrote: the compile (nvcc sees the
 * system, the toolkit and its own folder, not the grader's tree or the solutions) and the
 * recording (the only process that runs the student's host code: it may read, but it writes
 * only inside its own folder and the GPU's device files). Where the kernel has no Landlock the
 * children run as before and grade --doctor says so.
 */
#ifndef CL_SANDBOX_H
#define CL_SANDBOX_H

#ifdef __cplusplus
extern "C" {
#endif

#define SB_MAX_PATHS 64

typedef struct sb_policy {
    /* Folders (or files) the child may read and run programs from; NULL-terminated. */
    const char *read[SB_MAX_PATHS];
    /* Folders it may also create, write, rename and remove in. */
    const char *write[SB_MAX_PATHS];
    /* Folders of device files it may open for writing, as well as read (the GPU's, /dev/null),
     * but not create anything in. */
    const char *devices[SB_MAX_PATHS];
    /* No socket(AF_UNIX) (seccomp): a pathname socket of this user's (a tmux or screen server,
     * a D-Bus session, an ssh agent) would do for the child what Landlock keeps it from. */
    int no_unix_sockets;
} sb_policy;

/* The Landlock ABI this kernel offers (1 and up), or 0 where it has none or turned it off. */
int sb_abi(void);

/* Confines the calling process (and what it will exec) to p. Paths of p that do not exist are
 * skipped. Returns 0; or -1 with errno set, the process then unconfined (0 and nothing done
 * where sb_abi() is 0). Calls only what is safe between fork and exec. */
int sb_enter(const sb_policy *p);

/* One line for a person: "Landlock ABI 6: ...", or why there is no sandbox. */
void sb_describe(char *buf, unsigned long size);

/* Adds path to list (NULL-terminated, SB_MAX_PATHS entries at most) unless it is NULL or the
 * list is full; returns 0, or -1 when it did not fit. */
int sb_add(const char *list[SB_MAX_PATHS], const char *path);

#ifdef __cplusplus
}
#endif

#endif
