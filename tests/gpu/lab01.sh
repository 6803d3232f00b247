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
elif [ "$case" = daemon_forges ]; then
    CL_HOSTILE_PIDFILE=$out/daemon.pid
    export CL_HOSTILE_PIDFILE
    grade_case 01 dram-burst 7
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
daemon_forges | measured_host)
    # Host code that leaves a forger behind, or behaves otherwise when it suspects a
    # measurement: the replays measure what the recording saw, the stub's chunks.
    expect_fail; correct
    ge 0.2 "$ld" && ge 0.2 "$st" || fail "efficiency $ld / $st should be the stub's 0.125"
    if [ "$case" = daemon_forges ]; then
        [ -s "$out/daemon.pid" ] || fail "the daemon did not start (no pid file)"
        ! kill -0 "$(cat "$out/daemon.pid")" 2>/dev/null || fail "the daemon outlived the grade"
    fi ;;
other_stream | syncs)
    expect_fail
    get labs.0.reason | grep -q "broke lab 01's contract" || fail "the contract is not named"
    case $case in
    other_stream) pattern=stream ;;
    *) pattern=synchronises ;;
    esac
    get labs.0.reason | grep -q "$pattern" || fail "the reason does not say '$pattern'" ;;
include_solution)
    expect_fail
    [ "$(get labs.0.build.compiled)" = false ] || fail "must not compile in its empty folder"
    get labs.0.build.log | grep -q "solutions/01-dram-burst/kernel.cu" || fail "the missing file is not named" ;;
escape_codes)
    expect_fail
    [ "$(get labs.0.build.compiled)" = false ] || fail "must not compile"
    "$grade" --kernel "$kfile" 01 --seed 7 > "$out/report.txt" 2>/dev/null
    grep -q "PASS 100/100" "$out/report.txt" || fail "the message is not shown at all"
    ! tr -d '\n' < "$out/report.txt" | grep -q "$(printf '\033')" || fail "an escape byte reached the report" ;;
cpu_copy)
    # Its launcher copies to and from the host: the recording refuses that, by name.
    expect_fail
    get labs.0.reason | grep -q "broke lab 01's contract" || fail "CPU work not detected"
    get labs.0.reason | grep -q "cudaMemcpy" || fail "the copy is not named" ;;
*) fail "unknown case" ;;
esac
echo "ok ($case)"
