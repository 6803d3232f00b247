/*
 * intake.c - see intake.h. Folders are walked with openat() and never through a link; archives
 * are read with libarchive, entry by entry, and only the kernel files' bytes are kept.
 */
#define _GNU_SOURCE
#include "i18n.h"
#include "intake.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seeded.h"
#include "wire.h"

#define MAX_DEPTH 16

/* Whether s[0..len) names spec: "NN" or "NN-slug". */
static int names_lab(const char *s, size_t len, const lab_spec *spec)
{
    size_t id = strlen(spec->id), slug = strlen(spec->slug);
    if (len == id && !strncmp(s, spec->id, id))
        return 1;
    return len == id + 1 + slug && !strncmp(s, spec->id, id) && s[id] == '-' &&
           !strncmp(s + id + 1, spec->slug, slug);
}

static int names_any_lab(const char *s, size_t len)
{
    for (size_t i = 0; i < lab_count; ++i)
        if (names_lab(s, len, lab_table[i]))
            return 1;
    return 0;
}

int in_lab_of(const char *path, const lab_spec *const *labs, size_t nlabs)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 3 && !strcmp(base + n - 3, ".cu") && strcmp(base, "kernel.cu")) {
        for (size_t i = 0; i < nlabs; ++i)
            if (names_lab(base, n - 3, labs[i]))
                return (int)i;
        return -1;
    }
    if (strcmp(base, "kernel.cu"))
        return -1;
    if (base > path) { /* labs/NN-slug/kernel.cu, NN-slug/kernel.cu */
        const char *end = base - 1, *start = end;
        while (start > path && start[-1] != '/')
            --start;
        for (size_t i = 0; i < nlabs; ++i)
            if (names_lab(start, (size_t)(end - start), labs[i]))
                return (int)i;
        if (names_any_lab(start, (size_t)(end - start)))
            return -1; /* another lab's, not graded now */
    }
    return nlabs == 1 ? 0 : -1;
}

/* A name as it may be printed on one line, in a CSV field or a Markdown heading: no control
 * character (wi_clean_text), no line break or tab, and no lone byte of a C1 control (a byte
 * 0x80-0x9f that no valid UTF-8 lead byte comes before). */
static void one_line(char *s)
{
    wi_clean_text(s);
    unsigned char *p = (unsigned char *)s;
    for (size_t i = 0; p[i]; ++i) {
        if (p[i] == '\n' || p[i] == '\t' || p[i] == '\r')
            p[i] = '?';
        else if (p[i] >= 0x80 && p[i] <= 0x9f && (i == 0 || p[i - 1] < 0x80))
            p[i] = '?';
    }
}

/* Keeps text (owned) as the kernel of lab `lab`, or refuses it with problem. */
static void take(in_student *st, int lab, const char *origin, char *text, size_t size,
                 const char *problem)
{
    in_kernel *k = &st->labs[lab];
    char shown[600]; /* origin, as it may be printed */
    snprintf(shown, sizeof shown, "%s", origin);
    one_line(shown);
    origin = shown;
    if (k->text || k->problem[0] || k->origin[0]) {
        char first[600];
        snprintf(first, sizeof first, "%s", k->origin);
        free(k->text);
        k->text = NULL;
        free(text);
        snprintf(k->problem, sizeof k->problem,
                 _("two files for one lab, %.180s and %.180s: keep one"), first, origin);
        return;
    }
    snprintf(k->origin, sizeof k->origin, "%s", origin);
    if (!problem && text && memchr(text, '\0', size))
        problem = _("not a text file (it holds NUL bytes)");
    if (problem) {
        char what[400];
        snprintf(what, sizeof what, "%.190s: %s", origin, problem);
        memcpy(k->problem, what, sizeof k->problem);
        free(text);
        return;
    }
    k->text = text;
    k->size = size;
}

static const char *too_large(void)
{
    static char text[64];
    snprintf(text, sizeof text, _("too large (a kernel file holds at most %zu KiB)"),
             IN_MAX_KERNEL_BYTES >> 10);
    return text;
}

/* Notes, once, something the reading passed over that may hold a kernel (in_student.skipped). */
static void passed_over(in_student *st, const char *what, const char *origin)
{
    if (st->skipped[0])
        return;
    char shown[300];
    snprintf(shown, sizeof shown, "%.200s", origin);
    one_line(shown);
    snprintf(st->skipped, sizeof st->skipped, "%.90s: %.200s", what, shown);
}

static int is_archive(const char *name, size_t *stem);
static void read_archive(in_student *st, const char *path, const char *shown,
                         const lab_spec *const *labs, size_t nlabs);

/* ---- a folder ---- */

typedef struct walk {
    in_student *st;
    const lab_spec *const *labs;
    size_t nlabs;
    size_t entries;
} walk;

/* Reads the regular file name in folder fd, at most IN_MAX_KERNEL_BYTES. */
static char *read_at(int fd, const char *name, size_t *size, const char **problem)
{
    *problem = NULL;
    int f = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (f < 0 || fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
        *problem = f < 0 && errno == ELOOP ? _("a link, never followed") : _("not a regular file");
        if (f >= 0)
            close(f);
        return NULL;
    }
    if ((size_t)st.st_size > IN_MAX_KERNEL_BYTES) {
        *problem = too_large();
        close(f);
        return NULL;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    for (ssize_t r = 1; buf && got < (size_t)st.st_size && r > 0; got += r > 0 ? (size_t)r : 0)
        r = read(f, buf + got, (size_t)st.st_size - got);
    close(f);
    if (!buf) {
        *problem = _("out of memory");
        return NULL;
    }
    buf[got] = '\0';
    *size = got;
    return buf;
}

static void walk_dir(walk *w, int fd, const char *shown, const char *rel, int depth)
{
    DIR *d = fdopendir(fd);
    if (!d) {
        close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) && w->entries++ < IN_MAX_ENTRIES) {
        if (e->d_name[0] == '.')
            continue; /* ., .., and hidden folders such as .git */
        char path[1200], origin[1500];
        snprintf(path, sizeof path, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
        snprintf(origin, sizeof origin, "%s/%s", shown, path);
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            int sub = depth < MAX_DEPTH ? openat(dirfd(d), e->d_name,
                                                 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                                        : -1;
            if (sub >= 0)
                walk_dir(w, sub, shown, path, depth + 1);
            else if (depth >= MAX_DEPTH)
                passed_over(w->st, _("a folder too deep to look into"), origin);
            continue;
        }
        size_t stem;
        if (S_ISREG(st.st_mode) && is_archive(e->d_name, &stem)) {
            /* The archive the student uploaded, in a folder of theirs (Moodle's export). */
            int f = openat(dirfd(d), e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
            if (f >= 0) {
                char fdpath[64];
                snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", f);
                read_archive(w->st, fdpath, origin, w->labs, w->nlabs);
                close(f);
            }
            continue;
        }
        int lab = in_lab_of(path, w->labs, w->nlabs);
        if (lab < 0) {
            if (S_ISLNK(st.st_mode))
                passed_over(w->st, _("a link, never followed"), origin);
            continue;
        }
        if (S_ISLNK(st.st_mode)) {
            take(w->st, lab, origin, NULL, 0, _("a link, never followed"));
            continue;
        }
        if (!S_ISREG(st.st_mode)) {
            take(w->st, lab, origin, NULL, 0, _("not a regular file"));
            continue;
        }
        if (st.st_nlink > 1) { /* a hard link may name any file its owner can read */
            take(w->st, lab, origin, NULL, 0, _("a hard link, never read"));
            continue;
        }
        size_t size = 0;
        const char *problem;
        char *text = read_at(dirfd(d), e->d_name, &size, &problem);
        take(w->st, lab, origin, text, size, problem);
    }
    if (w->entries > IN_MAX_ENTRIES && !w->st->problem[0])
        snprintf(w->st->problem, sizeof w->st->problem,
                 _("more than %d files: only the first were looked at"), IN_MAX_ENTRIES);
    closedir(d);
}

/* ---- an archive ---- */

static int is_archive(const char *name, size_t *stem)
{
    static const char *const ext[] = {".tar.gz", ".tgz", ".tar.xz",  ".txz",  ".tar.bz2",
                                      ".tbz2",   ".tbz", ".tar.zst", ".tzst", ".tar",
                                      ".zip",    ".7z",  ".rar"};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof ext / sizeof ext[0]; ++i) {
        size_t e = strlen(ext[i]);
        if (n > e && !strcmp(name + n - e, ext[i])) {
            *stem = n - e;
            return 1;
        }
    }
    return 0;
}

/* Whether an archive's path has a hidden part (.git/, .backup/): passed over, as a folder's
 * hidden folders are. "./" is no hidden part. */
static int hidden_part(const char *p)
{
    for (const char *s = p; *s;) {
        size_t n = strcspn(s, "/");
        if (n > 0 && s[0] == '.' && !(n == 1) && !(n == 2 && s[1] == '.'))
            return 1;
        s += n + (s[n] == '/');
    }
    return 0;
}

/* Whether an archive's path stays inside it: not absolute, no ".." part. */
static int stays_inside(const char *p)
{
    if (p[0] == '/')
        return 0;
    for (const char *s = p; *s;) {
        size_t n = strcspn(s, "/");
        if (n == 2 && s[0] == '.' && s[1] == '.')
            return 0;
        s += n + (s[n] == '/');
    }
    return 1;
}

/* Reads the current entry's data, keeping at most cap bytes (NULL, *damaged 0, past it); every
 * byte read is added to *total, and reading stops past IN_MAX_ARCHIVE_BYTES in all. NULL with
 * *damaged 1 when the data cannot be read whole (a bad checksum, a cut archive). */
static char *read_entry(struct archive *a, size_t cap, size_t *size, size_t *total, int *damaged)
{
    char *buf = malloc(cap + 1), chunk[1 << 16];
    size_t got = 0;
    int over = 0;
    la_ssize_t r;
    *damaged = 0;
    while ((r = archive_read_data(a, chunk, sizeof chunk)) > 0) {
        *total += (size_t)r;
        if (*total > IN_MAX_ARCHIVE_BYTES)
            break;
        if (got + (size_t)r > cap)
            over = 1;
        else if (buf)
            memcpy(buf + got, chunk, (size_t)r);
        got += (size_t)r;
    }
    *damaged = r < 0;
    if (over || !buf || r != 0) {
        free(buf);
        return NULL;
    }
    buf[got] = '\0';
    *size = got;
    return buf;
}

static void read_archive(in_student *st, const char *path, const char *shown,
                         const lab_spec *const *labs, size_t nlabs)
{
    struct archive *a = archive_read_new();
    archive_read_support_filter_all(a);
    archive_read_support_format_zip(a);
    archive_read_support_format_tar(a);
    archive_read_support_format_gnutar(a);
    archive_read_support_format_7zip(a);
    archive_read_support_format_rar(a);
    archive_read_support_format_rar5(a);
    if (archive_read_open_filename(a, path, 1 << 16) != ARCHIVE_OK) {
        snprintf(st->problem, sizeof st->problem, _("cannot read the archive %.200s: %.150s"),
                 shown, archive_error_string(a) ? archive_error_string(a) : _("unknown format"));
        archive_read_free(a);
        return;
    }
    struct archive_entry *e;
    size_t entries = 0, total = 0, hidden = 0;
    int rc, damaged = 0;
    const char *too_much =
        _("the archive holds more than %d files or expands past %zu MiB: not read");
    /* A warning (a name that is not in this locale's characters, for one) is no error. */
    while ((rc = archive_read_next_header(a, &e)) == ARCHIVE_OK || rc == ARCHIVE_WARN) {
        la_int64_t declared = archive_entry_size_is_set(e) ? archive_entry_size(e) : 0;
        const char *name = archive_entry_pathname_utf8(e);
        if (!name)
            name = archive_entry_pathname(e);
        if (name && hidden_part(name) && declared >= 0 &&
            (hidden += (size_t)declared) <= IN_MAX_HIDDEN_BYTES) {
            archive_read_data_skip(a); /* a repository's .git/, a .backup/ copy: never read */
            continue;
        }
        if (++entries > IN_MAX_ENTRIES || declared < 0 ||
            total + (size_t)declared > IN_MAX_ARCHIVE_BYTES || hidden > IN_MAX_HIDDEN_BYTES) {
            snprintf(st->problem, sizeof st->problem, too_much, IN_MAX_ENTRIES,
                     IN_MAX_ARCHIVE_BYTES >> 20);
            break;
        }
        if (!name)
            continue;
        char origin[1500];
        snprintf(origin, sizeof origin, "%s:%s", shown, name);
        size_t stem;
        if (is_archive(name, &stem))
            passed_over(st, _("an archive inside an archive, not read"), origin);
        int lab = in_lab_of(name, labs, nlabs);
        size_t size = 0;
        /* Every entry's data is read here, counted against the budget (kept only for a kernel
         * that may be taken): the next header would otherwise skip it unseen. */
        int takeable = lab >= 0 && stays_inside(name) && !archive_entry_hardlink(e) &&
                       archive_entry_filetype(e) == AE_IFREG;
        char *text = read_entry(a, takeable ? IN_MAX_KERNEL_BYTES : 0, &size, &total, &damaged);
        if (damaged || total > IN_MAX_ARCHIVE_BYTES) {
            free(text);
            if (damaged)
                snprintf(st->problem, sizeof st->problem,
                         _("the archive %.200s is damaged: %.150s"), shown,
                         archive_error_string(a) ? archive_error_string(a) : _("bad data"));
            else
                snprintf(st->problem, sizeof st->problem, too_much, IN_MAX_ENTRIES,
                         IN_MAX_ARCHIVE_BYTES >> 20);
            break;
        }
        if (lab < 0) {
            free(text);
        } else if (!stays_inside(name)) {
            free(text);
            take(st, lab, origin, NULL, 0, _("its path leaves the archive"));
        } else if (archive_entry_hardlink(e) || archive_entry_filetype(e) == AE_IFLNK) {
            free(text);
            take(st, lab, origin, NULL, 0, _("a link, never followed"));
        } else if (archive_entry_filetype(e) != AE_IFREG) {
            free(text);
            take(st, lab, origin, NULL, 0, _("not a regular file"));
        } else {
            take(st, lab, origin, text, size, text ? NULL : too_large());
        }
    }
    if (rc != ARCHIVE_EOF && rc != ARCHIVE_OK && rc != ARCHIVE_WARN && !st->problem[0])
        snprintf(st->problem, sizeof st->problem, _("the archive %.200s is damaged: %.150s"), shown,
                 archive_error_string(a) ? archive_error_string(a) : _("unreadable entry"));
    archive_read_free(a);
}

/* ---- the folder of submissions ---- */

static int by_name(const void *a, const void *b)
{
    return strcmp(((const in_student *)a)->name, ((const in_student *)b)->name);
}

static void tell_apart(in_batch *out);

int in_scan(const char *dir, const lab_spec *const *labs, size_t nlabs, in_batch *out, char *why,
            size_t why_size)
{
    memset(out, 0, sizeof *out);
    if (nlabs > IN_MAX_LABS) {
        snprintf(why, why_size, _("at most %d labs at once"), IN_MAX_LABS);
        return -1;
    }
    int top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = top >= 0 ? fdopendir(top) : NULL;
    if (!d) {
        snprintf(why, why_size, _("cannot read the folder '%s': %s"), dir, strerror(errno));
        if (top >= 0)
            close(top);
        return -1;
    }
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        struct stat st;
        size_t stem = strlen(e->d_name);
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        int known = fstatat(top, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0;
        int archive = known && S_ISREG(st.st_mode) && is_archive(e->d_name, &stem);
        if (out->n == cap) {
            cap = cap ? 2 * cap : 64;
            in_student *more = realloc(out->students, cap * sizeof *more);
            if (!more)
                break;
            out->students = more;
        }
        /* Every entry is a row: read, or refused with what to do. */
        in_student *s = &out->students[out->n++];
        memset(s, 0, sizeof *s);
        snprintf(s->entry, sizeof s->entry, "%s", e->d_name);
        size_t cut = wi_utf8_cut(e->d_name, stem < 200 ? stem : 200);
        snprintf(s->name, sizeof s->name, "%.*s", (int)cut, e->d_name);
        one_line(s->name);
        one_line(s->entry);
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.') {
            snprintf(s->problem, sizeof s->problem,
                     _("hidden (its name begins with '.'): not read; rename it if it is a "
                       "student's submission"));
        } else if (!known || (!S_ISDIR(st.st_mode) && !archive && !S_ISLNK(st.st_mode))) {
            if (n > 3 && !strcmp(e->d_name + n - 3, ".cu"))
                snprintf(s->problem, sizeof s->problem,
                         _("a kernel file at the top of the class folder, in no student's folder: "
                           "put each student's files in a folder (or an archive) named after "
                           "them"));
            else
                snprintf(s->problem, sizeof s->problem,
                         _("neither a folder nor an archive the grader reads (%s): put each "
                           "student's files in a folder or one of those, named after them"),
                         IN_ARCHIVES);
        } else if (S_ISLNK(st.st_mode)) {
            snprintf(s->problem, sizeof s->problem, _("%.200s is a link, never followed"), s->name);
        } else if (archive) {
            int f = openat(top, e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
            char shown[300];
            snprintf(shown, sizeof shown, "%.250s", e->d_name);
            one_line(shown);
            if (f >= 0) {
                char fdpath[64];
                snprintf(fdpath, sizeof fdpath, "/proc/self/fd/%d", f);
                read_archive(s, fdpath, shown, labs, nlabs);
                close(f);
            }
        } else {
            walk w = {s, labs, nlabs, 0};
            int sub = openat(top, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0)
                walk_dir(&w, sub, s->name, "", 0);
        }
    }
    closedir(d);
    tell_apart(out);
    return 0;
}

/* The whole name of entry, without its archive's ending. */
static size_t stem_of(const char *entry)
{
    size_t stem = strlen(entry);
    is_archive(entry, &stem);
    return stem;
}

/* Sorts the rows by name. Two entries of one name (alice/ and alice.zip): neither is taken,
 * which was meant is not for the grader to guess. Two long names that were only cut alike are
 * told apart, each by a hash of its whole name. */
static void tell_apart(in_batch *out)
{
    if (!out->n)
        return;
    qsort(out->students, out->n, sizeof *out->students, by_name);
    int renamed = 0;
    for (size_t i = 0; i + 1 < out->n; ++i) {
        in_student *a = &out->students[i], *b = &out->students[i + 1];
        if (strcmp(a->name, b->name))
            continue;
        size_t sa = stem_of(a->entry), sb = stem_of(b->entry);
        if (sa == sb && !strncmp(a->entry, b->entry, sa))
            continue; /* truly one name: refused below */
        for (in_student *x = a; x <= b; ++x) {
            size_t len = wi_utf8_cut(x->name, 200);
            snprintf(x->name + len, sizeof x->name - len, "~%08x",
                     (unsigned)sd_fnv1a(x->entry, strlen(x->entry)));
        }
        renamed = 1;
    }
    if (renamed)
        qsort(out->students, out->n, sizeof *out->students, by_name);
    for (size_t i = 0; i + 1 < out->n; ++i)
        for (size_t j = i + 1; j < out->n && !strcmp(out->students[i].name, out->students[j].name);
             ++j)
            for (size_t k = i; k <= j; k += j - i)
                snprintf(out->students[k].problem, sizeof out->students[k].problem,
                         _("two submissions are named '%.180s' (a folder and an archive, or two "
                           "archives): keep one"),
                         out->students[i].name);
}

void in_free(in_batch *b)
{
    for (size_t i = 0; b && i < b->n; ++i)
        for (int k = 0; k < IN_MAX_LABS; ++k)
            free(b->students[i].labs[k].text);
    if (b)
        free(b->students);
    if (b)
        memset(b, 0, sizeof *b);
}
