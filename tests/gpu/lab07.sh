#!/bin/sh
# GPU test of lab 07 through the real grader, one case per call:
#     lab07.sh BUILD_DIR SOURCE_DIR CASE
# CASE is solution, stub, or the name of a mutant in tests/submissions/07-pitch-padding/.
# Exits 77 (skipped) without a GPU.
set -u
build=$1 src=$2 case=$3
. "$src/tests/gpu/lib.sh"
grade_case 07 pitch-padding 29

case $case in
solution)
    [ "$status" -eq 0 ] && [ "$verdict" = PASS ] || fail "the solution must pass"
    ge "$ld" 0.95 && ge "$st" 0.95 || fail "efficiency $ld / $st below 0.95"
    get labs.0.correctness.summary | grep -q "pitch of 4096 bytes" || fail "expected cudaMallocPitch's 4096-byte pitch" ;;
stub)
    expect_fail; correct
    ge 0.9 "$ld" && ge 0.9 "$st" || fail "packed rows: $ld / $st should be about 0.82"
    ge "$ld" 0.75 || fail "packed rows straddle one sector more, no worse: $ld" ;;
pitch_unused | packed_upload)
    wrong ;;
writes_padding)
    expect_fail
    get labs.0.correctness.details | grep -q "wrote into the padding" || fail "the padding write is not named" ;;
size_switch)
    # Pitched rows where the trace looks, packed ones at the graded size: the counters see the
    # packed rows, so the engines disagree and no coalescing points are given.
    expect_fail; correct
    [ "$(get labs.0.score)" = 40 ] || fail "score $(get labs.0.score): coalescing points for rows pitched only when traced"
    [ -n "$(get labs.0.coalescing.disagreement)" ] || fail "the engines did not disagree" ;;
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
