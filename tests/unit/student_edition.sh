#!/bin/sh
# The student edition (tools/student-edition.sh) holds no reference solution, no mutant and no
# CI, keeps every lab's stub and handout, and builds with Makefile.student alone.
#     student_edition.sh SOURCE_DIR OUTDIR NVCC
set -u
src=$1 out=$2 nvcc=$3
# Made from another folder than the tree (an out-of-tree build runs it from its own).
(cd / && sh "$src/tools/student-edition.sh" "$out") || exit 1
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

# From a copy that is no git checkout (a release tarball), holding a build tree of its own: the
# same files, and none of the build's.
copy=$(mktemp -d)
tar -xzf "$out.tar.gz" -C "$copy" --strip-components=1
for d in solutions tests/submissions .ci; do
    mkdir -p "$copy/$d" && echo 'must stay out' > "$copy/$d/planted.cu"
done
mkdir -p "$copy/build-release" "$copy/tests/outside-build"
touch "$copy/build-release/grade" "$copy/tests/outside-build/CMakeCache.txt" \
    "$copy/tests/outside-build/objects.txt" "$copy/common/stale.o"
(cd / && sh "$copy/tools/student-edition.sh" "$copy.edition") >/dev/null || fails=$((fails + 1))
check same-from-a-copy "[ \"\$(tar -tzf '$out.tar.gz' | sed 's|^[^/]*/||' | grep -v -e '/\$' -e '^\$' | sort)\" = \"\$(cd '$copy.edition' && find . -type f | sed 's|^\./||' | sort)\" ]"
rm -rf "$copy" "$copy.edition" "$copy.edition.tar.gz"

# Without the answers: no handout keeps its Predict answers, each says where they are, and the
# answer key made from the full tree has them all.
(cd / && sh "$src/tools/student-edition.sh" --no-answers "$out.na") >/dev/null || fails=$((fails + 1))
check no-answers "! grep -l -e '<summary>Answers</summary>' -e '<summary>答案</summary>' '$out.na'/handouts/*.md '$out.na'/handouts/zh/*.md"
check zh-handouts "[ \$(ls '$out'/handouts/zh/0[1-9]-*.md | wc -l) -eq \$(ls '$src'/handouts/0[1-9]-*.md | wc -l) ]"
check answer-note "[ \$(grep -l \"instructor's answer key\" '$out.na'/handouts/0*.md | wc -l) -eq \$(grep -l '<summary>Answers</summary>' '$src'/handouts/0*.md | wc -l) ]"
sh "$src/tools/answer-key.sh" "$out.key.md" >/dev/null || fails=$((fails + 1))
sh "$src/tools/answer-key.sh" --lang zh "$out.key-zh.md" >/dev/null || fails=$((fails + 1))
check answer-key-zh "[ \$(grep -c '^## 实验' '$out.key-zh.md') -eq \$(ls '$src'/handouts/0[1-9]-*.md | wc -l) ] && ! grep -q '<details>' '$out.key-zh.md'"
check answer-key "[ \$(grep -c '^## Lab' '$out.key.md') -eq \$(ls '$src'/handouts/0[1-9]-*.md | wc -l) ] && grep -q 'four sectors in one line' '$out.key.md' && ! grep -q '<details>' '$out.key.md'"
rm -rf "$out.na" "$out.na.tar.gz" "$out.key.md"

rm -rf "$out" "$out.tar.gz"
[ $fails -eq 0 ] && echo "student edition ok"
exit $((fails > 0))
