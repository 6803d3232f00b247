#!/bin/sh
# GPU test of lab 02 through the real grader, one case per call:
#     lab03.sh BUILD_DIR SOURCE_DIR CASE
# CASE is solution, stub, or the name of a mutant in tests/submissions/03-row-col-major/.
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
solution) set -- --solution 03 ;;
stub) set -- 03 ;;
*) set -- --kernel "$src/tests/submissions/03-row-col-major/$case.cu" 03 ;;
esac
"$grade" --format json --output "$report" --seed 13 "$@" 2>"$out/stderr"
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
    ge "$ld" 0.9 && ge "$st" 0.9 || fail "efficiency $ld / $st below 0.9" ;;
stub)
    expect_fail; correct
    ge 0.2 "$ld" || fail "stub load efficiency $ld should be about 0.125"
    ge 0.2 "$st" || fail "stub store efficiency $st should be about 0.125" ;;
axpby_unfixed)
    expect_fail; correct
    ge 0.9 "$st" || fail "axpby's stores $st should still be uncoalesced"
    get labs.0.coalescing.trace.worst.source | grep -q "alpha" || fail "worst line is not axpby's" ;;
swapped_axpby | colmajor_rowindex)
    expect_fail
    [ "$(get labs.0.correctness.passed)" = false ] || fail "must fail correctness"
    get labs.0.correctness.details | grep -q '\[' || fail "no coordinates shown" ;;
*) fail "unknown case" ;;
esac
echo "ok ($case)"
