#!/bin/sh
# What grading labs side by side on one GPU does, before the grader is taught to: every lab's
# solution graded one after another, then all seven at once (seven grade processes), the same
# seed. Prints each lab's verdict, efficiencies, bandwidth share and speed-up in both runs and
# the wall times, so that one can see which figures concurrency moves (the timing's, surely; the
# trace's and the counters' should not move). A measurement for the speed work (issue 12), not
# a test: it asserts nothing. Exits 77 without a GPU.
#     tests/gpu/concurrency.sh BUILD_DIR [SEED]
set -u
build=$1 seed=${2:-7}
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
labs=$("$build/grade" --list | cut -d' ' -f1 | cut -d- -f1)
"$build/grade" --solution $labs -q --seed "$seed" >/dev/null 2>&1 # compile cache warm
t0=$(date +%s.%N)
for lab in $labs; do
    "$build/grade" --solution "$lab" -q --seed "$seed" --format json --output "$out/seq-$lab.json" >/dev/null 2>&1
done
t1=$(date +%s.%N)
for lab in $labs; do
    "$build/grade" --solution "$lab" -q --seed "$seed" --format json --output "$out/par-$lab.json" >/dev/null 2>&1 &
done
wait
t2=$(date +%s.%N)
get() { "$build/json-get" "$1" "$2" 2>/dev/null || echo -; }
printf '%-4s %-5s %-8s %7s %7s %8s %8s %7s\n' lab run verdict loads stores ceiling speedup seconds
for lab in $labs; do
    for run in seq par; do
        j=$out/$run-$lab.json
        printf '%-4s %-5s %-8s %7s %7s %8s %8s %7s\n' "$lab" "$run" "$(get "$j" labs.0.verdict)" \
            "$(get "$j" labs.0.coalescing.loads.efficiency | cut -c1-6)" \
            "$(get "$j" labs.0.coalescing.stores.efficiency | cut -c1-6)" \
            "$(get "$j" labs.0.timing.fraction_of_ceiling | cut -c1-6)" \
            "$(get "$j" labs.0.speed.speedup | cut -c1-6)" "$(get "$j" labs.0.seconds.total | cut -c1-6)"
    done
done
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "wall: one after another %.1f s, all at once %.1f s\n", b - a, c - b }'
