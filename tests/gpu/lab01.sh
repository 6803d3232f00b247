#!/bin/sh
# GPU test of lab 01 through the real grader, one case per call:
#     lab01.sh BUILD_DIR SOURCE_DIR CASE
# CASE is solution, stub, or the name of a mutant in tests/submissions/01-dram-burst/.
# extra cases: stub_nobody
# Exits 77 (skipped) without a GPU.
set -u
build=$1 src=$2 case=$3
. "$src/tests/gpu/lib.sh"

if [ "$case" = stub_nobody ]; then
    # The trace engine needs no rights: grade as an unprivileged user, counters off.
    id nobody >/dev/null 2>&1 || { echo "no user 'nobody': skipped"; exit 77; }
    chmod 777 "$out"
    su -s /bin/sh nobody -c "cd '$src' && '$grade' --no-counters --format json --output '$report' --seed 7 01" 2>"$out/stderr"
    status=$?
    "$jget" "$report" passed >/dev/null || fail "the JSON report does not parse (exit status $status)"
    verdict=$(get labs.0.verdict)
    echo "$case: exit $status, verdict $verdict, reason: $(get labs.0.reason)"
elif [ "$case" = hang ]; then
    grade_case 01 dram-burst 7 --timeout 10
else
    grade_case 01 dram-burst 7
fi

traced=0
[ -f "$build/libcl_tracer.so" ] && traced=1
# With the trace engine built, it is the one graded, and the counters must agree with it.
check_engines() {
    [ $traced -eq 1 ] || return 0
    [ "$(get labs.0.coalescing.engine)" = trace ] || fail "graded by $(get labs.0.coalescing.engine), not the trace"
    [ -z "$(get labs.0.coalescing.disagreement)" ] || fail "engines disagree: $(get labs.0.coalescing.disagreement)"
}
# The stub must be blamed on its load line: y[i] = a * x[i];
check_worst_line() {
    [ $traced -eq 1 ] || return 0
    want=$(grep -n 'y\[i\] = a \* x\[i\];' "$src/labs/01-dram-burst/kernel.cu" | cut -d: -f1)
    got=$(get labs.0.coalescing.trace.worst.line)
    [ "$got" = "$want" ] || fail "worst line $got, expected $want"
    echo "worst line $got: $(get labs.0.coalescing.trace.worst.source)"
}
case $case in
solution)
    [ "$status" -eq 0 ] && [ "$verdict" = PASS ] || fail "the solution must pass"
    ld=$(get labs.0.coalescing.loads.efficiency) st=$(get labs.0.coalescing.stores.efficiency)
    ge "$ld" 0.9 && ge "$st" 0.9 || fail "efficiency $ld / $st below 0.9"
    [ "$(get labs.0.timing.measured)" = true ] || fail "no timing"
    check_engines
    echo "loads $ld stores $st fraction of copy $(get labs.0.timing.fraction_of_sol)" ;;
stub)
    expect_fail
    [ "$(get labs.0.correctness.passed)" = true ] || fail "the stub must be correct"
    ld=$(get labs.0.coalescing.loads.efficiency) st=$(get labs.0.coalescing.stores.efficiency)
    ge 0.2 "$ld" && ge 0.2 "$st" || fail "stub efficiency $ld / $st should be about 0.125"
    get labs.0.hint | grep -q "32 bytes or more apart" || fail "hint does not name the signature"
    check_engines
    check_worst_line
    echo "loads $ld stores $st" ;;
stub_nobody)
    [ $traced -eq 1 ] || { echo "trace engine not built: skipped"; exit 77; }
    expect_fail
    [ "$(get labs.0.coalescing.engine)" = trace ] || fail "the trace did not run as nobody: $(get labs.0.coalescing.trace.why)"
    ld=$(get labs.0.coalescing.loads.efficiency)
    ge 0.2 "$ld" || fail "stub load efficiency $ld as nobody"
    check_worst_line ;;
index_bug)
    expect_fail
    [ "$(get labs.0.correctness.passed)" = false ] || fail "must fail correctness"
    ge "$(get labs.0.correctness.unwritten)" 1 || fail "unwritten elements not counted" ;;
swapped)
    expect_fail
    [ "$(get labs.0.correctness.passed)" = false ] || fail "must fail correctness"
    get labs.0.correctness.details | grep -q 'y\[' || fail "no coordinates shown" ;;
oob_write)
    expect_fail
    [ "$(get labs.0.run.guards_intact)" = false ] || fail "the write past the end went unseen" ;;
hang)
    expect_fail
    get labs.0.run.problem | grep -q "timed out" || fail "not reported as timed out" ;;
crash)
    expect_fail
    get labs.0.run.log | grep -q "cudaErrorIllegalAddress" || fail "CUDA error not named" ;;
no_compile)
    expect_fail
    [ "$(get labs.0.build.compiled)" = false ] || fail "must not compile"
    get labs.0.build.log | grep -q "error" || fail "compiler message missing" ;;
wrong_name)
    expect_fail
    get labs.0.run.log | grep -q "lab01_scale" || fail "missing launcher not named" ;;
pairs)
    expect_fail
    [ "$(get labs.0.correctness.passed)" = true ] || fail "must be correct"
    ld=$(get labs.0.coalescing.loads.efficiency)
    ge 0.6 "$ld" && ge "$ld" 0.4 || fail "load efficiency $ld should be about 0.5" ;;
cpu_copy)
    expect_fail
    get labs.0.reason | grep -q "no global loads" || fail "CPU work not detected" ;;
*) fail "unknown case" ;;
esac
echo "ok ($case)"
