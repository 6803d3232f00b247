/*
 * test_registry.c - the tree against the registry (grader/labs/labs.def): every row has all of
 * its lab's files, every lab folder or handout in the tree has a row, and the grader's table
 * says what the rows say. A forgotten file or row fails here, by name, instead of silently.
 *
 * Build and run (the project CMake builds it as test_registry, with CL_SOURCE_DIR set):
 *   cmake --build build --target test_registry && build/test_registry
 *
 * In a student edition there is no solutions/ and no tests/submissions/: what is not there is
 * not asked for.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lab.h"

#ifndef CL_SOURCE_DIR
#error "CL_SOURCE_DIR must name the source tree"
#endif

typedef struct row {
    const char *id, *slug;
} row;

static const row rows[] = {
#define CL_LAB(nn, slug) {#nn, slug},
#include "labs.def"
#undef CL_LAB
};
static const size_t nrows = sizeof rows / sizeof rows[0];

/* Writes CL_SOURCE_DIR/templ into buf, with every "NN" replaced by r's number and every
 * "slug" by its slug; returns whether that path exists. */
static int lab_path(const row *r, const char *templ, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "%s/", CL_SOURCE_DIR);
    for (const char *p = templ; *p && used + 1 < size;) {
        const char *put = !strncmp(p, "NN", 2) ? r->id : !strncmp(p, "slug", 4) ? r->slug : NULL;
        if (put) {
            used += (size_t)snprintf(buf + used, size - used, "%s", put);
            p += put == r->id ? 2 : 4;
        } else {
            buf[used++] = *p++;
            buf[used] = '\0';
        }
    }
    struct stat st;
    return stat(buf, &st) == 0;
}

/* The row whose "NN-slug" is name, or NULL. */
static const row *row_named(const char *name, size_t len)
{
    for (size_t i = 0; i < nrows; ++i) {
        char full[128];
        snprintf(full, sizeof full, "%s-%s", rows[i].id, rows[i].slug);
        if (strlen(full) == len && !strncmp(full, name, len))
            return &rows[i];
    }
    return NULL;
}

static void test_registry_rows_are_numbered_in_order(void **state)
{
    (void)state;
    assert_true(nrows > 0);
    for (size_t i = 0; i < nrows; ++i) {
        assert_int_equal(strlen(rows[i].id), 2);
        assert_true(isdigit((unsigned char)rows[i].id[0]) && isdigit((unsigned char)rows[i].id[1]));
        assert_true(strspn(rows[i].slug, "abcdefghijklmnopqrstuvwxyz0123456789-") ==
                    strlen(rows[i].slug));
        if (i > 0 && strcmp(rows[i - 1].id, rows[i].id) >= 0)
            fail_msg("row %s comes after row %s: keep the rows in order of number", rows[i].id,
                     rows[i - 1].id);
    }
}

static void test_registry_table_matches_rows(void **state)
{
    (void)state;
    assert_int_equal(lab_count, nrows);
    for (size_t i = 0; i < nrows; ++i) {
        if (strcmp(lab_table[i]->id, rows[i].id) || strcmp(lab_table[i]->slug, rows[i].slug))
            fail_msg("the spec of row %s-%s calls itself %s-%s", rows[i].id, rows[i].slug,
                     lab_table[i]->id, lab_table[i]->slug);
        assert_ptr_equal(lab_find(rows[i].id), lab_table[i]);
        assert_ptr_equal(lab_find(rows[i].slug), lab_table[i]);
    }
}

static void test_registry_every_row_has_its_files(void **state)
{
    (void)state;
    static const char *const always[] = {
        "labs/NN-slug/kernel.cu",
        "labs/NN-slug/labNN.h",
        "handouts/NN-slug.md",
        "grader/labs/NN-slug/labNN_spec.c",
        "grader/labs/NN-slug/labNN_data.c",
        "grader/labs/NN-slug/labNN_data.h",
        "grader/labs/NN-slug/labNN_run.c",
        "tests/gpu/labNN.sh",
    };
    char path[1024];
    row none = {"", ""};
    int solutions = lab_path(&none, "solutions", path, sizeof path);
    int fails = 0;
    for (size_t i = 0; i < nrows; ++i) {
        for (size_t f = 0; f < sizeof always / sizeof always[0]; ++f) {
            if (!lab_path(&rows[i], always[f], path, sizeof path)) {
                print_error("lab %s-%s lacks '%s'\n", rows[i].id, rows[i].slug, path);
                ++fails;
            }
        }
        if (solutions && !lab_path(&rows[i], "solutions/NN-slug/kernel.cu", path, sizeof path)) {
            print_error("lab %s-%s lacks '%s'\n", rows[i].id, rows[i].slug, path);
            ++fails;
        }
    }
    assert_int_equal(fails, 0);
}

/* Every entry of folder whose name starts with two digits must be a row's "NN-slug" followed
 * by suffix ("" for folders, ".md" for handouts); "00-..." (the introduction) is no lab. */
static int unregistered_in(const char *folder, const char *suffix)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", CL_SOURCE_DIR, folder);
    DIR *d = opendir(path);
    if (!d)
        return 0; /* not in this edition */
    int fails = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        if (!isdigit((unsigned char)n[0]) || !isdigit((unsigned char)n[1]) || !strncmp(n, "00", 2))
            continue;
        size_t len = strlen(n), slen = strlen(suffix);
        int suffixed = len > slen && !strcmp(n + len - slen, suffix);
        if (!suffixed || !row_named(n, len - slen)) {
            print_error("'%s/%s' is not a lab of grader/labs/labs.def\n", folder, n);
            ++fails;
        }
    }
    closedir(d);
    return fails;
}

static void test_registry_every_lab_in_the_tree_has_a_row(void **state)
{
    (void)state;
    int fails = unregistered_in("labs", "") + unregistered_in("solutions", "") +
                unregistered_in("grader/labs", "") + unregistered_in("tests/submissions", "") +
                unregistered_in("handouts", ".md");
    assert_int_equal(fails, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_rows_are_numbered_in_order),
        cmocka_unit_test(test_registry_table_matches_rows),
        cmocka_unit_test(test_registry_every_row_has_its_files),
        cmocka_unit_test(test_registry_every_lab_in_the_tree_has_a_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
