#!/bin/sh
# GPU test of lab 04 through the real grader, one case per call:
#     lab04.sh BUILD_DIR SOURCE_DIR CASE
# CASE is solution, stub, or the name of a mutant in tests/submissions/04-matmul/.
# Exits 77 (skipped) without a GPU.
set -u
build=$1 src=$2 case=$3
. "$src/tests/gpu/lib.sh"
grade_case 04 matmul 17
speedup=$("$jget" "$report" labs.0.speed.speedup 2>/dev/null)
need=$(get labs.0.speed.min_speedup)
echo "$case: speed-up $speedup (need $need), score $(get labs.0.score)"

case $case in
solution)
    [ "$status" -eq 0 ] && [ "$verdict" = PASS ] || fail "the solution must pass"
    ge "$ld" 0.9 && ge "$st" 0.9 || fail "efficiency $ld / $st below 0.9"
    ge "$speedup" "$need" || fail "speed-up $speedup below $need" ;;
stub)
    expect_fail; correct
    ge 0.3 "$ld" || fail "stub load efficiency $ld should be about 0.15"
    ge 0.2 "$st" || fail "stub store efficiency $st should be about 0.125"
    ge 1 "$speedup" || fail "the stub cannot be faster than the baseline ($speedup)"
    [ "$(get labs.0.score)" = 40 ] || fail "the stub keeps only its correctness points" ;;
naive_x_on_columns | first_launch_only | reuses_output)
    # Coalesced request by request (A's load is a broadcast), but without tiles: against the
    # least traffic (16 x 16 tiles) its loads move about ten times too much, and it is no faster
    # than the gate. The second keeps a __device__ flag to skip the work in later launches:
    # replays reload it. The third skips the work where C already holds a result: outputs are
    # poisoned before each run. Each keeps its correctness and store points.
    expect_fail; correct
    ge 0.3 "$ld" || fail "loads $ld should fall short of the least traffic"
    ge "$st" 0.9 || fail "stores $st should pass"
    ge "$need" "$speedup" || fail "speed-up $speedup should be below $need"
    [ "$(get labs.0.score)" = 50 ] || fail "score $(get labs.0.score): the load and speed points are lost"
    get labs.0.reason | grep -q "as fast as" || fail "the reason does not speak of speed" ;;
tiles_x_on_rows)
    expect_fail; correct
    ge 0.3 "$ld" || fail "load efficiency $ld should be low"
    ge "$st" 0.9 || fail "stores $st should be coalesced"
    get labs.0.coalescing.trace.worst.source | grep -q "\[tx\]\[ty\]" || fail "worst line is not a tile copy" ;;
swapped_index | tile_edge)
    wrong ;;
size_switch)
    # Coalesced on the trace's smaller problem, the stub's x on the rows on the full one: the
    # full-size accesses count too, so it keeps the stub's points only.
    expect_fail; correct
    [ "$(get labs.0.score)" = 40 ] || fail "score $(get labs.0.score): coalescing points for a kernel coalesced only when traced" ;;
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
