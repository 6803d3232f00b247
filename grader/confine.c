/* confine.c - see confine.h. */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include "confine.h"
#include "runner.h"

#include <dirent.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

/* What every confined child reads: the system's programs, libraries and settings, and the
 * kernel's views of itself (/proc: of other processes only what Landlock lets a sandboxed
 * process see of processes outside it, which is not their memory or environment). */
static const char *const system_dirs[] = {"/usr",  "/lib", "/lib64", "/lib32", "/bin",
                                          "/sbin", "/etc", "/proc",  "/sys"};
/* The device files any program may open: never a terminal. */
static const char *const plain_devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random",
                                            "/dev/urandom"};
/* The GPU's, beside them (those this machine has; every /dev/nvidia* is found at run time). */
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
#define MAX_GPU_FILES 20 /* /dev/nvidia*: 16 GPUs and the driver's own */
static struct {
    pthread_once_t once;
    char toolkit[PATH_MAX];
    char gpus[MAX_GPU_FILES][272]; /* /dev/ and a name */
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
        /* nvidia0..N, and whatever else of the driver's this machine has (nvidia-nvswitchN,
         * nvidia-nvlink, nvidia-caps-imex-channels): never a terminal. */
        if (!strncmp(n, "nvidia", 6) && found.ngpus < MAX_GPU_FILES)
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

/* The device files a confined recording may open: the plain ones and the GPU's. */
static void add_devices(sb_policy *p)
{
    pthread_once(&found.once, find_once);
    for (size_t i = 0; i < sizeof plain_devices / sizeof plain_devices[0]; ++i)
        sb_add(p->devices, plain_devices[i]);
    for (size_t i = 0; i < sizeof gpu_devices / sizeof gpu_devices[0]; ++i)
        sb_add(p->devices, gpu_devices[i]);
    for (int i = 0; i < found.ngpus; ++i)
        sb_add(p->devices, found.gpus[i]);
}

gr_confinement gr_confinement_asked(void)
{
    static const struct {
        const char *name;
        gr_confinement level;
    } levels[] = {
        {"reads", GR_READS}, {"writes", GR_WRITES}, {"wide", GR_WIDE}, {"none", GR_UNCONFINED}};
    const char *asked = getenv("GRADE_CONFINE");
    gr_confinement level = GR_WRITES;
    for (size_t i = 0; asked && i < sizeof levels / sizeof levels[0]; ++i)
        if (!strcmp(asked, levels[i].name))
            level = levels[i].level;
    return sb_abi() == 0 ? GR_UNCONFINED : level;
}

void gr_record_policy(const gr_config *cfg, const char *dir, const char *lab_dir,
                      gr_confinement how, sb_policy *p)
{
    memset(p, 0, sizeof *p);
    once_nvcc = cfg ? cfg->nvcc : NULL;
    sb_add(p->write, dir);
    /* The driver fails to start ("OS call failed", H200, driver 580) unless it may write in
     * /proc/self: the rule holds for the child's own /proc entry only. */
    sb_add(p->write, "/proc/self");
    if (how == GR_WIDE) { /* as it was, where the GPU starts no other way */
        sb_add(p->write, "/dev/shm");
        sb_add(p->read, "/");
        sb_add(p->devices, "/dev");
        return;
    }
    p->no_unix_sockets = 1; /* from GR_WRITES: no pathname socket's server does its bidding */
    if (how == GR_WRITES) {
        /* What the recording makes in /dev/shm is removed after it (gr_leftovers_remove); it
         * may also reach what other processes of this user keep there. Every top folder is
         * readable but /dev, whose device files (a terminal) are the listed ones alone. */
        sb_add(p->write, "/dev/shm");
        DIR *root = opendir("/");
        static char tops[SB_MAX_PATHS][272];
        static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
        pthread_mutex_lock(&mu);
        int n = 0;
        for (struct dirent *e; root && n < SB_MAX_PATHS - 16 && (e = readdir(root));)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, "dev"))
                snprintf(tops[n++], sizeof tops[0], "/%s", e->d_name);
        pthread_mutex_unlock(&mu);
        if (root)
            closedir(root);
        for (int i = 0; i < n; ++i)
            sb_add(p->read, tops[i]);
        add_devices(p);
        return;
    }
    /* Confined for reads, /dev/shm is not its to write either: other gradings keep their
     * objects there. (Should the GPU not start without it, the probe falls back.) */
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
    add_devices(p);
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

/* What processes of this user hold open or mapped, as (device, inode) pairs, sorted: read once
 * a cleanup from /proc/PID/fd (each descriptor's file) and /proc/PID/maps (each mapping's
 * device and inode: map_files/ would need CAP_SYS_ADMIN), which only the same user may read. */
typedef struct held_set {
    struct held {
        unsigned long long dev, ino;
    } * v;
    size_t n, cap;
} held_set;

static void hold(held_set *h, unsigned long long dev, unsigned long long ino)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 1024;
        struct held *v = realloc(h->v, cap * sizeof *v);
        if (!v)
            return;
        h->v = v;
        h->cap = cap;
    }
    h->v[h->n++] = (struct held){dev, ino};
}

static int by_held(const void *a, const void *b)
{
    const struct held *x = a, *y = b;
    return x->dev != y->dev ? (x->dev < y->dev ? -1 : 1) : (x->ino > y->ino) - (x->ino < y->ino);
}

static void read_held(held_set *h)
{
    memset(h, 0, sizeof *h);
    DIR *procs = opendir("/proc");
    for (struct dirent *p; procs && (p = readdir(procs));) {
        if (p->d_name[0] < '0' || p->d_name[0] > '9')
            continue;
        char path[300];
        snprintf(path, sizeof path, "/proc/%s/fd", p->d_name);
        DIR *fds = opendir(path);
        for (struct dirent *f; fds && (f = readdir(fds));) {
            char link[600];
            struct stat st;
            snprintf(link, sizeof link, "%s/%s", path, f->d_name);
            if (f->d_name[0] != '.' && stat(link, &st) == 0)
                hold(h, (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
        }
        if (fds)
            closedir(fds);
        snprintf(path, sizeof path, "/proc/%s/maps", p->d_name);
        FILE *maps = fopen(path, "r");
        char line[1024];
        while (maps && fgets(line, sizeof line, maps)) {
            unsigned maj, min;
            unsigned long long ino;
            if (sscanf(line, "%*s %*s %*s %x:%x %llu", &maj, &min, &ino) == 3 && ino)
                hold(h, (unsigned long long)makedev(maj, min), ino);
        }
        if (maps)
            fclose(maps);
    }
    if (procs)
        closedir(procs);
    if (h->n)
        qsort(h->v, h->n, sizeof *h->v, by_held);
}

static int is_held(const held_set *h, const struct stat *st)
{
    struct held k = {(unsigned long long)st->st_dev, (unsigned long long)st->st_ino};
    return h->n && bsearch(&k, h->v, h->n, sizeof *h->v, by_held) != NULL;
}

/* A cleanup's bounds: a recording may leave a million files or a folder a thousand deep; the
 * cleanup stops, said, rather than hold up its grading for hours. */
#define LEFTOVER_MAX_ENTRIES 100000
#define LEFTOVER_MAX_S 5.0

typedef struct sweep {
    held_set *held;
    int read; /* held was read: on the first file that may be removed, never where none is */
    size_t seen;
    double until;
    int removed;
} sweep;

/* Removes the entry name of folder fd (this user's, new): a file or link that nothing holds,
 * a folder with what is in it (made searchable and writable first: 0500 keeps nothing in). */
static void sweep_entry(sweep *w, int fd, const char *name, int depth);

static void sweep_folder(sweep *w, int parent, const char *name, int depth)
{
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        fchmodat(parent, name, 0700, 0);
        fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (fd < 0)
        return;
    fchmod(fd, 0700);
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            sweep_entry(w, dirfd(d), e->d_name, depth + 1);
    closedir(d);
    unlinkat(parent, name, AT_REMOVEDIR); /* fails, harmlessly, where something is left */
}

static void sweep_entry(sweep *w, int fd, const char *name, int depth)
{
    struct stat st;
    if (++w->seen > LEFTOVER_MAX_ENTRIES || depth > 256 || rn_now_s() > w->until ||
        fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != getuid())
        return;
    if (S_ISDIR(st.st_mode))
        sweep_folder(w, fd, name, depth);
    else if (S_ISLNK(st.st_mode))
        w->removed += unlinkat(fd, name, 0) == 0;
    else {
        if (!w->read)
            read_held(w->held), w->read = 1;
        if (!is_held(w->held, &st))
            w->removed += unlinkat(fd, name, 0) == 0;
    }
}

int gr_leftovers_remove(gr_leftovers *l)
{
    held_set h = {0};
    sweep w = {&h, 0, 0, rn_now_s() + LEFTOVER_MAX_S, 0};
    DIR *d = l->inodes ? opendir(SHM_DIR) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        unsigned long ino = (unsigned long)e->d_ino;
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
            bsearch(&ino, l->inodes, l->n, sizeof ino, by_inode))
            continue; /* there before it: not its own */
        sweep_entry(&w, dirfd(d), e->d_name, 0);
    }
    if (d)
        closedir(d);
    free(h.v);
    free(l->inodes);
    memset(l, 0, sizeof *l);
    return w.removed;
}
