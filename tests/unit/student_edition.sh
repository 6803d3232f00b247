#!/bin/sh
# The student edition (tools/student-edition.sh) holds no reference solution, no mutant and no
# CI, keeps every lab's stub and handout, and builds with Makefile.student alone.
#     student_edition.sh SOURCE_DIR OUTDIR NVCC
set -u
src=$1 out=$2 nvcc=$3
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 || { echo "not a git checkout: skipped"; exit 77; }
sh "$src/tools/student-edition.sh" "$out" || exit 1
fails=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi; }
check no-solutions "[ ! -e '$out/solutions' ]"
check no-mutants "[ ! -e '$out/tests/submissions' ]"
check no-ci "[ ! -e '$out/.ci' ]"
check stubs "[ -f '$out/labs/01-dram-burst/kernel.cu' ] && [ -f '$out/labs/03-row-col-major/kernel.cu' ]"
check handouts "[ -f '$out/handouts/01-dram-burst.md' ] && [ -f '$out/handouts/figures/warp-chunked.svg' ]"
check tarball "tar -tzf '$out.tar.gz' | grep -q 'Makefile.student'"
check no-solution-in-tarball "! tar -tzf '$out.tar.gz' | grep -q '/solutions/'"
check builds "make -s -C '$out' -f Makefile.student NVCC='$nvcc' all >/dev/null 2>&1 && '$out/build/grade' --list | grep -q 03-row-col-major"
rm -rf "$out" "$out.tar.gz"
[ $fails -eq 0 ] && echo "student edition ok"
exit $((fails > 0))
