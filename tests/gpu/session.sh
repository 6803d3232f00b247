#!/bin/bash
# The GPU check in parts that each fit one 10-minute call of a development session's GPU
# machine (tests/gpu/run-all.sh is the whole check in one command, about twice that):
#     tests/gpu/session.sh A [BUILD_DIR]   build; every GPU test but the batch; doctor; the
#                                          explore runs of labs 01, 04 and 05
#     tests/gpu/session.sh B [BUILD_DIR]   build; the batch (its resume and its Slurm array);
#                                          the bench; concurrency.sh; the time breakdown
#     tests/gpu/session.sh C [BUILD_DIR]   build; kernels_alone.sh; a class of seven-lab
#                                          submissions (class_speed.sh, its lock timeline)
#     tests/gpu/session.sh D [BUILD_DIR]   build; a Chinese student's first make grade LAB=01
#                                          from nothing (timed); the time breakdown with each
#                                          child's steps; seven solutions side by side with
#                                          the lock timeline; a hang beside a solution in a batch
# Each step gets what is left of SESSION_BUDGET seconds (default 570) and is cut off at it; the
# logs go to $OUT/session-A.tar.gz (or B) as one file, and a summary table is printed last.
set -u
half=${1:?A or B} build=${2:-build-gpu}
case $half in A | B | C | D) ;; *) echo "session.sh: the part is A, B, C or D, not '$half'" >&2; exit 2 ;; esac
cd "$(dirname "$0")/../.."
start=$(date +%s) budget=${SESSION_BUDGET:-570}
logs=$(mktemp -d) keep=${OUT:-/tmp}
left() { echo $((budget - ($(date +%s) - start))); }
step() { # step NAME COMMAND...: run it with the time left, note its status and seconds
    local name=$1 t0
    shift
    t0=$(date +%s)
    if [ "$(left)" -le 5 ]; then
        echo "$name: not run (no time left)" >> "$logs/summary.txt"
        return
    fi
    timeout "$(left)" "$@" > "$logs/$name.txt" 2>&1
    echo "$name: exit $? in $(($(date +%s) - t0)) s" >> "$logs/summary.txt"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$logs/gpu.txt" 2>&1
step build sh -c "cmake -B '$build' -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build '$build' -j$(nproc)"
case $half in
A)
    step ctest-gpu ctest --test-dir "$build" -L gpu -E gpu_batch --output-on-failure
    step doctor "$build/grade" --doctor
    for lab in 01 04 05; do
        step "explore-$lab" "$build/grade" --explore "$lab" --csv "$logs/explore-$lab.csv"
    done
    grep -E "Test +#" "$logs/ctest-gpu.txt" | grep -v " Passed" >> "$logs/summary.txt"
    grep -E "tests passed" "$logs/ctest-gpu.txt" >> "$logs/summary.txt" ;;
B)
    step batch ctest --test-dir "$build" -R gpu_batch -V
    step bench "$build/grade" --bench --csv "$logs/bench.csv"
    step concurrency sh tests/gpu/concurrency.sh "$build"
    step breakdown sh tests/gpu/time_breakdown.sh "$build"
    grep -E "rows graded|wall time|the array|FAIL|passed, " "$logs/batch.txt" | sed 's/^[0-9]*: //' >> "$logs/summary.txt"
    grep -v '^\[' "$logs/bench.txt" 2>/dev/null | head -20 >> "$logs/summary.txt" ;;
C)
    step kernels sh tests/gpu/kernels_alone.sh
    step class sh tests/gpu/class_speed.sh "$build" 20 $(($(left) - 20))
    cat "$logs/kernels.txt" "$logs/class.txt" >> "$logs/summary.txt" ;;
D)
    # What a Chinese student does first: no build folder, the Makefile alone, LANG set.
    step zh-student sh -c "rm -rf build && time env LANG=zh_CN.UTF-8 make -s -f Makefile.student grade LAB=01 ARGS='--seed 7'"
    step breakdown sh tests/gpu/time_breakdown.sh "$build"
    step side-by-side sh -c "GRADE_LOCK_LOG='$logs/lock.log' '$build/grade' --solution --seed 7 -q > '$logs/solutions.txt'; python3 tests/gpu/lock_timeline.py '$logs/lock.log'"
    step hang-beside sh tests/gpu/hang_beside.sh "$build"
    grep -E "^real|实验 01|结论|下一步" "$logs/zh-student.txt" | head -8 >> "$logs/summary.txt"
    tail -3 "$logs/solutions.txt" >> "$logs/summary.txt"
    cat "$logs/hang-beside.txt" >> "$logs/summary.txt" ;;
esac
tar -czf "$keep/session-$half.tar.gz" -C "$logs" .
echo "=== session $half on $(cat "$logs/gpu.txt"), $(($(date +%s) - start)) s; logs in $keep/session-$half.tar.gz"
cat "$logs/summary.txt"
rm -rf "$logs"
