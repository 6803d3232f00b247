#!/bin/sh
# A kernel that hangs, graded beside a solution in one batch: it fails as timed out, once, in
# its own slot (its limit stretched for the lock's waits: grader/child.c), while the solution
# beside it passes; the whole batch takes about one stretched limit, not two. A check of
# ch_run's timeouts beside others, with its times printed. Exits 77 without a GPU.
#     tests/gpu/hang_beside.sh BUILD_DIR
set -u
build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/subs/hang" "$t/subs/good"
cp "$src/tests/submissions/01-dram-burst/hang.cu" "$t/subs/hang/01.cu"
cp "$src/solutions/01-dram-burst/kernel.cu" "$t/subs/good/01.cu"
a=$(date +%s.%N)
"$build/grade" --submissions "$t/subs" --output "$t/out" --seed 7 --timeout 10 -q 01 2>/dev/null
b=$(date +%s.%N)
csv=$build/csv-get
hang=$("$csv" "$t/out/gradebook.csv" hang 01 verdict) good=$("$csv" "$t/out/gradebook.csv" good 01 verdict)
why=$("$csv" "$t/out/gradebook.csv" hang 01 reason)
echo "hang: $hang ($why); solution: $good; wall $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", b - a }') s (limit 10 s, stretched to 42.5 s beside others)"
[ "$hang" = FAIL ] && [ "$good" = PASS ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
