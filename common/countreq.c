/* countreq.c - see countreq.h. A request travels as text, "LAB SEED SALT POISON LIMIT_MS SHARED
 * DIR" (whole
 * milliseconds: no decimal point for a locale to change), so that a malformed one is refused
 * whole rather than misread. */
#define _GNU_SOURCE /* pipe2, MSG_CMSG_CLOEXEC */
#include "countreq.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { MAX_MESSAGE = 4096 + 128 };

int cq_send(int sock, const cq_request *rq, int *answer)
{
    char text[MAX_MESSAGE];
    if (!(rq->limit_s > 0) || rq->limit_s > 1e6) {
        errno = EINVAL;
        return -1;
    }
    int n = snprintf(text, sizeof text, "%s %" PRIu64 " %" PRIu64 " %" PRIu32 " %" PRIu64 " %d %s",
                     rq->lab, rq->seed, rq->salt, rq->poison, (uint64_t)(rq->limit_s * 1000 + 0.5),
                     rq->shared ? 1 : 0, rq->dir);
    if (n < 0 || (size_t)n >= sizeof text || !rq->lab[0] || strchr(rq->lab, ' ')) {
        errno = EINVAL;
        return -1;
    }
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return -1;
    struct iovec io = {.iov_base = text, .iov_len = (size_t)n};
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr m = {.msg_iov = &io,
                       .msg_iovlen = 1,
                       .msg_control = control.buf,
                       .msg_controllen = sizeof control.buf};
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &p[1], sizeof(int));
    ssize_t sent;
    while ((sent = sendmsg(sock, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
        ;
    int saved = errno;
    close(p[1]); /* the server's copy travels in the message */
    if (sent != n) {
        close(p[0]);
        errno = sent < 0 ? saved : EMSGSIZE;
        return -1;
    }
    *answer = p[0];
    return 0;
}

/* One whole decimal number of text into *v, at most max; 0, or -1. */
static int number(const char *text, uint64_t max, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(text, &end, 10);
    if (errno || *end || text[0] == '-' || n > max)
        return -1;
    *v = n;
    return 0;
}

/* Parses "LAB SEED SALT POISON LIMIT_MS SHARED DIR" (SHARED 0 or 1; DIR may hold spaces: it is
 * the rest). */
static int parse(char *text, cq_request *rq)
{
    memset(rq, 0, sizeof *rq);
    char *lab = strtok(text, " "), *seed = strtok(NULL, " "), *salt = strtok(NULL, " ");
    char *poison = strtok(NULL, " "), *limit = strtok(NULL, " ");
    char *shared = strtok(NULL, " "), *dir = strtok(NULL, "");
    uint64_t p = 0;
    if (!lab || !seed || !salt || !poison || !limit || !shared || !dir ||
        (strcmp(shared, "0") && strcmp(shared, "1")) || strlen(lab) >= sizeof rq->lab ||
        strlen(dir) >= sizeof rq->dir || dir[0] != '/')
        return -1;
    if (number(seed, UINT64_MAX, &rq->seed) != 0 || number(salt, UINT64_MAX, &rq->salt) != 0 ||
        number(poison, UINT32_MAX, &p) != 0)
        return -1;
    rq->poison = (uint32_t)p;
    char *end;
    errno = 0;
    uint64_t ms = strtoull(limit, &end, 10);
    if (errno || *end || ms == 0 || limit[0] == '-')
        return -1;
    rq->limit_s = ms / 1000.0;
    rq->shared = shared[0] == '1';
    snprintf(rq->lab, sizeof rq->lab, "%s", lab);
    snprintf(rq->dir, sizeof rq->dir, "%s", dir);
    return 0;
}

int cq_receive(int sock, cq_request *rq, int *reply)
{
    *reply = -1;
    char text[MAX_MESSAGE + 1];
    struct iovec io = {.iov_base = text, .iov_len = MAX_MESSAGE};
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } control;
    struct msghdr m = {.msg_iov = &io,
                       .msg_iovlen = 1,
                       .msg_control = control.buf,
                       .msg_controllen = sizeof control.buf};
    ssize_t n;
    while ((n = recvmsg(sock, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
        ;
    if (n <= 0)
        return n == 0 ? 0 : -1;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
            c->cmsg_len == CMSG_LEN(sizeof(int)) && *reply < 0)
            memcpy(reply, CMSG_DATA(c), sizeof(int));
    text[n] = '\0';
    if (*reply < 0 || (m.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) || parse(text, rq) != 0) {
        if (*reply >= 0)
            close(*reply);
        *reply = -1;
        return -1;
    }
    return 1;
}

void cq_answer(int reply, char answer)
{
    ssize_t n;
    while ((n = write(reply, &answer, 1)) < 0 && errno == EINTR)
        ;
    close(reply);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

char cq_wait(int answer, double limit_s)
{
    char got = 0;
    double end = now_s() + limit_s;
    for (;;) {
        double left = limit_s < 0 ? -1 : end - now_s();
        if (limit_s >= 0 && left <= 0)
            break;
        struct pollfd p = {answer, POLLIN, 0};
        int rc = poll(&p, 1, left < 0 ? -1 : (int)(left * 1000) + 1);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            break;
        ssize_t n = read(answer, &got, 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n != 1)
            got = 0;
        break;
    }
    close(answer);
    return got;
}
