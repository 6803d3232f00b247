#!/bin/sh
# GPU test of lab 02 through the real grader, one case per call:
#     lab02.sh BUILD_DIR SOURCE_DIR CASE
# CASE is solution, stub, or the name of a mutant in tests/submissions/02-stride/.
# Exits 77 (skipped) without a GPU.
set -u
build=$1 src=$2 case=$3
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
grade=$build/grade jget=$build/json-get
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
report=$out/report.json
fail() { echo "FAIL ($case): $*"; tail -20 "$out/stderr" 2>/dev/null; exit 1; }
get() { "$jget" "$report" "$1" || fail "report has no '$1'"; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

case $case in
solution) set -- --solution 02 ;;
stub) set -- 02 ;;
*) set -- --kernel "$src/tests/submissions/02-stride/$case.cu" 02 ;;
esac
"$grade" --format json --output "$report" --seed 11 "$@" 2>"$out/stderr"
status=$?
"$jget" "$report" passed >/dev/null || fail "the JSON report does not parse (exit status $status)"
verdict=$(get labs.0.verdict)
ld=$(get labs.0.coalescing.loads.efficiency 2>/dev/null) st=$(get labs.0.coalescing.stores.efficiency 2>/dev/null)
echo "$case: exit $status, verdict $verdict, loads $ld, stores $st, reason: $(get labs.0.reason)"
expect_fail() { [ "$status" -eq 1 ] && [ "$verdict" = FAIL ] || fail "expected FAIL with status 1"; }
correct() { [ "$(get labs.0.correctness.passed)" = true ] || fail "must be correct"; }

case $case in
solution)
    [ "$status" -eq 0 ] && [ "$verdict" = PASS ] || fail "the solution must pass"
    ge "$ld" 0.85 && ge "$st" 0.85 || fail "efficiency $ld / $st below 0.85" ;;
stub)
    expect_fail; correct
    ge 0.3 "$ld" || fail "stub load efficiency $ld should be about 0.167"
    ge "$st" 0.85 || fail "stub stores $st should be coalesced" ;;
scatter_writes)
    expect_fail; correct
    ge "$ld" 0.85 || fail "loads $ld should be coalesced"
    # A warp's 32 lanes write into 6 channel planes, about 5 consecutive floats in each:
    # measured 50% on an H200, well under the bar.
    ge 0.6 "$st" || fail "stores $st should be about 0.5" ;;
no_transpose)
    expect_fail
    [ "$(get labs.0.correctness.passed)" = false ] || fail "must fail correctness"
    get labs.0.correctness.details | grep -q 'out\[' || fail "no coordinates shown" ;;
tile_edge)
    expect_fail
    ge "$(get labs.0.correctness.unwritten)" 1 || fail "the unwritten last tile went unseen" ;;
*) fail "unknown case" ;;
esac
echo "ok ($case)"
