/*
 * i18n.h - the grader's messages in the reader's language (GNU gettext, text domain "grade").
 *
 * Every message a student or instructor reads goes through _() (or N_() where it sits in a
 * table, translated where it is printed); machine formats (JSON keys, CSV headers, Gradescope
 * and Classroom fields) stay English. The catalogues are po/LANG.po, built into
 * locale/LANG/LC_MESSAGES/grade.mo beside the grade program.
 */
#ifndef CL_I18N_H
#define CL_I18N_H

#include <stdio.h>

#include <libintl.h>
#define _(s) gettext(s)
#define N_(s) s

/* Chooses the language: lang "en" or "zh" (from --lang), or NULL for the environment's
 * (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). Chinese works without the zh_CN locale installed
 * (through C.UTF-8, or another installed locale). Numbers are always printed the C way
 * (LC_NUMERIC is never set). The catalogues are in locale/ (or ../share/locale) beside the
 * program, found through /proc/self/exe or else exe (argv[0]); GRADE_LOCALEDIR names another
 * folder. Returns 0, or -1 when lang is neither. */
int i18n_setup(const char *lang, const char *exe);

/* Into buf, the language chosen and where its catalogue came from, for grade --doctor.
 * Returns 1 when Chinese was asked for but its catalogue did not load, else 0. */
int i18n_describe(char *buf, size_t size);

/* Columns that UTF-8 text takes on a terminal (a CJK character two, others one). */
int i18n_width(const char *s);

/* s, then spaces to width columns (at least none). */
void i18n_pad(FILE *out, const char *s, int width);

/* text wrapped at 78 columns, starting at column first_col, every line after the first
 * indented by indent spaces; breaks at spaces, and between CJK characters. Ends the line. */
void i18n_wrap(FILE *out, const char *text, int indent, int first_col);

#endif
