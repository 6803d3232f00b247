/*
 * test_i18n.c - the report's columns and line breaks in Chinese (common/i18n.h): display
 * widths, padding, and wrapping that breaks between CJK characters but never inside a word,
 * before a full-width comma or after an opening bracket.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "i18n.h"

/* What i18n_wrap prints, as a string (static storage). */
static const char *wrap(const char *text, int indent, int first_col)
{
    static char buf[4096];
    memset(buf, 0, sizeof buf);
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    i18n_wrap(f, text, indent, first_col);
    fclose(f);
    return buf;
}

static void widths(void **state)
{
    (void)state;
    assert_int_equal(i18n_width("loads"), 5);
    assert_int_equal(i18n_width("读取"), 4);
    assert_int_equal(i18n_width("扇区/请求"), 9);
    assert_int_equal(i18n_width("（，。）"), 8); /* full-width punctuation */
    assert_int_equal(i18n_width("µs ×"), 4);     /* narrow, though not ASCII */
}

static void padding(void **state)
{
    (void)state;
    char buf[64] = "";
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    i18n_pad(f, "读取", 12);
    fputc('|', f);
    fclose(f);
    assert_string_equal(buf, "读取        |"); /* 4 columns of text, 8 of spaces */
}

/* Every line of out within 78 columns. */
static void assert_fits(const char *out)
{
    for (const char *p = out; *p;) {
        size_t n = strcspn(p, "\n");
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        if (i18n_width(line) > 78)
            fail_msg("a line of %d columns: '%s'", i18n_width(line), line);
        p += n + (p[n] == '\n');
    }
}

static void wraps_chinese(void **state)
{
    (void)state;
    const char *text = "正确，但读取的合并程度不够：每个请求 8.0 个扇区，是所需 4 个的两倍：各通道"
                       "隔一个字用一个字（跨步为 2）。请把相邻线程映射到相邻的字。";
    const char *out = wrap(text, 15, 15);
    assert_fits(out);
    assert_non_null(strchr(out, '\n'));              /* it had to break, though it has few spaces */
    assert_null(strstr(out, "\n               ，")); /* no line starts with a comma */
    assert_null(strstr(out, "（\n"));                /* none ends with a bracket */
    assert_non_null(strstr(out, "8.0"));             /* a number stays whole */
}

/* Punctuation next to Latin text: a full-width comma after "nvcc" stays on its line, an
 * opening bracket before "col" goes down with it, at whatever width the break falls. */
static void wraps_mixed(void **state)
{
    (void)state;
    for (int first = 15; first < 60; ++first) {
        const char *out = wrap("先让 x 对应列（col = blockIdx.x * blockDim.x + threadIdx.x），"
                               "再用共享内存分块，然后运行 nvcc，再运行 grade、doctor。",
                               15, first);
        assert_fits(out);
        for (const char *p = strchr(out, '\n'); p; p = strchr(p + 1, '\n')) {
            const char *next = p + 1 + strspn(p + 1, " ");
            if (!strncmp(next, "，", 3) || !strncmp(next, "、", 3) || !strncmp(next, "）", 3) ||
                !strncmp(next, "。", 3))
                fail_msg("a line starts with a closing mark at column %d:\n%s", first, out);
            if (p - out >= 3 && !strncmp(p - 3, "（", 3))
                fail_msg("a line ends with an opening bracket at column %d:\n%s", first, out);
        }
    }
}

static void wraps_english_as_before(void **state)
{
    (void)state;
    const char *text = "correct, but loads are not coalesced enough: 8.0 sectors per request, "
                       "twice the 4 needed: lanes use every other word (a stride of 2).";
    const char *out = wrap(text, 15, 15);
    assert_fits(out);
    /* Breaks only at spaces: joined again with spaces, the lines are the text. */
    char joined[1024] = "";
    for (const char *p = out; *p;) {
        size_t n = strcspn(p, "\n");
        const char *line = p + strspn(p, " ");
        size_t len = (size_t)(p + n - line);
        while (len > 0 && line[len - 1] == ' ') /* the space a break came at */
            --len;
        strncat(joined, *joined ? " " : "", sizeof joined - strlen(joined) - 1);
        strncat(joined, line, len < sizeof joined - strlen(joined) - 1 ? len : 0);
        p += n + (p[n] == '\n');
    }
    for (char *e = joined + strlen(joined); e > joined && e[-1] == ' ';)
        *--e = '\0';
    assert_string_equal(joined, text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(widths),
        cmocka_unit_test(padding),
        cmocka_unit_test(wraps_chinese),
        cmocka_unit_test(wraps_mixed),
        cmocka_unit_test(wraps_english_as_before),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
