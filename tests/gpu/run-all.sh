#!/bin/bash
# The whole check on a GPU machine, in one command: clean build, every test (unit and gpu),
# the student's view of every lab of 'grade --list' (stub and solution), the explore runs, the
# engines against Nsight Compute, and a summary table last. Copies views.txt, engines.txt, ctest.log,
# explore-csv.tar (every explore CSV) and explain-01.svg to $OUT.
#     tests/gpu/run-all.sh [BUILD_DIR]        (logs go to $OUT when it is set)
set -u
cd "$(dirname "$0")/../.."
build=${1:-build-gpu}
logs=/tmp/run-all-logs    # everything; a few files are copied to $OUT at the end
keep=${OUT:-/tmp/run-all}
mkdir -p "$logs" "$keep"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
rm -rf "$build"
t0=$(date +%s.%N)
cmake -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo > "$logs/configure.log" 2>&1 || { tail -30 "$logs/configure.log"; exit 1; }
cmake --build "$build" -j"$(nproc)" > "$logs/build.log" 2>&1 || { grep -E "error" "$logs/build.log" | head -30; exit 1; }
t1=$(date +%s.%N)
ctest --test-dir "$build" --output-on-failure > "$logs/ctest.log" 2>&1
ctest_status=$?
t2=$(date +%s.%N)

# Every lab of the registry: the student's view of its stub (with --explain) and its solution,
# timed, then its explore run.
labs=$("$build/grade" --list | cut -d' ' -f1)
for lab in $labs; do
    n=${lab%%-*}
    echo "=== lab $n ($lab): stub, solution, explore"
    ( cd "$logs" && time "$OLDPWD/$build/grade" "$n" --seed 7 --explain ) > "$logs/lab$n.txt" 2>&1
    ( time "$build/grade" --solution "$n" --seed 7 ) >> "$logs/lab$n.txt" 2>&1
    grep -v "^\[$n\]" "$logs/lab$n.txt"
    "$build/grade" --explore "$n" --csv "$logs/explore-$n.csv" 2>&1 | tee "$logs/explore-$n.txt"
done
echo "=== lab 04: speed-up over seeds"
bash tests/gpu/speed_spread.sh "$build" 2>&1 | tee "$logs/speed-spread.txt"
echo "=== the ceiling's copies at three buffer sizes"
sh tests/gpu/ceiling_copies.sh 2>&1 | tee "$logs/ceiling-copies.txt"
echo "=== grade --bench (every lab's stub, solution, solution again)"
"$build/grade" --bench --csv "$logs/bench.csv" 2>&1 | grep -v '^\[' | tee "$logs/bench.txt"
echo "=== the seven solutions one after another, then all at once (what concurrency moves)"
sh tests/gpu/concurrency.sh "$build" 2>&1 | tee "$logs/concurrency.txt"
echo "=== lab 02: DRAM bytes of the stub and the solution (Nsight Compute)"
sh tests/gpu/lab02_dram.sh "$build" 2>&1 | tee "$logs/lab02-dram.txt"
echo "=== lab 06: DRAM bytes by layout (Nsight Compute)"
sh tests/gpu/lab06_dram.sh "$build" 2>&1 | tee "$logs/lab06-dram.txt"
echo "=== the student's path: make -f Makefile.student grade LAB=01 (plain compilers, no CMake)"
( time make -s -f Makefile.student -j"$(nproc)" grade LAB=01 ARGS="--seed 7" ) > "$logs/make-grade.txt" 2>&1
tail -22 "$logs/make-grade.txt"
"$build/grade" --solution 01 --seed 7 --format json --output "$logs/solution.json" 2>/dev/null
"$build/json-get" "$logs/solution.json" manifest > /dev/null && echo "solution.json parses: $("$build/json-get" "$logs/solution.json" manifest)"
echo "=== doctor as an unprivileged user"
chmod -R a+rX "$build" 2>/dev/null
su -s /bin/sh nobody -c "$build/grade --doctor" 2>&1 | tee "$logs/doctor-nobody.txt" | tail -12

echo "=== counters engine against ncu"
sh tests/gpu/counters_vs_ncu.sh "$build" "$(grep -m1 CMAKE_CUDA_COMPILER:FILEPATH "$build/CMakeCache.txt" | cut -d= -f2)" 2>&1 | tee "$logs/counters-vs-ncu.txt"
echo "=== trace, counters and ncu on DESIGN's patterns"
sh tests/gpu/engines_agree.sh "$build" 2>&1 | tee "$logs/engines-agree.txt"
echo "=== the same patterns as an unprivileged user (the trace needs no rights)"
su -s /bin/sh nobody -c "sh tests/gpu/engines_agree.sh $build" 2>&1 | tee "$logs/engines-agree-nobody.txt" | tail -3
echo "=== grading time of lab 01's stub by engine (wall seconds; the trace's own share from the report)"
TIMEFORMAT=%R
for flags in "--no-trace --no-counters" "--no-counters" "--no-trace" ""; do
    t=$( { time "$build/grade" 01 --seed 7 -q --format json --output "$logs/t.json" $flags >/dev/null 2>&1; } 2>&1 )
    printf '%-26s %6s s   trace pass %s s\n' "${flags:-all three engines}" "$t" \
        "$("$build/json-get" "$logs/t.json" labs.0.coalescing.trace.seconds 2>/dev/null || echo -)"
done | tee "$logs/timing-by-engine.txt"
echo "=== where each lab's grading time goes (wall seconds, stub and solution)"
sh tests/gpu/time_breakdown.sh "$build" 2>&1 | tee "$logs/time-breakdown.txt"
echo "=== summary"
grep -E "tests passed|tests failed|Failed|Skipped|\*\*\*" "$logs/ctest.log" | head -30
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "build %.0f s (%s), ctest %.0f s\n", b - a, "'"$(nproc)"' cores", c - b }'
grep -h "^real" "$logs/lab01.txt" | sed 's/^/grade 01 wall (stub, then solution): /'
cat "$logs"/lab0*.txt "$logs"/explore-0*.txt "$logs/speed-spread.txt" "$logs/lab06-dram.txt" \
    "$logs/make-grade.txt" "$logs/doctor-nobody.txt" > "$keep/views.txt" 2>/dev/null
cat "$logs/engines-agree.txt" "$logs/engines-agree-nobody.txt" "$logs/timing-by-engine.txt" \
    > "$keep/engines.txt" 2>/dev/null
cp "$logs/ctest.log" "$keep/" 2>/dev/null
cp "$logs/time-breakdown.txt" "$keep/" 2>/dev/null
( cd "$logs" && tar -cf "$keep/explore-csv.tar" explore-0*.csv ) 2>/dev/null
cp "$logs/explain-01.svg" "$keep/" 2>/dev/null
exit $ctest_status
