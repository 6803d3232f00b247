/*
 * test_confine.c - what a recording leaves in /dev/shm is removed once it has ended
 * (confine.h: gr_leftovers_note, gr_leftovers_remove), folders and all, and only that: not
 * what was there before, not what a running process holds. Skipped (77) where there is no /dev/shm.
 *
 *   cmake --build build --target test_confine && build/test_confine
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "confine.h"
#include "runner.h"

static char before[64], left[64], held[64], kept_dir[64], mapped[64];

static void make(const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("x\n", f);
    fclose(f);
}

static void test_leftovers_of_a_run_are_removed(void **state)
{
    (void)state;
    long pid = (long)getpid();
    snprintf(before, sizeof before, "/dev/shm/cl-test-before-%ld", pid);
    snprintf(left, sizeof left, "/dev/shm/cl-test-left-%ld", pid);
    snprintf(held, sizeof held, "/dev/shm/cl-test-held-%ld", pid);
    snprintf(kept_dir, sizeof kept_dir, "/dev/shm/cl-test-dir-%ld", pid);
    make(before);
    gr_leftovers l;
    assert_int_equal(gr_leftovers_note(&l), 0);
    /* What the run makes: a file it leaves, a folder with a file; and one this process keeps
     * open. */
    char script[1400];
    snprintf(script, sizeof script,
             "echo left > '%s' && mkdir '%s' && echo in > '%s/in' && echo h > '%s.hidden' && "
             "mkdir '%s.locked' && echo l > '%s.locked/f' && chmod 0500 '%s.locked' && "
             "mkdir -p '%s.deep/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/19' && "
             "echo d > '%s.deep/1/2/3/4/5/6/7/8/9/10/11/12/13/14/15/16/17/18/19/f'",
             left, kept_dir, kept_dir, kept_dir, kept_dir, kept_dir, kept_dir, kept_dir, kept_dir);
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    rn_options o = {.timeout_s = 10, .output_cap = 1024};
    rn_result r;
    assert_int_equal(rn_run(argv, &o, &r), 0);
    assert_int_equal(r.exit_code, 0);
    rn_result_free(&r);
    int fd = open(held, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    assert_true(fd >= 0);
    /* ... and one it maps, its descriptor closed, as shm_open's users do. */
    snprintf(mapped, sizeof mapped, "/dev/shm/cl-test-mapped-%ld", pid);
    int mfd = open(mapped, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
    assert_true(mfd >= 0);
    assert_int_equal(ftruncate(mfd, 4096), 0);
    void *map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
    assert_true(map != MAP_FAILED);
    close(mfd);
    /* left, in, .hidden, .locked/f, .deep/.../f */
    assert_int_equal(gr_leftovers_remove(&l), 5);
    assert_int_not_equal(access(left, F_OK), 0);
    assert_int_not_equal(access(kept_dir, F_OK), 0); /* a folder it made, and what is in it */
    char other[96];
    snprintf(other, sizeof other, "%s.hidden", kept_dir);
    assert_int_not_equal(access(other, F_OK), 0);
    snprintf(other, sizeof other, "%s.locked", kept_dir);
    assert_int_not_equal(access(other, F_OK), 0);
    snprintf(other, sizeof other, "%s.deep", kept_dir);
    assert_int_not_equal(access(other, F_OK), 0);
    assert_int_equal(access(before, F_OK), 0);
    assert_int_equal(access(held, F_OK), 0);
    assert_int_equal(access(mapped, F_OK), 0);
    munmap(map, 4096);
    close(fd);
    unlink(before);
    unlink(held);
    unlink(mapped);
}

/* Without a note (it failed), nothing is removed. */
static void test_no_note_removes_nothing(void **state)
{
    (void)state;
    gr_leftovers l;
    memset(&l, 0, sizeof l);
    snprintf(left, sizeof left, "/dev/shm/cl-test-unnoted-%ld", (long)getpid());
    make(left);
    assert_int_equal(gr_leftovers_remove(&l), 0);
    assert_int_equal(access(left, F_OK), 0);
    unlink(left);
}

int main(void)
{
    if (access("/dev/shm", W_OK) != 0) {
        printf("no /dev/shm to write: skipped\n");
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_leftovers_of_a_run_are_removed),
        cmocka_unit_test(test_no_note_removes_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
