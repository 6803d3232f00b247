#!/bin/sh
# GPU test of lab 06 through the real grader, one case per call:
#     lab06.sh BUILD_DIR SOURCE_DIR CASE
# CASE is solution, stub, or the name of a mutant in tests/submissions/06-aos-soa/.
# Exits 77 (skipped) without a GPU.
set -u
build=$1 src=$2 case=$3
. "$src/tests/gpu/lib.sh"
grade_case 06 aos-soa 23

case $case in
solution)
    [ "$status" -eq 0 ] && [ "$verdict" = PASS ] || fail "the solution must pass"
    ge "$ld" 0.9 && ge "$st" 0.9 || fail "efficiency $ld / $st below 0.9" ;;
stub)
    expect_fail; correct
    ge 0.2 "$ld" || fail "stub load efficiency $ld should be about 0.125"
    ge 0.2 "$st" || fail "stub store efficiency $st should be about 0.125" ;;
naive_conversion)
    expect_fail; correct
    ge 0.6 "$ld" && ge 0.6 "$st" || fail "conversions with lanes 32 bytes apart: $ld / $st should be about 0.5" ;;
unaligned_planes)
    expect_fail; correct
    ge 0.88 "$ld" || fail "planes starting mid-sector: loads $ld should be about 0.845"
    get labs.0.hint | grep -q "32-byte boundary" || fail "the hint does not name the misalignment" ;;
float4_aos)
    expect_fail; correct
    ge 0.6 "$ld" || fail "16-byte vectors of a structure: loads $ld should be about 0.5" ;;
swapped_fields)
    wrong ;;
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
