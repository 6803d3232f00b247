#!/bin/sh
# Makes the student edition of the workbook: every tracked file except the reference solutions,
# the mutant submissions and CI, as a folder and a .tar.gz beside it.
#     tools/student-edition.sh OUTDIR
# Run from a git checkout. Students then need nothing but Makefile.student (see README.md).
set -eu
out=${1:?usage: tools/student-edition.sh OUTDIR}
top=$(git rev-parse --show-toplevel)
cd "$top"
rm -rf "$out"
mkdir -p "$out"
git ls-files | grep -v -e '^solutions/' -e '^tests/submissions/' -e '^\.ci/' |
    while IFS= read -r f; do
        mkdir -p "$out/$(dirname "$f")"
        cp -p "$f" "$out/$f"
    done
name=$(basename "$out")
tar -czf "$out.tar.gz" -C "$(dirname "$out")" "$name"
echo "student edition: $out ($(find "$out" -type f | wc -l) files) and $out.tar.gz"
