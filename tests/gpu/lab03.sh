#!/bin/sh
# GPU test of lab 03 through the real grader, one case per call:
#     lab03.sh BUILD_DIR SOURCE_DIR CASE
# CASE is solution, stub, or the name of a mutant in tests/submissions/03-row-col-major/.
# Exits 77 (skipped) without a GPU.
set -u
build=$1 src=$2 case=$3
. "$src/tests/gpu/lib.sh"
grade_case 03 row-col-major 13

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
rt_*)
    # The red team's hostile cases: each file's header says the verdict and the stages it may
    # stop at (its "// expect:" and "// expect-stage:" lines).
    expect_from_file "$m" ;;
alt_*)
    # Another correct, coalesced solution, written differently from the reference: it passes.
    [ "$status" -eq 0 ] && [ "$verdict" = PASS ] || fail "a correct, coalesced solution must pass" ;;
*) fail "unknown case" ;;
esac
echo "ok ($case)"
