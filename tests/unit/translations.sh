#!/bin/sh
# The grader speaks Chinese (issue 14): every message marked in the sources has a translation in
# po/zh_CN.po, none empty or fuzzy, every one's printf directives those of its English
# (msgfmt --check); and the built grade prints Chinese for LANG=zh_CN.UTF-8 and --lang zh, even
# where the zh_CN locale is not installed, and English otherwise. Skipped (77) without gettext.
#     translations.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
for t in xgettext msgmerge msgattrib msgfmt; do
    command -v $t >/dev/null || { echo "no $t (gettext): skipped"; exit 77; }
done
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
sh "$src/po/update.sh" --check "$t/grade.pot" 2>/dev/null || fail "xgettext could not read the sources"
total=$(grep -c '^msgid ' "$t/grade.pot")
sh "$src/po/complete.sh" "$t/grade.pot" "$src/po/zh_CN.po" "grade's messages" || fails=$((fails + 1))
# The built grader, from its build folder's catalogue.
has_cjk() { python3 -c 'import sys; t = sys.stdin.read(); sys.exit(0 if any("\u4e00" <= c <= "\u9fff" for c in t) else 1)'; }
g=$build/grade
env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=zh_CN.UTF-8 "$g" --list | has_cjk || fail "LANG=zh_CN.UTF-8 grade --list is not in Chinese"
# LC_ALL outranks LANG, as in every gettext program: LC_ALL=C gives English, LC_ALL=zh_CN Chinese.
env -u LANGUAGE -u LC_MESSAGES LC_ALL=C LANG=zh_CN.UTF-8 "$g" --list | has_cjk && fail "LC_ALL=C LANG=zh_CN.UTF-8 is not English"
env -u LANGUAGE -u LC_MESSAGES LC_ALL=zh_CN.UTF-8 LANG=C.UTF-8 "$g" --list | has_cjk || fail "LC_ALL=zh_CN.UTF-8 grade --list is not in Chinese"
env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=C "$g" --lang zh --model --stride 8 > "$t/model.txt"
has_cjk < "$t/model.txt" || fail "grade --lang zh --model is not in Chinese"
grep -q '50.0%' "$t/model.txt" || fail "grade --lang zh --model lost its numbers: $(cat "$t/model.txt")"
env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=zh_CN.UTF-8 "$g" --lang en --list | has_cjk && fail "--lang en is not English"
env -u LANGUAGE -u LC_ALL -u LC_MESSAGES LANG=C.UTF-8 "$g" --list | has_cjk && fail "LANG=C.UTF-8 is not English"
"$g" --lang xx --list > "$t/xx.txt" 2>&1
[ $? -eq 2 ] && grep -q 'en or zh' "$t/xx.txt" || fail "--lang xx is not a usage error: $(cat "$t/xx.txt")"
# Numbers the C way whatever the locale (a decimal comma would break JSON and CSV): with a
# German locale made for the test where the system has its sources.
if command -v localedef >/dev/null && [ -f /usr/share/i18n/locales/de_DE ]; then
    mkdir -p "$t/loc"
    if localedef -i de_DE -f UTF-8 "$t/loc/de_DE.UTF-8" >/dev/null 2>&1; then
        env -u LANGUAGE LOCPATH="$t/loc" LC_ALL=de_DE.UTF-8 "$g" --lang zh --model --stride 8 > "$t/de.txt"
        grep -q '50.0%' "$t/de.txt" && ! grep -q '50,0' "$t/de.txt" || fail "a decimal comma under de_DE: $(grep 50 "$t/de.txt")"
        echo "under de_DE.UTF-8 the numbers keep their points"
    fi
else
    echo "(no locale sources here: the decimal-comma check is not run)"
fi
echo "$((total - 1)) messages, every one translated into Chinese"
[ $fails -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $((fails > 0))
