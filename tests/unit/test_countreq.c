/* test_countreq.c - the counting server's requests (countreq.h) over a real socket pair: what
 * is sent is what is received, with a working answer pipe; malformed requests are refused; and
 * an answer still queued when the server's end closes reads as an end, never as counted. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "countreq.h"

static void pair(int sv[2])
{
    assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
}

static cq_request request(const char *lab, const char *dir)
{
    cq_request rq = {.seed = 18446744073709551615ull,
                     .salt = 18446744073709551614ull,
                     .poison = 0xffc0beefu,
                     .limit_s = 40.25};
    snprintf(rq.lab, sizeof rq.lab, "%s", lab);
    snprintf(rq.dir, sizeof rq.dir, "%s", dir);
    return rq;
}

static void sent_is_received_and_answered(void **state)
{
    (void)state;
    int sv[2], answer, reply;
    pair(sv);
    cq_request rq = request("03", "/tmp/a folder/run-X1"), got;
    assert_int_equal(cq_send(sv[0], &rq, &answer), 0);
    assert_int_equal(cq_receive(sv[1], &got, &reply), 1);
    assert_string_equal(got.lab, "03");
    assert_true(got.seed == rq.seed);
    assert_true(got.salt == rq.salt); /* the replays' data salt travels with the request */
    assert_true(got.poison == rq.poison);
    assert_true(got.limit_s == 40.25);
    assert_int_equal(got.shared, 0);
    assert_string_equal(got.dir, "/tmp/a folder/run-X1");
    cq_answer(reply, CQ_COUNTED);
    assert_int_equal(cq_wait(answer, 5), CQ_COUNTED);
    rq = request("05", "/r5");
    rq.shared = 1; /* lab 05's bank conflicts travel with its request */
    assert_int_equal(cq_send(sv[0], &rq, &answer), 0);
    assert_int_equal(cq_receive(sv[1], &got, &reply), 1);
    assert_int_equal(got.shared, 1);
    assert_string_equal(got.dir, "/r5");
    cq_answer(reply, CQ_COUNTED);
    assert_int_equal(cq_wait(answer, 5), CQ_COUNTED);
    close(sv[0]);
    assert_int_equal(cq_receive(sv[1], &got, &reply), 0); /* every sender gone */
    close(sv[1]);
}

/* A message of the right shape but not a request: refused whole, the descriptor closed. */
static void malformed_is_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {"03 7 5 1 1000 0 relative/dir",
                                      "03 x 5 1 1000 0 /d",
                                      "03 7 5 1 0 0 /d",
                                      "03 7 5 1 -5 0 /d",
                                      "03 -1 5 1 1000 0 /d",
                                      "03 7 -5 1 1000 0 /d",
                                      "03 7 5 4294967296 1000 0 /d",
                                      "03 7 1000 0 /d",
                                      "03 7 5 1 1000 0",
                                      "03 7 5 1 1000 /d",
                                      "03 7 5 1 1000 2 /d",
                                      ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
        int sv[2], reply = 7;
        pair(sv);
        ssize_t n = send(sv[0], bad[i], strlen(bad[i]) + (bad[i][0] ? 0 : 1), 0);
        assert_true(n >= 0);
        cq_request got;
        assert_int_equal(cq_receive(sv[1], &got, &reply), -1);
        assert_int_equal(reply, -1);
        close(sv[0]);
        close(sv[1]);
    }
    cq_request rq = request("0 3", "/d");
    int sv[2], answer = -1;
    pair(sv);
    assert_int_equal(cq_send(sv[0], &rq, &answer), -1); /* a lab with a space: not sent */
    rq = request("03", "/d");
    rq.limit_s = 0;
    assert_int_equal(cq_send(sv[0], &rq, &answer), -1);
    close(sv[0]);
    close(sv[1]);
}

/* The server dies with requests queued: their answers read as an end (0), at once. */
static void queued_answers_end_with_the_server(void **state)
{
    (void)state;
    int sv[2], a1, a2, reply;
    pair(sv);
    cq_request rq = request("01", "/r1"), got;
    assert_int_equal(cq_send(sv[0], &rq, &a1), 0);
    rq = request("02", "/r2");
    assert_int_equal(cq_send(sv[0], &rq, &a2), 0);
    assert_int_equal(cq_receive(sv[1], &got, &reply), 1); /* taken, never answered */
    close(reply);
    close(sv[1]); /* the server's end, with 02 still queued */
    assert_int_equal(cq_wait(a1, 5), 0);
    assert_int_equal(cq_wait(a2, 5), 0);
    rq = request("04", "/r4");
    assert_int_equal(cq_send(sv[0], &rq, &a1), -1); /* no server: refused, no SIGPIPE */
    close(sv[0]);
}

/* An answer that does not come in time: 0 after the limit. */
static void a_late_answer_times_out(void **state)
{
    (void)state;
    int sv[2], answer, reply;
    pair(sv);
    cq_request rq = request("05", "/r5"), got;
    assert_int_equal(cq_send(sv[0], &rq, &answer), 0);
    assert_int_equal(cq_receive(sv[1], &got, &reply), 1);
    assert_int_equal(cq_wait(answer, 0.05), 0);
    signal(SIGPIPE, SIG_IGN);     /* as the server does */
    cq_answer(reply, CQ_COUNTED); /* too late: its reader is gone; the server goes on */
    close(sv[0]);
    close(sv[1]);
}

int main(void)
{
    signal(SIGPIPE, SIG_DFL); /* cq_send must not raise it, whatever the caller's handling */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sent_is_received_and_answered),
        cmocka_unit_test(malformed_is_refused),
        cmocka_unit_test(queued_answers_end_with_the_server),
        cmocka_unit_test(a_late_answer_times_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
