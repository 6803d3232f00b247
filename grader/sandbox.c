/*
 * sandbox.c - see sandbox.h. The Landlock system calls and constants are spelled out here,
 * not taken from <linux/landlock.h>, so that the grader builds against old kernel headers and
 * still uses what the running kernel offers (the ABI is asked for at run time).
 */
#define _GNU_SOURCE
#include "i18n.h"
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

#define CREATE_RULESET_VERSION (1u << 0)
#define RULE_PATH_BENEATH 1

/* File-system rights, by the ABI that brought them. */
#define FS_EXECUTE (1ull << 0)
#define FS_WRITE_FILE (1ull << 1)
#define FS_READ_FILE (1ull << 2)
#define FS_READ_DIR (1ull << 3)
#define FS_REMOVE_DIR (1ull << 4)
#define FS_REMOVE_FILE (1ull << 5)
#define FS_MAKE_CHAR (1ull << 6)
#define FS_MAKE_DIR (1ull << 7)
#define FS_MAKE_REG (1ull << 8)
#define FS_MAKE_SOCK (1ull << 9)
#define FS_MAKE_FIFO (1ull << 10)
#define FS_MAKE_BLOCK (1ull << 11)
#define FS_MAKE_SYM (1ull << 12)
#define FS_REFER (1ull << 13)    /* ABI 2 */
#define FS_TRUNCATE (1ull << 14) /* ABI 3 */
#define NET_BIND_TCP (1ull << 0) /* ABI 4 */
#define NET_CONNECT_TCP (1ull << 1)
#define SCOPE_ABSTRACT_UNIX_SOCKET (1ull << 0) /* ABI 6 */
#define SCOPE_SIGNAL (1ull << 1)

#define FS_ABI1 ((FS_MAKE_SYM << 1) - 1)
#define READ_RIGHTS (FS_EXECUTE | FS_READ_FILE | FS_READ_DIR)
/* The rights Landlock accepts on a rule for a file rather than a folder. */
#define FILE_RIGHTS (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE)

struct ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

int sb_abi(void)
{
    long v = syscall(SYS_landlock_create_ruleset, NULL, 0, CREATE_RULESET_VERSION);
    return v > 0 ? (int)v : 0;
}

static uint64_t handled_fs(int abi)
{
    uint64_t fs = FS_ABI1;
    if (abi >= 2)
        fs |= FS_REFER;
    if (abi >= 3)
        fs |= FS_TRUNCATE;
    return fs;
}

/* Allows rights (those the ruleset handles; file rights alone on a file) beneath every path of
 * list. */
static int allow(int ruleset, const char *const *list, uint64_t rights)
{
    for (int i = 0; i < SB_MAX_PATHS && list[i]; ++i) {
        int fd = open(list[i], O_PATH | O_CLOEXEC);
        if (fd < 0)
            continue; /* a folder this machine lacks */
        struct stat st;
        struct path_beneath_attr rule = {.allowed_access = rights, .parent_fd = fd};
        if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode))
            rule.allowed_access &= FILE_RIGHTS;
        long rc = syscall(SYS_landlock_add_rule, ruleset, RULE_PATH_BENEATH, &rule, 0);
        int err = errno;
        close(fd);
        if (rc != 0) {
            errno = err;
            return -1;
        }
    }
    return 0;
}

/* socket(AF_UNIX, ...) fails with EACCES; every other call as before. A foreign ABI (a 32-bit
 * program the child wrote and ran, x32's numbering) would go round the check: killed. */
static int no_unix_sockets(void)
{
#if defined(__x86_64__)
    const unsigned arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
    const unsigned arch = AUDIT_ARCH_AARCH64;
#else
    return 0; /* no filter for this machine: Landlock alone */
#endif
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, arch, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1), /* x32 */
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog = {(unsigned short)(sizeof f / sizeof f[0]), f};
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) == 0 ? 0 : -1;
}

int sb_enter(const sb_policy *p)
{
    int abi = sb_abi();
    if (abi == 0)
        return 0;
    uint64_t fs = handled_fs(abi);
    struct ruleset_attr attr = {.handled_access_fs = fs};
    size_t size = sizeof attr.handled_access_fs;
    if (abi >= 4) {
        attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP;
        size += sizeof attr.handled_access_net;
    }
    if (abi >= 6) {
        attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
        size += sizeof attr.scoped;
    }
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
    if (ruleset < 0)
        return -1;
    int rc = allow(ruleset, p->read, READ_RIGHTS);
    if (rc == 0)
        rc = allow(ruleset, p->write, fs);
    if (rc == 0)
        rc = allow(ruleset, p->devices, READ_RIGHTS | FS_WRITE_FILE | (fs & FS_TRUNCATE));
    if (rc == 0)
        rc = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0 ? 0 : -1;
    if (rc == 0)
        rc = syscall(SYS_landlock_restrict_self, ruleset, 0) == 0 ? 0 : -1;
    if (rc == 0 && p->no_unix_sockets)
        rc = no_unix_sockets();
    int err = errno;
    close(ruleset);
    errno = err;
    return rc;
}

void sb_describe(char *buf, unsigned long size)
{
    int abi = sb_abi();
    if (abi == 0)
        snprintf(buf, size,
                 _("none: this kernel offers no Landlock (Linux 5.13 or later, with landlock in "
                   "its lsm= list), so the compile and the recording run unconfined"));
    else
        snprintf(buf, size,
                 _("Landlock ABI %d: the compile reads only the system and the toolkit, the "
                   "recording writes only its own folder%s"),
                 abi,
                 abi >= 6
                     ? _(" and signals no process outside it")
                     : _(" (Linux 6.12 or later would also keep it from signalling the grader)"));
}

int sb_add(const char *list[SB_MAX_PATHS], const char *path)
{
    if (!path)
        return 0;
    for (int i = 0; i < SB_MAX_PATHS - 1; ++i)
        if (!list[i]) {
            list[i] = path;
            list[i + 1] = NULL;
            return 0;
        }
    return -1;
}
