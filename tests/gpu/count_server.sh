#!/bin/sh
# The counting server (countreq.h, grade-worker counters --serve; GRADE_COUNT_SERVER=0 turns it
# off): labs graded side by side count in one process, and a grading counts in a child of its
# own where the server gives no answer. What must hold:
#   same        the seven stubs and the seven solutions get the same verdicts, scores and
#               counted requests and sectors, loads and stores, with the server as without it;
#               (each run's wall time is printed; the kernels were compiled before: re-grades);
#   conflicts   lab 05's shared-memory bank conflicts (hardware counters, counted in the server
#               on a profiler enabled again for them) within 15% of those counted without it:
#               they vary from run to run (3-6% on the H200, seventeenth session), the SASS
#               counts above do not;
#   killed      the server killed as soon as it starts: every solution still PASSes, with its
#               counters read (the seven labs then count in children of their own).
# Exits 77 without a GPU.
#     tests/gpu/count_server.sh BUILD_DIR
set -u
build=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
# No server where only administrators may count and this is not one (grader/main.c).
grep -q '^RmProfilingAdminOnly: *1' /proc/driver/nvidia/params 2>/dev/null && [ "$(id -u)" != 0 ] &&
    { echo "only administrators may read the counters here: no counting server, skipped"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
get=$build/json-get
pass=0 fail=0
check() { # NAME CONDITION-RESULT DETAIL
    if [ "$2" = 0 ]; then echo "ok   $1"; pass=$((pass + 1)); else echo "FAIL $1: $3"; fail=$((fail + 1)); fi
}
# Each lab's verdict, score and counted traffic, one line a lab.
summary() {
    for i in 0 1 2 3 4 5 6; do
        line="$("$get" "$1" labs.$i.id) $("$get" "$1" labs.$i.verdict) $("$get" "$1" labs.$i.score)"
        for k in state loads.requests loads.sectors stores.requests stores.sectors; do
            line="$line $("$get" "$1" labs.$i.coalescing.counters.$k 2>/dev/null || echo -)"
        done
        echo "$line"
    done
}
# Lab 05's load and store bank conflicts, "LD ST" ("- -" where not counted).
conflicts() {
    for i in 0 1 2 3 4 5 6; do
        [ "$("$get" "$1" labs.$i.id 2>/dev/null)" = 05 ] || continue
        for k in ld st; do
            printf '%s ' "$("$get" "$1" labs.$i.coalescing.counters.shared.${k}_bank_conflicts 2>/dev/null || echo -)"
        done
    done
}
# Whether every number of the list A... B... (two halves) is above 0 and within 15% of its pair.
near() {
    echo "$@" | awk '{ h = NF / 2; if (h < 1 || NF % 2) exit 1
        for (i = 1; i <= h; ++i) { a = $i; b = $(i + h)
            if (a !~ /^[0-9]+$/ || b !~ /^[0-9]+$/ || a <= 0 || b <= 0) exit 1
            if ((a > b ? a - b : b - a) > 0.15 * (a > b ? a : b)) exit 1 }
        exit 0 }'
}
cd "$src" || exit 1
"$build/grade" --seed 7 -q >/dev/null 2>&1 # compiled once, so that the runs below are re-grades
"$build/grade" --solution --seed 7 -q >/dev/null 2>&1
bad= far=
for who in stubs solutions; do
    flag=; [ $who = solutions ] && flag=--solution
    a=$(date +%s.%N)
    "$build/grade" $flag --seed 7 -q --format json --output "$t/$who-on.json" >/dev/null 2>&1
    b=$(date +%s.%N)
    GRADE_COUNT_SERVER=0 "$build/grade" $flag --seed 7 -q --format json \
        --output "$t/$who-off.json" >/dev/null 2>&1
    c=$(date +%s.%N)
    awk -v a="$a" -v b="$b" -v c="$c" -v w="$who" \
        'BEGIN { printf "%s: %.2f s with the server, %.2f s without\n", w, b - a, c - b }'
    summary "$t/$who-on.json" > "$t/$who-on.txt"
    summary "$t/$who-off.json" > "$t/$who-off.txt"
    echo "--- $who with the server (lab verdict score counters: state, load requests, sectors, store requests, sectors)"
    cat "$t/$who-on.txt"
    cmp -s "$t/$who-on.txt" "$t/$who-off.txt" || { bad="$bad $who"; diff "$t/$who-on.txt" "$t/$who-off.txt"; }
    pair="$(conflicts "$t/$who-on.json")$(conflicts "$t/$who-off.json")"
    echo "    lab 05's load and store bank conflicts, with the server and without: $pair"
    near $pair || far="$far $who ($pair)"
done
check same "$([ -z "$bad" ] && grep -q ' ok ' "$t/solutions-on.txt"; echo $?)" "differs without the server:$bad"
check conflicts "$([ -z "$far" ]; echo $?)" "more than 15% apart or not counted:$far"

"$build/grade" --solution --seed 7 -q --format json --output "$t/killed.json" >/dev/null 2>&1 &
g=$!
found=
for i in $(seq 2000); do
    p=$(pgrep -u "$(id -u)" -f -- 'grade-worker counters --workdir \. .*--serve' | head -1)
    [ -n "$p" ] && { kill -9 "$p"; found=$p; break; }
    sleep 0.005
done
wait $g
summary "$t/killed.json" > "$t/killed.txt"
echo "--- killed the server (pid ${found:-none found})"
cat "$t/killed.txt"
for i in 0 1 2 3 4 5 6; do # why a lab did not pass, for the record
    [ "$("$get" "$t/killed.json" labs.$i.verdict)" = PASS ] ||
        echo "    $("$get" "$t/killed.json" labs.$i.id): $("$get" "$t/killed.json" labs.$i.reason)"
done
n=$(grep -c ' PASS 100 ok ' "$t/killed.txt")
check killed "$([ -n "$found" ] && [ "$n" = 7 ]; echo $?)" "$n of 7 PASS with counters read"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
