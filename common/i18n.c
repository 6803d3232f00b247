/* i18n.c - see i18n.h. */
#define _GNU_SOURCE
#include "i18n.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The language the environment asks for, the way gettext reads it: LANGUAGE, then the first of
 * LC_ALL, LC_MESSAGES, LANG that is set (so LC_ALL=C gives English whatever LANG says). */
static const char *asked(void)
{
    static const char *const vars[] = {"LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; ++i) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return v;
    }
    return "";
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Into dir, the locale/ folder beside the program at path (or ../share/locale from it), where
 * there is one; dir untouched otherwise. */
static void catalogue_dir(const char *path, char *dir, size_t size)
{
    char *real = path ? realpath(path, NULL) : NULL;
    if (!real)
        return;
    char *slash = strrchr(real, '/');
    if (slash)
        *slash = '\0';
    char try[4096];
    snprintf(try, sizeof try, "%s/locale", real);
    if (!is_dir(try))
        snprintf(try, sizeof try, "%s/../share/locale", real);
    if (is_dir(try))
        snprintf(dir, size, "%s", try);
    free(real);
}

static int chinese_asked;         /* what i18n_setup chose, for i18n_describe */
static char bound_dir[4096];      /* the catalogues' folder bound, "" for gettext's own */
static char messages_locale[128]; /* LC_MESSAGES as set */

int i18n_setup(const char *lang, const char *exe)
{
    if (lang && strcmp(lang, "en") && strcmp(lang, "zh"))
        return -1;
    const char *want = lang ? lang : asked();
    int chinese = strncmp(want, "zh", 2) == 0;
    /* Messages and characters only: a decimal comma would break the JSON and CSV. */
    if (!setlocale(LC_CTYPE, "") || !strcmp(setlocale(LC_CTYPE, NULL), "C"))
        setlocale(LC_CTYPE, "C.UTF-8");
    const char *m = setlocale(LC_MESSAGES, "");
    if (chinese)
        setenv("LANGUAGE", "zh_CN", 1);
    else
        m = setlocale(LC_MESSAGES, "C");
    chinese_asked = chinese;
    char dir[4096] = "";
    const char *env = getenv("GRADE_LOCALEDIR");
    if (env && *env)
        snprintf(dir, sizeof dir, "%s", env);
    /* Beside the program: found through /proc/self/exe, else through the path it was started
     * by (a sandboxed /proc may not resolve). */
    const char *from[] = {"/proc/self/exe", exe};
    for (size_t i = 0; !*dir && i < 2; ++i)
        catalogue_dir(from[i], dir, sizeof dir);
    if (*dir)
        bindtextdomain("grade", dir);
    snprintf(bound_dir, sizeof bound_dir, "%s", dir);
    bind_textdomain_codeset("grade", "UTF-8");
    textdomain("grade");
    /* gettext ignores LANGUAGE in the C locale, and some C libraries in C.UTF-8 too (the glibc
     * 2.39 of our GPU machine): without zh_CN installed, take the first locale with which the
     * catalogue loads (gettext("") is its header then). Each setlocale drops gettext's cache. */
    static const char *const any[] = {"C.UTF-8",    "C.utf8",      "en_US.UTF-8",
                                      "en_US.utf8", "en_GB.UTF-8", "en_GB.utf8"};
    for (size_t i = 0; chinese && !*gettext("") && i < sizeof any / sizeof any[0]; ++i) {
        const char *now = setlocale(LC_MESSAGES, any[i]);
        if (now)
            m = now;
    }
    snprintf(messages_locale, sizeof messages_locale, "%s", m ? m : "(none)");
    return 0;
}

int i18n_describe(char *buf, size_t size)
{
    int works = *gettext("") != '\0'; /* the catalogue's header, when it loaded */
    if (!chinese_asked)
        snprintf(buf, size, "%s", gettext("English (for Chinese: --lang zh, or LANG=zh_CN.UTF-8)"));
    else if (works)
        snprintf(buf, size, gettext("Chinese (catalogue in %s)"),
                 *bound_dir ? bound_dir : bindtextdomain("grade", NULL));
    else /* in English: without the catalogue there is no Chinese to say it in */
        snprintf(buf, size,
                 "Chinese was asked for, but no Chinese catalogue loaded (looked in '%s'; "
                 "messages locale '%s'): rebuild with gettext's msgfmt installed, or name the "
                 "folder with GRADE_LOCALEDIR",
                 *bound_dir ? bound_dir : bindtextdomain("grade", NULL), messages_locale);
    return chinese_asked && !works;
}

/* The code point at *p (advanced past it); malformed bytes count as one column each. */
static unsigned next_char(const char **p)
{
    const unsigned char *s = (const unsigned char *)*p;
    unsigned c = s[0];
    int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
    if (n > 1) {
        unsigned v = c & (0x7f >> n);
        for (int i = 1; i < n; ++i) {
            if ((s[i] & 0xc0) != 0x80) {
                n = 1;
                v = c;
                break;
            }
            v = (v << 6) | (s[i] & 0x3f);
        }
        c = v;
    }
    *p += n;
    return c;
}

static int wide(unsigned c)
{
    return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
           (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
           (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
           (c >= 0xffe0 && c <= 0xffe6);
}

int i18n_width(const char *s)
{
    int w = 0;
    while (*s)
        w += wide(next_char(&s)) ? 2 : 1;
    return w;
}

void i18n_pad(FILE *out, const char *s, int width)
{
    fputs(s, out);
    for (int w = i18n_width(s); w < width; ++w)
        fputc(' ', out);
}

/* Punctuation that never starts a line (closing marks) or never ends one (opening marks). */
static int closing(unsigned c)
{
    static const unsigned marks[] = {0x3001, 0x3002, 0xff0c, 0xff1a, 0xff1b, 0xff01,
                                     0xff1f, 0xff09, 0x300b, 0x300d, 0x201d, 0x2019};
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; ++i)
        if (c == marks[i])
            return 1;
    return 0;
}

static int opening(unsigned c)
{
    return c == 0xff08 || c == 0x300a || c == 0x300c || c == 0x201c || c == 0x2018;
}

static int columns(unsigned c)
{
    return wide(c) ? 2 : 1;
}

/* Moves *q past the next piece of text that may not be broken, returning its columns: a wide
 * character, or a run up to a space, a line break or a wide character; with the closing marks
 * after it, and after an opening mark also the piece it opens. */
static int unit(const char **q)
{
    const char *s = *q;
    unsigned c = next_char(&s);
    int w = columns(c);
    if (!wide(c) && !opening(c) && !closing(c)) {
        while (*s && *s != ' ' && *s != '\n') {
            const char *t = s;
            unsigned d = next_char(&t);
            if (wide(d) || opening(d) || closing(d))
                break;
            s = t;
            w += columns(d);
        }
    }
    *q = s;
    if (opening(c) && **q && **q != ' ' && **q != '\n')
        w += unit(q);
    for (;;) {
        const char *t = *q;
        unsigned d = **q ? next_char(&t) : 0;
        if (!closing(d))
            break;
        *q = t;
        w += columns(d);
    }
    return w;
}

void i18n_wrap(FILE *out, const char *text, int indent, int first_col)
{
    int col = first_col;
    const char *p = text;
    while (*p) {
        if (*p == '\n') {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
            ++p;
            continue;
        }
        const char *q = p;
        int w = unit(&q);
        if (col > indent && col + w > 78) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        }
        fprintf(out, "%.*s", (int)(q - p), p);
        col += w;
        p = q;
        if (*p == ' ') {
            fputc(' ', out);
            ++col;
            ++p;
        }
    }
    fputc('\n', out);
}
