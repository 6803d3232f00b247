/* ptxscan.c - see ptxscan.h. */
#include "ptxscan.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Opcode prefixes, each ending in its '.', and what they are in words. PTX names cannot hold a
 * '.', so an identifier never matches. */
static const struct {
    const char *opcode, *what;
} unseen[] = {
    {"cp.async.", "an asynchronous copy (cp.async, or its bulk or tensor form)"},
    {"cp.reduce.async.", "an asynchronous bulk reduction"},
    {"tex.", "a texture fetch"},
    {"tld4.", "a texture gather"},
    {"suld.", "a surface load"},
    {"sust.", "a surface store"},
    {"sured.", "a surface reduction"},
};

/* Which of those above the statement at p is (after blanks and a predicate "@%p1" or
 * "@!%p1"), or -1 when none. */
static int unseen_at(const char *p)
{
    while (*p == ' ' || *p == '\t')
        ++p;
    if (*p == '@') {
        while (*p && !isspace((unsigned char)*p))
            ++p;
        while (*p == ' ' || *p == '\t')
            ++p;
    }
    for (size_t i = 0; i < sizeof unseen / sizeof unseen[0]; ++i)
        if (!strncmp(p, unseen[i].opcode, strlen(unseen[i].opcode)))
            return (int)i;
    return -1;
}

int ps_scan(const char *ptx, char *why, size_t why_size)
{
    unsigned line = 1;
    int in_comment = 0, at_statement = 1;
    for (const char *p = ptx; *p; ++p) {
        if (in_comment) {
            if (p[0] == '*' && p[1] == '/') {
                in_comment = 0;
                ++p;
            } else if (*p == '\n') {
                ++line;
            }
            continue;
        }
        if (p[0] == '/' && p[1] == '*') {
            in_comment = 1;
            ++p;
            continue;
        }
        if (p[0] == '/' && p[1] == '/') {
            while (p[1] && p[1] != '\n')
                ++p;
            continue;
        }
        if (at_statement) {
            int i = unseen_at(p);
            if (i >= 0) {
                snprintf(why, why_size,
                         "its device code uses %s ('%.*s' on line %u of its PTX), which moves "
                         "memory where the grader cannot measure it: use ordinary loads and "
                         "stores",
                         unseen[i].what, (int)strlen(unseen[i].opcode) - 1, unseen[i].opcode, line);
                return 1;
            }
        }
        if (*p == '\n')
            ++line;
        /* A statement starts a line or follows ';', '{' or '}' (several can share a line), or
         * a label's ':' ("done: cp.async..."; not the "::" of ".shared::cta"), blanks and
         * comments between them. */
        at_statement = *p == '\n' || *p == ';' || *p == '{' || *p == '}' ||
                       (*p == ':' && p[1] != ':' && (p == ptx || p[-1] != ':')) ||
                       (at_statement && (*p == ' ' || *p == '\t'));
    }
    return 0;
}
