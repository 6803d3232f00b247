#!/bin/bash
# The bench of this tree against another's on the same machine and in the same minutes, the
# passes interleaved (theirs, ours, theirs, ours, ...), so that a machine slower today than on
# the day a bench was recorded does not count against a change: what the issue's "no slower by
# more than 15%" asks. The other tree is a tarball (the GPU machine has no git: make it with
# 'git archive -o old.tar COMMIT' beforehand) or a folder; it is built beside this one.
#     tests/gpu/bench_against.sh OLD.tar|OLD_DIR BUILD_DIR [ROUNDS]
# Prints each pass's wall times and the medians; exits 77 without a GPU.
set -u
old=$1 build=$2 rounds=${3:-2}
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -d "$old" ]; then cp -r "$old" "$work/old"; else mkdir "$work/old" && tar -xf "$old" -C "$work/old"; fi
targets="grade grade-worker"
[ -d "$here/grader/trace" ] && targets="$targets cl_tracer cl_trace_patch"
(cmake -S "$work/old" -B "$work/old/build" -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null &&
    cmake --build "$work/old/build" -j8 --target $targets >"$work/old.log" 2>&1) ||
    { echo "the other tree does not build:"; tail -20 "$work/old.log"; exit 1; }
cmake --build "$build" -j8 --target $targets >/dev/null 2>&1 || { echo "this tree does not build"; exit 1; }
for r in $(seq "$rounds"); do
    for who in old new; do
        if [ $who = old ]; then b=$work/old/build; cd "$work/old"; else b=$build; cd "$here"; fi
        "$b/grade" --bench --csv "$work/$who-$r.csv" >"$work/$who-$r.txt" 2>&1
        line=$(grep 'wall time' "$work/$who-$r.txt")
        echo "$who round $r: ${line:-no wall time line}"
        echo "$line" | sed -n 's/.*stubs \([0-9.]*\) s, the solutions \([0-9.]*\) s, .*again[^0-9]*\([0-9.]*\) s.*/\1 \2 \3/p' >>"$work/$who.times"
    done
done
for who in old new; do
    printf '%s medians (stubs, solutions, again): ' "$who"
    for col in 1 2 3; do
        cut -d' ' -f$col "$work/$who.times" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f ", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
    done
    echo
done
