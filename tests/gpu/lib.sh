# lib.sh - what the per-lab GPU tests share; sourced by labNN.sh, which first sets
#     build (the build folder), src (the source folder), case (solution, stub or a mutant's name)
# and then calls grade_case NN SLUG SEED to grade it with the real grader (JSON report). A mutant
# is tests/submissions/NN-slug/CASE.cu or CASE.patch (tests/submissions/apply.sh makes the file).
# Afterwards: status (grade's exit status), verdict, ld and st (graded efficiencies, may be
# empty), and the helpers fail, get, ge, expect_fail, correct, wrong, expect_from_file.
# Exits 77 (skipped) when this machine has no GPU.
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
grade=$build/grade jget=$build/json-get
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
report=$out/report.json

fail() { echo "FAIL ($case): $*"; tail -20 "$out/stderr" 2>/dev/null; exit 1; }
get() { "$jget" "$report" "$1" || fail "report has no '$1'"; }
# ge A B: A >= B, as numbers
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
expect_fail() { [ "$status" -eq 1 ] && [ "$verdict" = FAIL ] || fail "expected FAIL with status 1"; }
correct() { [ "$(get labs.0.correctness.passed)" = true ] || fail "must be correct"; }
# wrong: must fail correctness, with the coordinates of a wrong element in the details
wrong() {
    expect_fail
    [ "$(get labs.0.correctness.passed)" = false ] || fail "must fail correctness"
    get labs.0.correctness.details | grep -q '\[' || fail "no coordinates shown"
}

# expect_from_file FILE: graded as FILE (a mutant's .cu, the red team's) says it must be. Its
# line "// expect: V" names the verdict, FAIL or NOT_GRADED; its line "// expect-stage: A|B|..."
# the stages (labs.0.stage, oc_stage_name in grader/decide.c) it may stop at. The verdict is
# never PASS; it is FAIL, with exit status 1, unless V is NOT_GRADED (then NOT GRADED or FAIL);
# the stage is one of the alternatives. Prints "ok-by-file".
expect_from_file() {
    [ -f "$1" ] || fail "no file '$1'"
    want=$(sed -n 's#^// expect: *\([A-Z_]*\).*$#\1#p' "$1" | head -n 1)
    stages=$(sed -n 's#^// expect-stage: *\([a-z_|]*\).*$#\1#p' "$1" | head -n 1)
    [ -n "$want" ] || fail "'$1' has no line '// expect: FAIL' (or NOT_GRADED)"
    [ -n "$stages" ] || fail "'$1' has no line '// expect-stage: ...'"
    [ "$verdict" != PASS ] || fail "must not pass: '$1' expects $want at $stages"
    case $want in
    FAIL) expect_fail ;;
    NOT_GRADED)
        [ "$verdict" = "NOT GRADED" ] || [ "$verdict" = FAIL ] ||
            fail "verdict '$verdict', expected NOT GRADED (or FAIL)" ;;
    *) fail "'$1' expects '$want': neither FAIL nor NOT_GRADED" ;;
    esac
    stage=$(get labs.0.stage)
    case "|$stages|" in
    *"|$stage|"*) ;;
    *) fail "stopped at stage '$stage', expected one of $stages" ;;
    esac
    echo "ok-by-file"
}

# need_sandbox: skips (77) unless this grader confines the compile and the recording with
# Landlock (grade --doctor says which): the cases that attack the machine need it.
need_sandbox() {
    "$grade" --doctor 2>/dev/null | grep -q "sandbox  *Landlock" ||
        { echo "no Landlock sandbox on this machine: skipped"; exit 77; }
}

# mutant NN-SLUG: makes $out/$case.cu, the kernel of mutant $case, and sets kfile to it; fails
# when there is no such mutant or its patch no longer applies
mutant() {
    m=$src/tests/submissions/$1/$case
    if [ -f "$m.cu" ]; then m=$m.cu; elif [ -f "$m.patch" ]; then m=$m.patch; else fail "no mutant '$m'"; fi
    kfile=$out/$case.cu
    sh "$src/tests/submissions/apply.sh" "$m" "$kfile" 2>"$out/stderr" || fail "the mutant cannot be made"
}

# grade_case NN SLUG SEED [GRADE OPTIONS...]
grade_case() {
    lab=$1 slug=$2 seed=$3
    shift 3
    case $case in
    solution) set -- "$@" --solution "$lab" ;;
    stub) set -- "$@" "$lab" ;;
    *) mutant "$lab-$slug"; set -- "$@" --kernel "$kfile" "$lab" ;;
    esac
    "$grade" --format json --output "$report" --seed "$seed" "$@" 2>"$out/stderr"
    read_report $?
}

# read_report STATUS: after a grade that wrote $report and exited STATUS, sets status, verdict,
# ld and st, and prints the case's line and the engines' line.
read_report() {
    status=$1
    "$jget" "$report" passed >/dev/null || fail "the JSON report does not parse (exit status $status)"
    verdict=$(get labs.0.verdict)
    ld=$("$jget" "$report" labs.0.coalescing.loads.efficiency 2>/dev/null)
    st=$("$jget" "$report" labs.0.coalescing.stores.efficiency 2>/dev/null)
    echo "$case: exit $status, verdict $verdict, loads $ld, stores $st, reason: $(get labs.0.reason)"
    engines_line
}

# engines_line: sectors per request by each engine that ran (the trace's, the counters'), as
# the thresholds of their comparison are set from.
engines_line() {
    line=
    for kind in loads stores; do
        t=$("$jget" "$report" labs.0.coalescing.$kind.sectors_per_request 2>/dev/null)
        r=$("$jget" "$report" labs.0.coalescing.counters.$kind.requests 2>/dev/null)
        n=$("$jget" "$report" labs.0.coalescing.counters.$kind.sectors 2>/dev/null)
        c=$(awk -v r="${r:-0}" -v n="${n:-0}" 'BEGIN { if (r > 0) printf "%.3f", n / r }')
        line="$line $kind trace ${t:--} counters ${c:--};"
    done
    echo "$case: sectors/request:$line smaller trace: $("$jget" "$report" labs.0.coalescing.trace.smaller_problem 2>/dev/null || echo -)"
}
