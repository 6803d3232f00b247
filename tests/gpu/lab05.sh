#!/bin/sh
# GPU test of lab 05 through the real grader, one case per call:
#     lab05.sh BUILD_DIR SOURCE_DIR CASE
# CASE is solution, stub, or the name of a submission in tests/submissions/05-corner-turning/.
# Exits 77 (skipped) without a GPU.
set -u
build=$1 src=$2 case=$3
. "$src/tests/gpu/lib.sh"
grade_case 05 corner-turning 19
counters=$(get labs.0.coalescing.counters.state)
conflicts() { # shared-store bank conflicts per shared store, when the counters ran
    awk -v c="$(get labs.0.coalescing.counters.shared.st_bank_conflicts)" \
        -v r="$(get labs.0.coalescing.counters.shared.st_requests)" 'BEGIN { print (r > 0 ? c / r : 0) }'
}

case $case in
solution)
    [ "$status" -eq 0 ] && [ "$verdict" = PASS ] || fail "the solution must pass"
    ge "$ld" 0.9 && ge "$st" 0.9 || fail "efficiency $ld / $st below 0.9"
    if [ "$counters" = ok ]; then
        c=$(conflicts); echo "shared-store bank conflicts per store: $c"
        ge 1 "$c" || fail "the padded tiles should be (nearly) free of store conflicts ($c)"
    fi ;;
unpadded)
    # Correct and coalesced: it passes; the report shows its bank conflicts.
    [ "$status" -eq 0 ] && [ "$verdict" = PASS ] || fail "unpadded tiles are coalesced: must pass"
    if [ "$counters" = ok ]; then
        c=$(conflicts); echo "shared-store bank conflicts per store: $c"
        ge "$c" 5 || fail "the unpadded transposed stores should conflict ($c)"
    fi ;;
stub)
    expect_fail; correct
    ge 0.4 "$ld" || fail "stub load efficiency $ld should be low"
    ge 0.4 "$st" || fail "stub store efficiency $st should be low" ;;
strided_corner_turn)
    expect_fail; correct
    ge 0.4 "$ld" || fail "loads $ld should still stride"
    get labs.0.coalescing.trace.worst.source | grep -q "t + tx) \* m" || fail "worst line is not the tile copy of A" ;;
transpose_edge)
    expect_fail
    [ "$(get labs.0.correctness.passed)" = false ] || [ "$(get labs.0.run.guards_intact)" = false ] ||
        fail "must fail correctness or the guards" ;;
rt_*)
    # Red team B's attacks: the verdict and the stage their file states ("// expect:" and
    # "// expect-stage:" near its top; tests/submissions/redteam-b.md lists them).
    expect_from_file "$m" ;;
alt_*)
    # Another correct, coalesced solution, written differently from the reference: it passes.
    [ "$status" -eq 0 ] && [ "$verdict" = PASS ] || fail "a correct, coalesced solution must pass" ;;
*) fail "unknown case" ;;
esac
echo "ok ($case)"
