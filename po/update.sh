#!/bin/sh
# Brings the grader's message catalogues up to date with the sources: xgettext makes
# po/grade.pot from every message marked _() or N_() (and die()'s, in grader/main.c), and
# msgmerge carries each po/LANG.po over to it (new messages empty, changed ones fuzzy), for a
# translator to finish. tests/unit/translations.sh fails while any is empty or fuzzy.
#     po/update.sh [--check POT]   (--check: write the template to POT, touch nothing else)
set -eu
cd "$(dirname "$0")/.."
pot=po/grade.pot
[ "${1:-}" = --check ] && pot=$2
# shellcheck disable=SC2046
xgettext --language=C --from-code=UTF-8 --keyword=_ --keyword=N_ --keyword=die:2 \
    --add-comments=TRANSLATORS --package-name=grade --msgid-bugs-address=none --sort-by-file \
    --no-location -o "$pot" $(ls grader/*.c grader/labs/*/*_spec.c common/*.c)
[ "${1:-}" = --check ] && exit 0
for po in po/*.po; do
    [ -f "$po" ] || continue
    case $po in po/figures-* | po/demo-*) continue ;; esac # their own templates
    msgmerge --quiet --update --backup=none --no-location "$po" "$pot"
done
