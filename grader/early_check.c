/* early_check.c - see early_check.h. */
#define _GNU_SOURCE
#include "early_check.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "child.h"

static void *check_thread(void *arg)
{
    ec_check *e = arg;
    /* Below the run child, which measures on the same cores meanwhile (where that is not
     * allowed, the check runs at the grader's priority, as it did after the child). */
    id_t self = (id_t)syscall(SYS_gettid);
    errno = 0;
    int nice = getpriority(PRIO_PROCESS, self);
    if (errno == 0)
        setpriority(PRIO_PROCESS, self, nice + 10 > 19 ? 19 : nice + 10);
    wi_result *res = malloc(sizeof *res);
    char bad[512];
    int saved = 0;
    while (res) { /* read once more after the child has ended: its record may be there */
        int ended = atomic_load(&e->child_ended);
        saved =
            ch_read_result(e->dir, res, bad, sizeof bad) == 0 && res->has_run && res->run.launched;
        if (saved || ended)
            break;
        nanosleep(&(struct timespec){0, 5 * 1000 * 1000}, NULL);
    }
    free(res);
    if (saved) {
        double t = rn_now_s();
        e->rc = e->spec->check(e->dir, e->seeds, &e->spec->shapes->graded, &e->check);
        e->seconds = rn_now_s() - t;
        e->done = 1;
    }
    return NULL;
}

void ec_begin(ec_check *e, const lab_spec *spec, sd_seeds seeds, const char *dir, int enabled)
{
    memset(e, 0, sizeof *e);
    e->spec = spec;
    e->seeds = seeds;
    e->dir = dir;
    atomic_init(&e->child_ended, 0);
    e->started = enabled && pthread_create(&e->thread, NULL, check_thread, e) == 0;
}

void ec_end(ec_check *e, const rn_result *r, const wi_result *last)
{
    atomic_store(&e->child_ended, 1);
    if (e->started)
        pthread_join(e->thread, NULL);
    e->started = 0;
    e->usable = e->done && r && r->status == RN_EXITED && r->exit_code == 0 && !r->again && last &&
                last->has_run && !last->run.checked_after_timing;
}
