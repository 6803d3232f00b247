/*
 * test_intake.c - in_scan() on a folder of submissions made here: folders (a student-edition
 * tree, flat files), archives written with libarchive (zip, tar.gz), and what must be refused
 * (links, paths that leave an archive, oversized and binary files, two files for one lab).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "intake.h"

static char root[64];

static void put(const char *rel, const char *text, size_t size)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); ++p) {
        *p = '\0';
        mkdir(path, 0700);
        *p = '/';
    }
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, size, f), size);
    fclose(f);
}

static void put_text(const char *rel, const char *text)
{
    put(rel, text, strlen(text));
}

/* A symbolic link at rel (below root) to target (below root too). */
static void put_link(const char *rel, const char *target)
{
    char link[512], to[512];
    snprintf(link, sizeof link, "%s/%s", root, rel);
    snprintf(to, sizeof to, "%s/%s", root, target);
    assert_int_equal(symlink(to, link), 0);
}

/* One archive entry: a file (text) or, with link set, a symbolic link to it. */
typedef struct entry {
    const char *path, *text, *link;
    size_t size; /* 0: strlen(text) */
} entry;

/* The archives put_archive writes: a tar.gz, a zip (deflated or stored), a tar.xz, a tar.bz2,
 * a 7z. */
enum { TGZ, ZIP, ZIP_STORED, TXZ, TBZ2, SEVEN_Z };

static void put_archive(const char *rel, int zip, const entry *e, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    struct archive *a = archive_write_new();
    if (zip == ZIP || zip == ZIP_STORED) {
        archive_write_set_format_zip(a);
        if (zip == ZIP_STORED)
            archive_write_set_format_option(a, "zip", "compression", "store");
    } else if (zip == SEVEN_Z) {
        archive_write_set_format_7zip(a);
    } else {
        archive_write_set_format_pax_restricted(a);
        if (zip == TXZ)
            archive_write_add_filter_xz(a);
        else if (zip == TBZ2)
            archive_write_add_filter_bzip2(a);
        else
            archive_write_add_filter_gzip(a);
    }
    assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
    for (size_t i = 0; i < n; ++i) {
        struct archive_entry *ae = archive_entry_new();
        archive_entry_set_pathname(ae, e[i].path);
        size_t size = e[i].link ? 0 : e[i].size ? e[i].size : strlen(e[i].text);
        archive_entry_set_filetype(ae, e[i].link ? AE_IFLNK : AE_IFREG);
        if (e[i].link)
            archive_entry_set_symlink(ae, e[i].link);
        archive_entry_set_perm(ae, 0644);
        archive_entry_set_size(ae, (la_int64_t)size);
        assert_true(archive_write_header(a, ae) >=
                    ARCHIVE_WARN); /* WARN: a name not in this locale */
        if (size)
            assert_int_equal(archive_write_data(a, e[i].text, size), (la_ssize_t)size);
        archive_entry_free(ae);
    }
    archive_write_close(a);
    archive_write_free(a);
}

static const lab_spec *labs2[2];

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/test-intake-XXXXXX");
    assert_non_null(mkdtemp(root));
    labs2[0] = lab_find("01");
    labs2[1] = lab_find("02");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd);
}

static const in_student *student(const in_batch *b, const char *name)
{
    for (size_t i = 0; i < b->n; ++i)
        if (!strcmp(b->students[i].name, name))
            return &b->students[i];
    fail_msg("no student '%s'", name);
    return &b->students[0];
}

static void assert_contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("'%s' is not in \"%s\"", part, text);
}

static void test_lab_of_names(void **state)
{
    (void)state;
    const lab_spec *one[1] = {lab_find("03")};
    assert_int_equal(in_lab_of("labs/01-dram-burst/kernel.cu", labs2, 2), 0);
    assert_int_equal(in_lab_of("x/y/02-stride/kernel.cu", labs2, 2), 1);
    assert_int_equal(in_lab_of("01-dram-burst.cu", labs2, 2), 0);
    assert_int_equal(in_lab_of("sub/02.cu", labs2, 2), 1);
    assert_int_equal(in_lab_of("03.cu", labs2, 2), -1);        /* not graded now */
    assert_int_equal(in_lab_of("01-stride.cu", labs2, 2), -1); /* number and slug disagree */
    assert_int_equal(in_lab_of("kernel.cu", labs2, 2), -1);    /* which lab? */
    assert_int_equal(in_lab_of("kernel.cu", one, 1), 0);       /* the one graded */
    assert_int_equal(in_lab_of("labs/01-dram-burst/kernel.cu", one, 1), -1); /* lab 01's */
    assert_int_equal(in_lab_of("notes.txt", labs2, 2), -1);
    assert_int_equal(in_lab_of("lab01_explore.cu", labs2, 2), -1);
}

static void test_folders_archives_and_refusals(void **state)
{
    (void)state;
    /* alice: a student-edition tree, other files beside it */
    put_text("alice/labs/01-dram-burst/kernel.cu", "// alice 01\n");
    put_text("alice/labs/02-stride/kernel.cu", "// alice 02\n");
    put_text("alice/handouts/01-dram-burst.md", "# not a kernel\n");
    put_text("alice/.git/01.cu", "// hidden: not looked at\n");
    /* bob: flat files; lab 02 missing */
    put_text("bob/01.cu", "// bob 01\n");
    put_text("bob/notes.txt", "nothing\n");
    /* carol: a zip holding a folder of her own */
    entry carol[] = {{"carol/labs/01-dram-burst/kernel.cu", "// carol 01\n", NULL, 0},
                     {"carol/02-stride.cu", "// carol 02\n", NULL, 0}};
    put_archive("carol.zip", 1, carol, 2);
    /* dave: a link, and a binary file */
    put_text("target.txt", "outside\n");
    put_text("dave/placeholder", "x");
    put_link("dave/01-dram-burst.cu", "target.txt");
    char link[512];
    put("dave/02.cu", "ab\0cd", 5);
    /* eve: two files for lab 01 */
    put_text("eve/01.cu", "// one\n");
    put_text("eve/labs/01-dram-burst/kernel.cu", "// two\n");
    /* frank: a tar.gz with a path out of it, a link and an oversized kernel */
    static char big[(1 << 20) + 10];
    memset(big, 'x', sizeof big);
    entry frank[] = {{"../01-dram-burst.cu", "// escapes\n", NULL, 0},
                     {"02.cu", NULL, "/etc/passwd", 0},
                     {"readme", "fine\n", NULL, 0}};
    put_archive("frank.tar.gz", 0, frank, 3);
    entry grace[] = {{"01.cu", big, NULL, sizeof big}};
    put_archive("grace.tgz", 0, grace, 1);
    /* a damaged archive, a link as a whole submission, a stray file */
    put_text("heidi.zip", "this is no zip");
    snprintf(link, sizeof link, "%s/mallory", root);
    assert_int_equal(symlink("/etc", link), 0);
    put_text("README.txt", "not a submission\n");

    in_batch b;
    char why[256];
    assert_int_equal(in_scan(root, labs2, 2, &b, why, sizeof why), 0);
    /* alice bob carol dave eve frank grace heidi mallory, and README.txt and target.txt: rows
     * too, refused with what to do */
    assert_int_equal(b.n, 11);
    assert_string_equal(b.students[0].name, "README.txt");
    assert_contains(b.students[0].problem, "neither a folder nor an archive");
    assert_string_equal(b.students[1].name, "alice");

    const in_student *s = student(&b, "alice");
    assert_string_equal(s->labs[0].text, "// alice 01\n");
    assert_string_equal(s->labs[1].text, "// alice 02\n");
    assert_string_equal(s->labs[0].origin, "alice/labs/01-dram-burst/kernel.cu");

    s = student(&b, "bob");
    assert_string_equal(s->labs[0].text, "// bob 01\n");
    assert_null(s->labs[1].text);
    assert_string_equal(s->labs[1].problem, "");

    s = student(&b, "carol");
    assert_string_equal(s->labs[0].text, "// carol 01\n");
    assert_string_equal(s->labs[1].text, "// carol 02\n");
    assert_string_equal(s->labs[1].origin, "carol.zip:carol/02-stride.cu");

    s = student(&b, "dave");
    assert_null(s->labs[0].text);
    assert_contains(s->labs[0].problem, "a link, never followed");
    assert_null(s->labs[1].text);
    assert_contains(s->labs[1].problem, "not a text file");

    s = student(&b, "eve");
    assert_null(s->labs[0].text);
    assert_contains(s->labs[0].problem, "two files for one lab");

    s = student(&b, "frank");
    assert_null(s->labs[0].text);
    assert_contains(s->labs[0].problem, "its path leaves the archive");
    assert_null(s->labs[1].text);
    assert_contains(s->labs[1].problem, "a link, never followed");

    s = student(&b, "grace");
    assert_null(s->labs[0].text);
    assert_contains(s->labs[0].problem, "too large");

    s = student(&b, "heidi");
    assert_contains(s->problem, "cannot read the archive heidi.zip");

    s = student(&b, "mallory");
    assert_contains(s->problem, "a link, never followed");
    in_free(&b);
}

/* A class term's entries (issue 36): every one a row, read or refused with what to do; the
 * other archive formats; the archive a student uploaded in a folder of theirs (Moodle); what
 * the reading passed over said; hidden folders of an archive passed over as a folder's are,
 * a repository's history too, however large; long names cut alike told apart. */
static void test_every_entry_a_row(void **state)
{
    (void)state;
    char term[64];
    assert_true(strlen(root) + 6 <= sizeof term);
    memcpy(term, root, strlen(root));
    memcpy(term + strlen(root), "/term", 6);
    mkdir(term, 0700);
    char saved[64];
    snprintf(saved, sizeof saved, "%s", root);
    snprintf(root, sizeof root, "%s", term); /* put() and put_archive() write below it now */
    entry one[] = {{"labs/01-dram-burst/kernel.cu", "// k01\n", NULL, 0},
                   {"02.cu", "// k02\n", NULL, 0}};
    put_archive("ivan.tar.xz", TXZ, one, 2);
    put_archive("judy.tar.bz2", TBZ2, one, 2);
    put_archive("ken.7z", SEVEN_Z, one, 2);
    char moodle[160];
    snprintf(moodle, sizeof moodle, "%s/moodle-lea", root);
    mkdir(moodle, 0700);
    put_archive("moodle-lea/upload.zip", ZIP, one, 2); /* a folder holding the zip */
    put_text("01.cu", "// a kernel at the top\n");
    put_text("mike.cu.gz", "not read\n");
    put_text(".hidden-nina/01.cu", "// hidden\n");
    /* a linked folder, a kernel too deep */
    put_text("olga/notes.txt", "x");
    put_link("olga/labs", "ivan.tar.xz");
    put_text("pat/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/01.cu", "// deep\n");
    /* an archive with a .backup/ copy and a large .git/ history */
    static char history[(size_t)70 << 20];
    entry repo[] = {{"./labs/01-dram-burst/kernel.cu", "// quinn 01\n", NULL, 0},
                    {".backup/labs/01-dram-burst/kernel.cu", "// old copy\n", NULL, 0},
                    {".git/objects/pack/big.pack", history, NULL, sizeof history}};
    put_archive("quinn.tar.gz", TGZ, repo, 3);
    /* two names alike in their first 200 bytes */
    char longname[300];
    memset(longname, 'r', 230);
    snprintf(longname + 230, sizeof longname - 230, "-a/01.cu");
    put_text(longname, "// ra\n");
    snprintf(longname + 230, sizeof longname - 230, "-b/01.cu");
    put_text(longname, "// rb\n");
    snprintf(root, sizeof root, "%s", saved);

    in_batch b;
    char why[256];
    assert_int_equal(in_scan(term, labs2, 2, &b, why, sizeof why), 0);
    assert_int_equal(b.n, 12);
    for (const char *const *n = (const char *const[]){"ivan", "judy", "ken", NULL}; *n; ++n) {
        const in_student *s = student(&b, *n);
        assert_string_equal(s->problem, "");
        assert_string_equal(s->labs[0].text, "// k01\n");
        assert_string_equal(s->labs[1].text, "// k02\n");
    }
    const in_student *s = student(&b, "moodle-lea");
    assert_string_equal(s->labs[0].text, "// k01\n");
    assert_contains(s->labs[0].origin, "moodle-lea/upload.zip:labs/01-dram-burst/kernel.cu");
    assert_contains(student(&b, "01.cu")->problem, "a kernel file at the top of the class folder");
    assert_contains(student(&b, "mike.cu.gz")->problem, "neither a folder nor an archive");
    assert_contains(student(&b, ".hidden-nina")->problem, "hidden");
    s = student(&b, "olga");
    assert_null(s->labs[0].text);
    assert_contains(s->skipped, "a link, never followed: olga/labs");
    s = student(&b, "pat");
    assert_null(s->labs[0].text);
    assert_contains(s->skipped, "a folder too deep");
    s = student(&b, "quinn");
    assert_string_equal(s->problem, "");
    assert_string_equal(s->labs[0].text, "// quinn 01\n"); /* not two files: .backup/ passed */
    size_t long_rows = 0;
    for (size_t i = 0; i < b.n; ++i)
        if (b.students[i].name[0] == 'r') {
            ++long_rows;
            assert_string_equal(b.students[i].problem, "");
            assert_non_null(strchr(b.students[i].name, '~'));
            assert_non_null(b.students[i].labs[0].text);
        }
    assert_int_equal(long_rows, 2);
    assert_string_not_equal(student(&b, "ivan")->name, "");
    in_free(&b);
}

/* What the review of 2026-12-01 broke: a non-ASCII name beside the kernel (pax archives, as
 * macOS and Windows write them), a damaged zip, an archive that expands too far, one name for
 * two submissions, a hard link in a folder. */
static void test_what_the_review_broke(void **state)
{
    (void)state;
    char sub[64], saved[64];
    snprintf(sub, sizeof sub, "%.50s/two", root);
    mkdir(sub, 0700);
    snprintf(saved, sizeof saved, "%s", root);
    snprintf(root, sizeof root, "%s", sub);
    entry utf8[] = {{"kim/notes-\xc3\xa9.txt", "accent\n", NULL, 0},
                    {"kim/labs/01-dram-burst/kernel.cu", "// kim 01\n", NULL, 0}};
    put_archive("kim.tar.gz", 0, utf8, 2);
    static char zeros[70 << 20];
    entry bomb[] = {{"big.bin", zeros, NULL, sizeof zeros}, {"01.cu", "// late\n", NULL, 0}};
    put_archive("lou.tgz", 0, bomb, 2);
    entry good[] = {{"01.cu", "// one\n", NULL, 0}};
    put_archive("dup.zip", 1, good, 1);
    put_text("dup/01.cu", "// two\n");
    /* a zip whose kernel's bytes no longer match its checksum */
    static char body[20000];
    memset(body, 'k', sizeof body);
    entry crc[] = {{"01.cu", body, NULL, sizeof body}};
    put_archive("max.zip", 2, crc, 1);
    char path[256];
    snprintf(path, sizeof path, "%s/max.zip", root);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    fseek(f, 200, SEEK_SET); /* inside the stored data */
    int c = fgetc(f);
    fseek(f, 200, SEEK_SET);
    fputc(c ^ 0x5a, f);
    fclose(f);
    put_text("target.cu", "// not hers\n");
    put_text("nan/placeholder", "x");
    char from[256], to[256];
    snprintf(from, sizeof from, "%s/target.cu", root);
    snprintf(to, sizeof to, "%s/nan/01.cu", root);
    assert_int_equal(link(from, to), 0);
    snprintf(root, sizeof root, "%s", saved);

    in_batch b;
    char why[256];
    assert_int_equal(in_scan(sub, labs2, 2, &b, why, sizeof why), 0);
    const in_student *s = student(&b, "kim");
    assert_string_equal(s->problem, "");
    assert_string_equal(s->labs[0].text, "// kim 01\n");
    s = student(&b, "lou");
    assert_contains(s->problem, "expands past 64 MiB");
    assert_true(b.students[0].name[0] == 'd');
    assert_contains(b.students[0].problem, "two submissions are named 'dup'");
    assert_contains(b.students[1].problem, "two submissions are named 'dup'");
    s = student(&b, "max");
    assert_contains(s->problem, "the archive max.zip is damaged");
    s = student(&b, "nan");
    assert_null(s->labs[0].text);
    assert_contains(s->labs[0].problem, "a hard link");
    in_free(&b);
}

static void test_kernel_alone_for_one_lab(void **state)
{
    (void)state;
    char sub[64];
    snprintf(sub, sizeof sub, "%.50s/one", root);
    mkdir(sub, 0700);
    char saved[64];
    snprintf(saved, sizeof saved, "%s", root);
    snprintf(root, sizeof root, "%s", sub);
    put_text("ivan/kernel.cu", "// ivan\n");
    snprintf(root, sizeof root, "%s", saved);
    const lab_spec *one[1] = {lab_find("01")};
    in_batch b;
    char why[256];
    assert_int_equal(in_scan(sub, one, 1, &b, why, sizeof why), 0);
    assert_int_equal(b.n, 1);
    assert_string_equal(b.students[0].labs[0].text, "// ivan\n");
    in_free(&b);
    assert_int_equal(in_scan("/nonexistent-folder", one, 1, &b, why, sizeof why), -1);
    assert_contains(why, "cannot read the folder '/nonexistent-folder'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lab_of_names),
        cmocka_unit_test(test_folders_archives_and_refusals),
        cmocka_unit_test(test_every_entry_a_row),
        cmocka_unit_test(test_what_the_review_broke),
        cmocka_unit_test(test_kernel_alone_for_one_lab),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
