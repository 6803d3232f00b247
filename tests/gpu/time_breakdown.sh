#!/bin/sh
# Where each lab's grading time goes, for its stub and its solution: wall seconds of the steps
# the JSON report counts (labs.0.seconds), one grade per lab and kind, and the whole command;
# then, from the GPU lock's timeline (GRADE_LOCK_LOG), where each grading child's time goes.
#     tests/gpu/time_breakdown.sh BUILD_DIR [SEED]
# Exits 77 (skipped) without a GPU.
set -u
build=$1 seed=${2:-7}
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-4s %-9s %7s %7s %7s %7s %7s %7s %7s %7s  %s\n' lab kind command total compile record \
    run trace counters checks verdict
for lab in $("$build/grade" --list | cut -d' ' -f1 | cut -d- -f1); do
    for kind in stub solution; do
        flag=; [ "$kind" = solution ] && flag=--solution
        start=$(date +%s.%N)
        GRADE_LOCK_LOG=$out/lock.log "$build/grade" $flag "$lab" --seed "$seed" -q --no-cache \
            --format json --output "$out/r.json" >/dev/null 2>&1
        end=$(date +%s.%N)
        row=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%7.2f", b - a }')
        for step in total compile record run trace counters checks; do
            v=$("$build/json-get" "$out/r.json" "labs.0.seconds.$step" 2>/dev/null || echo 0)
            row="$row $(awk -v v="$v" 'BEGIN { printf "%7.2f", v }')"
        done
        printf '%-4s %-9s %s  %s\n' "$lab" "$kind" "$row" \
            "$("$build/json-get" "$out/r.json" labs.0.verdict 2>/dev/null) $("$build/json-get" "$out/r.json" labs.0.score 2>/dev/null)"
    done
done
python3 "$(dirname "$0")/lock_timeline.py" "$out/lock.log" | sed -n '/^where a /,$p'
