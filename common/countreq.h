/*
 * countreq.h - requests to the counting server (grade-worker counters --serve): one process
 * that counts every lab of a grading run with CUPTI's range profiler, so that CUPTI's start
 * (0.14 s alone, 0.3-0.8 s beside other work, and one process at a time) is paid once a run
 * instead of once a lab (tests/gpu/RESULTS.md, sixteenth session).
 *
 * The grader makes a SOCK_SEQPACKET socket pair before it forks the labs' gradings: the server
 * gets one end, the gradings share the other (the grader's own processes; a student's program,
 * started with every other descriptor closed, never has it). A request is one message: what to
 * count (the lab, the seed, the replays' data salt and the poison, a time limit, whether with
 * the shared-memory counters, the replays' folder) and, beside it (SCM_RIGHTS), the write end
 * of a pipe that the server answers on with one byte and closes. A server that dies
 * closes every answer still queued for it: the grading then reads an end instead of an answer
 * and counts in a child of its own, as before.
 */
#ifndef CL_COUNTREQ_H
#define CL_COUNTREQ_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cq_request {
    char lab[8];     /* its number, "03" */
    uint64_t seed;   /* the task's seed (seeded.h) */
    uint64_t salt;   /* the replays' data salt (salt.h): the socket is the grader's own */
    uint32_t poison; /* the run's poison (salt.h); 0: the default */
    double limit_s;  /* the most the count may take, its set-up and saving included */
    int shared;      /* also the shared-memory counters (lab 05's bank conflicts): hardware
                      * counters, counted with the GPU held alone */
    char dir[4096];  /* the replays' folder (absolute): kernel.fatbin, record.json, counters/ */
} cq_request;

/* The server's answers. */
enum { CQ_COUNTED = 'k', CQ_REFUSED = 'r' };

/* Sends rq on sock with the write end of a new pipe; *answer gets its read end (close-on-exec).
 * Returns 0, or -1 with errno set (nothing left open). Never raises SIGPIPE. */
int cq_send(int sock, const cq_request *rq, int *answer);

/* Receives the next request from sock into *rq, the descriptor to answer on into *reply.
 * Returns 1, 0 when every sender's end is closed, or -1 for a message that is not a request
 * (nothing left open, *reply -1) or an error. */
int cq_receive(int sock, cq_request *rq, int *reply);

/* Writes the answer (CQ_COUNTED, CQ_REFUSED) to reply and closes it. A sender that stopped
 * waiting has closed its end: the server ignores SIGPIPE, and the answer is lost. */
void cq_answer(int reply, char answer);

/* Waits at most limit_s seconds (< 0: as long as it takes) for the answer on answer, which it
 * closes. Returns the answer, or 0 when the server ended or the wait ran out. */
char cq_wait(int answer, double limit_s);

#ifdef __cplusplus
}
#endif

#endif
