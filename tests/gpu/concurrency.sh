#!/bin/sh
# Labs graded side by side against one after another: every lab's solution (then stub) in one
# `grade` command, once with GRADE_JOBS=1 (one lab after another) and once as grade does by
# default (pool.h: several at once, the timing's and the counters' measured sections alone on
# the GPU). Prints each lab's verdict, efficiencies, share of the ceiling and speed-up in both
# runs, the wall times, and the side-by-side runs' GPU lock timelines. A measurement for the
# speed work (issue 12), not a test: it asserts nothing. Exits 77 without a GPU.
#     tests/gpu/concurrency.sh BUILD_DIR [SEED]
set -u
build=$1 seed=${2:-7}
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
n=$("$build/grade" --list | wc -l)
"$build/grade" --solution -q --seed "$seed" >/dev/null 2>&1 # the compile cache warm
"$build/grade" -q --seed "$seed" >/dev/null 2>&1
wall() { # wall NAME COMMAND...: runs it, prints nothing, keeps its seconds in $out/NAME.s
    local name=$1 a b
    shift
    a=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    b=$(date +%s.%N)
    awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b - a }' > "$out/$name.s"
}
for kind in solution stub; do
    flag=; [ "$kind" = solution ] && flag=--solution
    wall "seq-$kind" env GRADE_JOBS=1 "$build/grade" $flag -q --seed "$seed" --format json --output "$out/seq-$kind.json"
    wall "par-$kind" env GRADE_LOCK_LOG="$out/lock-$kind.log" "$build/grade" $flag -q --seed "$seed" \
        --format json --output "$out/par-$kind.json"
done
get() { "$build/json-get" "$1" "$2" 2>/dev/null || echo -; }
printf '%-4s %-9s %-4s %-8s %7s %7s %8s %8s\n' lab kind run verdict loads stores ceiling speedup
for kind in solution stub; do
    i=0
    while [ $i -lt "$n" ]; do
        for run in seq par; do
            j=$out/$run-$kind.json
            printf '%-4s %-9s %-4s %-8s %7s %7s %8s %8s\n' "$(get "$j" labs.$i.id)" "$kind" "$run" \
                "$(get "$j" labs.$i.verdict) $(get "$j" labs.$i.score)" \
                "$(get "$j" labs.$i.coalescing.loads.efficiency | cut -c1-6)" \
                "$(get "$j" labs.$i.coalescing.stores.efficiency | cut -c1-6)" \
                "$(get "$j" labs.$i.timing.fraction_of_ceiling | cut -c1-6)" \
                "$(get "$j" labs.$i.speed.speedup | cut -c1-6)"
        done
        i=$((i + 1))
    done
done
i=0
while [ $i -lt "$n" ]; do # a solution that did not pass, and why
    for run in seq par; do
        j=$out/$run-solution.json
        [ "$(get "$j" labs.$i.verdict)" = PASS ] ||
            echo "lab $(get "$j" labs.$i.id) solution, $run: $(get "$j" labs.$i.reason)"
    done
    i=$((i + 1))
done
for kind in solution stub; do
    echo "wall, $n ${kind}s: one after another $(cat "$out/seq-$kind.s") s, side by side $(cat "$out/par-$kind.s") s"
done
for kind in solution stub; do
    echo "side by side, the ${kind}s: where the GPU's time went (tests/gpu/lock_timeline.py)"
    python3 "$(dirname "$0")/lock_timeline.py" "$out/lock-$kind.log"
done
