#!/bin/sh
# The instructor guide quotes 'grade --course tools/course.example.yml --print': the quote must
# be what the command prints now (a threshold, a point or a lab's measurement changed without
# the guide fails here).
#     instructor_guide.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# The first text block after the line that introduces it.
awk '/for the example course:/ { want = 1; next }
     want && /^```text$/ { inside = 1; next }
     inside && /^```$/ { exit }
     inside { print }' "$src/handouts/instructor-guide.md" > "$t/quoted"
(cd "$src" && "$build/grade" --course tools/course.example.yml --print) > "$t/printed" 2>&1
if cmp -s "$t/quoted" "$t/printed"; then
    echo "the guide quotes what --print prints ($(wc -l < "$t/printed") lines)"
    echo "1 passed, 0 failed"
else
    echo "FAIL: handouts/instructor-guide.md quotes another --print than the grader's:"
    diff "$t/quoted" "$t/printed"
    echo "0 passed, 1 failed"
    exit 1
fi
