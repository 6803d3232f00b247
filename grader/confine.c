/* confine.c - see confine.h. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include "confine.h"

#include <dirent.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What every confined child reads: the system's programs, libraries and settings, and the
 * kernel's views of itself (/proc: of other processes only what Landlock lets a sandboxed
 * process see of processes outside it, which is not their memory or environment). */
static const char *const system_dirs[] = {"/usr",  "/lib", "/lib64", "/lib32", "/bin",
                                          "/sbin", "/etc", "/proc",  "/sys"};
/* The device files any program may open: never a terminal. */
static const char *const plain_devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random",
                                            "/dev/urandom"};
/* The GPU's, beside them (those this machine has; /dev/nvidiaN are found at run time). */
static const char *const gpu_devices[] = {"/dev/nvidiactl",        "/dev/nvidia-uvm",
                                          "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset",
                                          "/dev/nvidia-caps",      "/dev/dxg"};

/* The folder a program found on PATH (or named by path) is installed in: /usr/local/cuda for
 * /usr/local/cuda/bin/nvcc. Empty when it cannot be found. */
static void install_root(const char *program, char *buf, size_t size)
{
    char found[PATH_MAX] = "", real[PATH_MAX];
    if (strchr(program, '/')) {
        snprintf(found, sizeof found, "%s", program);
    } else {
        const char *path = getenv("PATH");
        for (const char *p = path; p && *p && !found[0];) {
            size_t n = strcspn(p, ":");
            snprintf(found, sizeof found, "%.*s/%s", (int)n, p, program);
            if (access(found, X_OK) != 0)
                found[0] = '\0';
            p += n + (p[n] == ':');
        }
    }
    buf[0] = '\0';
    if (found[0] && realpath(found, real)) {
        char *slash = strrchr(real, '/'); /* .../bin/nvcc -> .../bin */
        if (slash)
            *slash = '\0';
        slash = strrchr(real, '/'); /* .../bin -> ... */
        if (slash && slash != real)
            *slash = '\0';
        snprintf(buf, size, "%s", real);
    }
}

/* What the compile may see: the system's folders and the toolkit to read and run, its own
 * work folder to write in. Not the grader's tree, the solutions or the tests, wherever they
 * are (outside those folders), nor the student's home. */
void gr_compile_policy(const gr_config *cfg, const char *workdir, sb_policy *p,
                       char toolkit[PATH_MAX])
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; ++i)
        sb_add(p->read, system_dirs[i]);
    install_root(cfg->nvcc && *cfg->nvcc ? cfg->nvcc : "nvcc", toolkit, PATH_MAX);
    if (toolkit[0])
        sb_add(p->read, toolkit);
    sb_add(p->write, workdir);
    for (size_t i = 0; i < sizeof plain_devices / sizeof plain_devices[0]; ++i)
        sb_add(p->devices, plain_devices[i]);
}

/* Found once (the policy's entries point into them): the toolkit's folder, the GPUs' device
 * files, and the folders the grading child's libraries come from. */
#define MAX_FOUND 8
static struct {
    pthread_once_t once;
    char toolkit[PATH_MAX];
    char gpus[MAX_FOUND][272]; /* /dev/ and a name */
    char libs[MAX_FOUND][PATH_MAX];
    int ngpus, nlibs;
} found = {.once = PTHREAD_ONCE_INIT};

static int under_system(const char *dir)
{
    for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; ++i) {
        size_t n = strlen(system_dirs[i]);
        if (!strncmp(dir, system_dirs[i], n) && (dir[n] == '/' || dir[n] == '\0'))
            return 1;
    }
    return 0;
}

/* Adds path's folder (path itself where dir_of is 0) to the libraries' folders, unless the
 * system's folders hold it already or it is there. */
static void add_library_dir(const char *path, int dir_of)
{
    char real[PATH_MAX];
    if (!path || !*path || !realpath(path, real))
        return;
    char *slash = dir_of ? strrchr(real, '/') : NULL;
    if (slash && slash != real)
        *slash = '\0';
    if (under_system(real))
        return;
    for (int i = 0; i < found.nlibs; ++i)
        if (!strcmp(found.libs[i], real))
            return;
    if (found.nlibs < MAX_FOUND)
        snprintf(found.libs[found.nlibs++], PATH_MAX, "%s", real);
}

static int loaded_library(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    if (info->dlpi_name && info->dlpi_name[0] == '/')
        add_library_dir(info->dlpi_name, 1);
    return 0;
}

static const char *once_nvcc; /* the grader's nvcc, whose toolkit the child links */

static void find_once(void)
{
    install_root(once_nvcc && *once_nvcc ? once_nvcc : "nvcc", found.toolkit, sizeof found.toolkit);
    DIR *d = opendir("/dev");
    for (struct dirent *e; d && (e = readdir(d));) {
        const char *n = e->d_name;
        if (!strncmp(n, "nvidia", 6) && n[6] >= '0' && n[6] <= '9' && found.ngpus < MAX_FOUND &&
            n[6 + strspn(n + 6, "0123456789")] == '\0')
            snprintf(found.gpus[found.ngpus++], sizeof found.gpus[0], "/dev/%s", n);
    }
    if (d)
        closedir(d);
    /* The grading child links what the grader does (libcjson where LD_LIBRARY_PATH finds it),
     * and the CUDA libraries, from the toolkit or LD_LIBRARY_PATH. */
    dl_iterate_phdr(loaded_library, NULL);
    const char *path = getenv("LD_LIBRARY_PATH");
    for (const char *p = path; p && *p;) {
        size_t n = strcspn(p, ":");
        char dir[PATH_MAX];
        snprintf(dir, sizeof dir, "%.*s", (int)n, p);
        if (dir[0] == '/') /* a relative entry names wherever the grader was started */
            add_library_dir(dir, 0);
        p += n + (p[n] == ':');
    }
}

/* Whether the folder dir holds (or is) path: both made real first. */
static int holds(const char *dir, const char *path)
{
    char d[PATH_MAX], p[PATH_MAX];
    if (!dir || !path || !realpath(dir, d) || !realpath(path, p))
        return 0;
    size_t n = strlen(d);
    return !strcmp(d, "/") || (!strncmp(d, p, n) && (p[n] == '/' || p[n] == '\0'));
}

/* Adds dir to what the recording may read unless it holds what the recording must never read:
 * the grader's tree (the solutions), the folder it was started from, the user's home. A
 * toolkit found through a wrapper inside the tree, a library folder on LD_LIBRARY_PATH that
 * is the course folder, widen nothing. */
static void add_readable(const gr_config *cfg, sb_policy *p, const char *dir)
{
    const char *secret[] = {cfg ? cfg->root : NULL, cfg ? cfg->cwd : NULL, getenv("HOME")};
    for (size_t i = 0; i < sizeof secret / sizeof secret[0]; ++i)
        if (holds(dir, secret[i]))
            return;
    sb_add(p->read, dir);
}

gr_confinement gr_confinement_asked(void)
{
    const char *reads = getenv("GRADE_CONFINE_READS");
    if (sb_abi() == 0)
        return GR_UNCONFINED;
    return reads && !strcmp(reads, "1") ? GR_READS : GR_WRITES;
}

void gr_record_policy(const gr_config *cfg, const char *dir, const char *lab_dir,
                      gr_confinement how, sb_policy *p)
{
    memset(p, 0, sizeof *p);
    sb_add(p->write, dir);
    sb_add(p->write, "/dev/shm");
    /* The driver fails to start ("OS call failed", H200, driver 580) unless it may write in
     * /proc/self: the rule holds for the child's own /proc entry only. */
    sb_add(p->write, "/proc/self");
    if (how != GR_READS) {
        sb_add(p->read, "/");
        sb_add(p->devices, "/dev");
        return;
    }
    once_nvcc = cfg ? cfg->nvcc : NULL;
    pthread_once(&found.once, find_once);
    for (size_t i = 0; i < sizeof system_dirs / sizeof system_dirs[0]; ++i)
        add_readable(cfg, p, system_dirs[i]);
    if (found.toolkit[0])
        add_readable(cfg, p, found.toolkit);
    if (cfg && cfg->worker)
        sb_add(p->read, cfg->worker); /* the program alone, not the build folder it is in */
    sb_add(p->read, lab_dir);         /* the student's compiled kernel, the lab's alone */
    for (int i = 0; i < found.nlibs; ++i)
        add_readable(cfg, p, found.libs[i]);
    for (size_t i = 0; i < sizeof plain_devices / sizeof plain_devices[0]; ++i)
        sb_add(p->devices, plain_devices[i]);
    for (size_t i = 0; i < sizeof gpu_devices / sizeof gpu_devices[0]; ++i)
        sb_add(p->devices, gpu_devices[i]);
    for (int i = 0; i < found.ngpus; ++i)
        sb_add(p->devices, found.gpus[i]);
}

/* ---- what a recording leaves in /dev/shm ---- */

#define SHM_DIR "/dev/shm"

static int by_inode(const void *a, const void *b)
{
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return x < y ? -1 : x > y;
}

int gr_leftovers_note(gr_leftovers *l)
{
    memset(l, 0, sizeof *l);
    DIR *d = opendir(SHM_DIR);
    if (!d)
        return -1;
    size_t cap = 64;
    l->inodes = malloc(cap * sizeof *l->inodes);
    for (struct dirent *e; l->inodes && (e = readdir(d));) {
        if (l->n == cap) {
            unsigned long *p = realloc(l->inodes, 2 * cap * sizeof *p);
            if (!p)
                break;
            l->inodes = p;
            cap *= 2;
        }
        l->inodes[l->n++] = (unsigned long)e->d_ino;
    }
    closedir(d);
    if (!l->inodes)
        return -1;
    qsort(l->inodes, l->n, sizeof *l->inodes, by_inode);
    return 0;
}

/* Whether a process of this user holds the file of inode ino (on device dev) open or mapped:
 * /proc/PID/fd and /proc/PID/map_files, which only the same user may read. */
static int held(dev_t dev, ino_t ino)
{
    DIR *procs = opendir("/proc");
    int found = 0;
    for (struct dirent *p; procs && !found && (p = readdir(procs));) {
        if (p->d_name[0] < '0' || p->d_name[0] > '9')
            continue;
        static const char *const lists[] = {"fd", "map_files"};
        for (int k = 0; k < 2 && !found; ++k) {
            char path[300];
            snprintf(path, sizeof path, "/proc/%s/%s", p->d_name, lists[k]);
            DIR *fds = opendir(path);
            for (struct dirent *f; fds && !found && (f = readdir(fds));) {
                char link[600];
                struct stat st;
                snprintf(link, sizeof link, "%s/%s", path, f->d_name);
                if (f->d_name[0] != '.' && stat(link, &st) == 0)
                    found = st.st_dev == dev && st.st_ino == ino;
            }
            if (fds)
                closedir(fds);
        }
    }
    if (procs)
        closedir(procs);
    return found;
}

/* Removes what lies in the folder dir (open, of a new folder of this user) and that no process
 * holds, depth first, and dir itself once empty (its name in parent). Returns how many files. */
static int remove_tree(int parent, const char *name, int depth)
{
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    int removed = 0;
    for (struct dirent *e; depth < 16 && (e = readdir(d));) {
        struct stat st;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != getuid())
            continue;
        if (S_ISDIR(st.st_mode))
            removed += remove_tree(dirfd(d), e->d_name, depth + 1);
        else if (S_ISLNK(st.st_mode) || !held(st.st_dev, st.st_ino))
            removed += unlinkat(dirfd(d), e->d_name, 0) == 0;
    }
    closedir(d);
    unlinkat(parent, name, AT_REMOVEDIR); /* fails, harmlessly, where something is left */
    return removed;
}

int gr_leftovers_remove(gr_leftovers *l)
{
    int removed = 0;
    DIR *d = l->inodes ? opendir(SHM_DIR) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        unsigned long ino = (unsigned long)e->d_ino;
        struct stat st;
        if (e->d_name[0] == '.' || bsearch(&ino, l->inodes, l->n, sizeof ino, by_inode) ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != getuid())
            continue;
        if (S_ISDIR(st.st_mode))
            removed += remove_tree(dirfd(d), e->d_name, 0);
        else if (S_ISLNK(st.st_mode) || !held(st.st_dev, st.st_ino))
            removed += unlinkat(dirfd(d), e->d_name, 0) == 0;
    }
    if (d)
        closedir(d);
    free(l->inodes);
    memset(l, 0, sizeof *l);
    return removed;
}
