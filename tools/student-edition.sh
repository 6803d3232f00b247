#!/bin/sh
# Makes the student edition of the workbook: every file of the tree except the reference
# solutions, the mutant submissions and CI, as a folder and a .tar.gz beside it.
#     tools/student-edition.sh OUTDIR
# Works from any copy of the tree and from any folder: in a git checkout it takes the files git
# tracks; elsewhere (a release tarball, a copy) every file but what .gitignore leaves out (build
# folders, .devdeps, objects, explore output). Students then need nothing but Makefile.student.
set -eu
out=${1:?usage: tools/student-edition.sh OUTDIR}
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
name=$(basename "$out")
tar -czf "$out.tar.gz" -C "$(dirname "$out")" "$name"
echo "student edition: $out ($(find "$out" -type f | wc -l) files) and $out.tar.gz"
