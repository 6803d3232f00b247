#!/bin/sh
# Makes the student edition of the workbook: every file of the tree except the reference
# solutions, the mutant submissions and CI, as a folder and a .tar.gz beside it. With
# --no-answers the handouts' Predict answers (English and Chinese) are left out too (tools/answer-key.sh makes the
# instructor's answer key from the full tree).
#     tools/student-edition.sh [--no-answers] OUTDIR
# Works from any copy of the tree and from any folder: in a git checkout it takes the files git
# tracks; elsewhere (a release tarball, a copy) every file but what .gitignore leaves out (build
# folders, .devdeps, objects, explore output). Students then need nothing but Makefile.student.
set -eu
answers=1
[ "${1:-}" = --no-answers ] && { answers=0; shift; }
out=${1:?usage: tools/student-edition.sh [--no-answers] OUTDIR}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
top=$(cd "$(dirname "$0")/.." && pwd -P)

# files: the tree's files, one path a line, relative to $top.
files() {
    if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ]; then
        git -C "$top" ls-files
    else
        # What .gitignore names, and any other build tree (a folder with a CMakeCache.txt).
        (cd "$top" && find . \( -name .git -o -path './build*' -o -path ./.devdeps \
            -o -exec test -e '{}/CMakeCache.txt' \; \) -prune -o -type f \
            ! -name '*.so' ! -name '*.o' ! -path './explore-*.csv' ! -path './model.*' \
            ! -path './explain-*' -print | sed 's|^\./||')
    fi
}

rm -rf "$out"
mkdir -p "$out"
files | grep -v -e '^solutions/' -e '^tests/submissions/' -e '^\.ci/' |
    while IFS= read -r f; do
        [ -f "$top/$f" ] || continue # deleted in the work tree, not yet in git
        mkdir -p "$out/$(dirname "$f")"
        cp -p "$top/$f" "$out/$f"
    done
if [ $answers = 0 ]; then
    # Each handout's Predict answers are one <details> block whose summary is "Answers".
    # The Chinese twins' fold is "答案", and their note is in Chinese.
    for f in "$out"/handouts/0[1-9]-*.md "$out"/handouts/zh/0[1-9]-*.md; do
        [ -f "$f" ] || continue
        awk 'held { if ($0 == "<summary>Answers</summary>") { skip = 1
                        print "*The answers to these questions are in your instructor'\''s answer key.*" }
                    else if ($0 == "<summary>答案</summary>") { skip = 1
                        print "*这些问题的答案在教师的答案集中。*" }
                    else print held_line; held = 0; if (skip) next }
             skip { if ($0 == "</details>") skip = 0; next }
             $0 == "<details>" { held = 1; held_line = $0; next }
             { print }' "$f" > "$f.new" && mv "$f.new" "$f"
    done
fi
name=$(basename "$out")
tar -czf "$out.tar.gz" -C "$(dirname "$out")" "$name"
echo "student edition: $out ($(find "$out" -type f | wc -l) files) and $out.tar.gz"
