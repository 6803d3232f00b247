#!/bin/sh
# GPU test of lab 01 through the real grader, one case per call:
#     lab01.sh BUILD_DIR SOURCE_DIR CASE
# CASE is solution, stub, or the name of a mutant in tests/submissions/01-dram-burst/.
# extra cases: stub_nobody
# Hostile cases that attack the machine call need_sandbox: skipped without Landlock.
# Exits 77 (skipped) without a GPU.
set -u
build=$1 src=$2 case=$3
. "$src/tests/gpu/lib.sh"

# ---- what the hostile cases share ----
# Files a case leaves outside $out, removed with it.
hostile_files=
trap 'rm -rf "$out"; rm -f $hostile_files' EXIT
# hostile_pidfile: where a case writes the pids of what it leaves behind: a file in /dev/shm,
# which the recording's sandbox lets it write ($out lies outside it), else one in $out.
hostile_pidfile() {
    CL_HOSTILE_PIDFILE=$(mktemp /dev/shm/cl-hostile-XXXXXX 2>/dev/null) || CL_HOSTILE_PIDFILE=$out/hostile.pid
    hostile_files="$hostile_files $CL_HOSTILE_PIDFILE"
    export CL_HOSTILE_PIDFILE
}
# running PID [NAME]: process PID runs (is no zombie), and is named NAME (/proc/PID/comm).
running() {
    [ -z "${2:-}" ] || [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ] || return 1
    state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)
    [ -n "$state" ] && [ "$state" != Z ] && [ "$state" != X ]
}
# alive NAME: the pids of the running processes named NAME, one a line.
alive() {
    for d in /proc/[0-9]*; do
        running "${d#/proc/}" "$1" && echo "${d#/proc/}"
    done
    return 0
}
# landlock_abi: the Landlock ABI grade --doctor reports, 0 where there is none.
landlock_abi() {
    abi=$("$grade" --doctor 2>/dev/null | sed -n 's/.*Landlock ABI \([0-9][0-9]*\).*/\1/p' | head -n 1)
    echo "${abi:-0}"
}
# said: what the report says of the failure: its reason, the run's problem and the run's log.
said() { printf '%s\n%s\n%s\n' "$(get labs.0.reason)" "$(get labs.0.run.problem)" "$(get labs.0.run.log)"; }
# stub_like: graded as the stub is: FAIL 40, correct, about 12.5% of loads and stores.
stub_like() {
    expect_fail; correct
    [ "$(get labs.0.score)" = 40 ] || fail "score $(get labs.0.score), expected the stub's 40"
    ld=$(get labs.0.coalescing.loads.efficiency) st=$(get labs.0.coalescing.stores.efficiency)
    ge 0.2 "$ld" && ge 0.2 "$st" || fail "efficiency $ld / $st should be the stub's 0.125"
}
# below_half: the graded load efficiency is under 0.5.
below_half() {
    ld=$(get labs.0.coalescing.loads.efficiency)
    ! ge "$ld" 0.5 || fail "load efficiency $ld should be below 0.5"
}
# contract_names WORD: refused by lab 01's contract, the reason naming WORD.
contract_names() {
    expect_fail
    get labs.0.reason | grep -q "broke lab 01's contract" || fail "the contract is not named"
    get labs.0.reason | grep -qi "$1" || fail "the reason does not name '$1'"
}
# no_compile_because PATTERN: did not compile, the build log matching PATTERN (grep -E).
no_compile_because() {
    expect_fail
    [ "$(get labs.0.build.compiled)" = false ] || fail "must not compile"
    get labs.0.build.log | grep -Eqi "$1" || fail "the build log does not say '$1'"
}
# grade_kernel FILE [GRADE OPTIONS...]: as grade_case, for a kernel file made here.
grade_kernel() {
    file=$1
    shift
    "$grade" --format json --output "$report" --seed 7 "$@" --kernel "$file" 01 2>"$out/stderr"
    read_report $?
}

started=$(date +%s)
case $case in
stub_nobody)
    # The trace engine needs no rights: grade as an unprivileged user, counters off.
    id nobody >/dev/null 2>&1 || { echo "no user 'nobody': skipped"; exit 77; }
    chmod 777 "$out"
    su -s /bin/sh nobody -c "cd '$src' && '$grade' --no-counters --format json --output '$report' --seed 7 01" 2>"$out/stderr"
    status=$?
    "$jget" "$report" passed >/dev/null || fail "the JSON report does not parse (exit status $status)"
    verdict=$(get labs.0.verdict)
    echo "$case: exit $status, verdict $verdict, reason: $(get labs.0.reason)" ;;
hang)
    grade_case 01 dram-burst 7 --timeout 10 ;;
rt_fill_last_block)
    # Its trace overflows on purpose: with no counters the trace is the only engine, whose
    # failure the kernel caused: FAIL, not NOT GRADED.
    grade_case 01 dram-burst 7 --no-counters ;;
daemon_forges | rewrites_report | sleepers)
    hostile_pidfile
    grade_case 01 dram-burst 7 ;;
writes_results)
    # Its forgeries in its cwd land in $out (below /tmp), not in the caller's folder.
    cd "$out" || fail "cannot enter $out"
    grade_case 01 dram-burst 7 ;;
link_result)
    printf 'the target of the links: must stay as it is\n' > "$out/target"
    cp "$out/target" "$out/target.orig"
    CL_HOSTILE_TARGET=$out/target
    export CL_HOSTILE_TARGET
    grade_case 01 dram-burst 7 ;;
kills_grader)
    # Without Landlock's signal scoping (ABI 6), it could kill this test and its caller.
    need_sandbox
    [ "$(landlock_abi)" -ge 6 ] ||
        { echo "Landlock ABI $(landlock_abi) does not keep the recording from signalling: skipped"; exit 77; }
    grade_case 01 dram-burst 7 ;;
writes_grader)
    need_sandbox
    was_here=$(dirname "$(readlink -f "${GRADE_WORKER:-$build/grade-worker}")")/hostile-was-here
    [ ! -e "$was_here" ] || fail "'$was_here' is left from an earlier run: remove it"
    canary=$build/hostile-canary
    printf 'canary of the grader tree, %s\n' "$$" > "$canary" || fail "cannot write '$canary'"
    hostile_files="$hostile_files $canary"
    cp "$canary" "$out/canary.orig"
    CL_HOSTILE_TARGET=$canary
    export CL_HOSTILE_TARGET
    grade_case 01 dram-burst 7 ;;
include_absolute)
    # The reference solution by its absolute path: readable only when the compile is confined
    # to folders that do not hold this tree.
    need_sandbox
    root=$(cd "$src" && pwd -P)
    [ -f "$root/solutions/01-dram-burst/kernel.cu" ] || { echo "no reference solution: skipped"; exit 77; }
    case $root/ in
    /usr/* | /lib*/* | /bin/* | /sbin/* | /etc/* | /proc/* | /sys/*)
        echo "this tree lies in a folder the compile must read: skipped"; exit 77 ;;
    esac
    mutant 01-dram-burst
    sed "s|@SOLUTION@|$root/solutions/01-dram-burst/kernel.cu|" "$kfile" > "$out/absolute.cu"
    grade_kernel "$out/absolute.cu" ;;
reach_tree)
    # The recording's reads confined (not yet the default): the instructor's tree is out of
    # its reach. Skipped where the tree holds no solution to find.
    need_sandbox
    [ -f "$src/solutions/01-dram-burst/kernel.cu" ] || { echo "no reference solution: skipped"; exit 77; }
    GRADE_CONFINE=reads grade_case 01 dram-burst 7 ;;
reach_env)
    CL_REACH_SECRET=grader-secret-$$
    export CL_REACH_SECRET
    grade_case 01 dram-burst 7 ;;
reach_tty)
    # Graded from a pseudo-terminal (script(1)), as a person grades interactively; what the
    # terminal showed is in $out/typescript.
    command -v script >/dev/null 2>&1 || { echo "no script(1) for a pseudo-terminal: skipped"; exit 77; }
    mutant 01-dram-burst
    script -qec "'$grade' --format json --output '$report' --seed 7 --kernel '$kfile' 01 2>'$out/stderr'" \
        "$out/typescript" >/dev/null 2>&1 </dev/null
    read_report $? ;;
reach_shm)
    rm -rf /dev/shm/cl-reach-shm-* 2>/dev/null
    grade_case 01 dram-burst 7 ;;
*)
    grade_case 01 dram-burst 7 ;;
esac
took=$(($(date +%s) - started))
echo "graded in $took s"

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
    # Compiled ahead, or found compiled by an earlier run, the kernel is still the student's file.
    file=$(get labs.0.coalescing.trace.worst.file)
    case $file in
    labs/01-dram-burst/kernel.cu | */labs/01-dram-burst/kernel.cu) ;;
    *) fail "the worst line is placed in '$file', not in the student's labs/01-dram-burst/kernel.cu" ;;
    esac
    [ -n "$(get labs.0.coalescing.trace.worst.source)" ] || fail "the worst line's text is missing"
    echo "worst line $got: $(get labs.0.coalescing.trace.worst.source)"
}
case $case in
solution)
    [ "$status" -eq 0 ] && [ "$verdict" = PASS ] || fail "the solution must pass"
    ld=$(get labs.0.coalescing.loads.efficiency) st=$(get labs.0.coalescing.stores.efficiency)
    ge "$ld" 0.9 && ge "$st" 0.9 || fail "efficiency $ld / $st below 0.9"
    [ "$(get labs.0.timing.measured)" = true ] || fail "no timing"
    check_engines
    echo "loads $ld stores $st fraction of the ceiling $(get labs.0.timing.fraction_of_ceiling)" ;;
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
reads_past_end)
    # A load of x[n] in every thread: the trace sees it in the guard bytes, in the sampled warps.
    expect_fail; correct
    want=$(grep -n 'x\[n\]; // out of bounds' "$kfile" | cut -d: -f1)
    get labs.0.reason | grep -q "reads outside its arrays" || fail "the read past the end went unseen"
    get labs.0.reason | grep -q "\.cu:$want" || fail "the reason does not name line $want: $(get labs.0.reason)" ;;
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
        [ -s "$CL_HOSTILE_PIDFILE" ] || fail "the daemon did not start (no pid file)"
        ! running "$(cat "$CL_HOSTILE_PIDFILE")" || fail "the daemon outlived the grade"
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
writes_results)
    # Forged result, record and trace files everywhere it may write. Results and traces are
    # read only from folders made after the recording; its own records, which it can overwrite
    # in its folder, are checked as they are read, and fail it, or (where its forgeries lost the
    # race) it is graded as the stub is, by the trace where the trace is built.
    if said | grep -q "the recording of the launches is unusable"; then
        expect_fail
        echo "its forged record was refused: $(get labs.0.run.problem)"
    else
        stub_like
        check_engines
    fi ;;
rewrites_report)
    # A daemon rewriting the report file while the grade runs: the grader's report is written
    # last, and the daemon is gone by then.
    stub_like
    get labs.0.reason | grep -q "not coalesced" || fail "not the grader's report"
    [ -s "$CL_HOSTILE_PIDFILE" ] || fail "the rewriter did not start (no pid in $CL_HOSTILE_PIDFILE)"
    for p in $(cat "$CL_HOSTILE_PIDFILE"); do
        ! running "$p" clh-rewriter || { kill -9 "$p"; fail "the rewriter $p outlived the grade"; }
    done
    [ -z "$(alive clh-rewriter)" ] || fail "a rewriter outlived the grade: $(alive clh-rewriter)" ;;
link_result | fifo_result)
    # Links or pipes in place of the child's files: it replaces them (a new file renamed over
    # each) or fails to save, at once; it never writes through a link nor waits on a pipe.
    expect_fail
    ! said | grep -q "timed out" || fail "the child blocked on a pipe until the time limit"
    if [ "$case" = link_result ]; then
        cmp -s "$out/target" "$out/target.orig" || fail "the link's target was written"
    fi
    if [ "$(get labs.0.stage)" = run ]; then
        said | grep -Eqi "save|writ|unusable|regular" || fail "the problem does not say the files could not be written"
    else
        stub_like
    fi ;;
huge_file)
    # 2 GiB into a file: the child's file size limit (1 GiB) stops it.
    expect_fail
    ! said | grep -q "timed out" || fail "reported as timed out"
    ! get labs.0.run.log | grep -q "wrote 2048 MiB" || fail "the recording wrote 2 GiB: its file size is not limited"
    echo "stopped: $(get labs.0.run.problem)" ;;
stdout_flood)
    # About 3 GB of output: kept up to a cap, the rest read away.
    stub_like
    bytes=$(get labs.0.run.log | wc -c)
    [ "$bytes" -le 65536 ] || fail "the run log holds $bytes bytes of the flood"
    [ "$took" -le 240 ] || fail "the grade took $took s" ;;
kills_grader)
    # SIGKILL to the grader, its group and every "grade": refused by the sandbox.
    stub_like
    ! get labs.0.run.log | grep -q HOSTILE-UNCONFINED ||
        fail "the recording could signal the grader: its sandbox does not scope signals"
    get labs.0.run.log | grep -q 'hostile: \([0-9][0-9]*\) of \1 kills refused' ||
        fail "not every kill was refused: $(get labs.0.run.log | grep 'kills refused')" ;;
sleepers)
    # 64 children out of the session: the grader adopts and kills them.
    stub_like
    [ "$(wc -l < "$CL_HOSTILE_PIDFILE")" -ge 64 ] || fail "the sleepers did not start (pids in $CL_HOSTILE_PIDFILE)"
    left=
    for p in $(cat "$CL_HOSTILE_PIDFILE"); do
        running "$p" clh-sleeper && left="$left $p"
    done
    if [ -n "$left" ]; then
        kill -9 $left 2>/dev/null
        fail "sleepers outlived the grade:$left"
    fi ;;
gpu_memory_hog)
    # All the GPU's memory taken before the problem is set up: the CUDA error is named.
    expect_fail
    ! said | grep -q "timed out" || fail "reported as timed out"
    said | grep -Eqi "out of memory|MemoryAllocation" || fail "the out-of-memory error is not named" ;;
host_memory_hog)
    # Host memory until malloc fails: the recording's heap limit stops it short of 48 GiB.
    stub_like
    gib=$(get labs.0.run.log | sed -n 's/.*hostile: took \([0-9][0-9]*\) GiB.*/\1/p' | head -n 1)
    [ -n "$gib" ] || fail "the hog said nothing"
    echo "the hog took $gib GiB"
    [ "$gib" -lt 48 ] || fail "it took all its 48 GiB: the recording's memory is not limited" ;;
cublas_dlopen)
    # cuBLAS does the work: its kernels are not the submission's.
    if get labs.0.run.log | grep -q HOSTILE-NO-CUBLAS; then
        echo "no cuBLAS could be loaded: skipped"; exit 77
    fi
    expect_fail
    said | grep -Eq "not a kernel of the submitted|broke lab 01's contract" ||
        fail "neither the library's kernel nor a refused call is named" ;;
decoy_kernel)
    # A correct kernel loaded from PTX, launched under the name of kernel.cu's decoy.
    expect_fail
    ! said | grep -q "cannot load the PTX kernel" || fail "the case is broken: its PTX did not load"
    stage=$(get labs.0.stage)
    [ "$stage" = correctness ] || [ "$stage" = contract ] || said | grep -q "not a kernel of the submitted" ||
        fail "stage $stage: the replayed decoy must fail correctness, or the module be refused" ;;
clock_traced)
    # Computes otherwise when its global loads are slow (instrumented): the traced replay's
    # outputs are wrong.
    # Where its probe does not tell the tracer's slowdown from a cache miss, it does the
    # stub's work everywhere and is graded as the stub is.
    expect_fail
    if ! get labs.0.reason | grep -Eq "traced|disagree"; then
        stub_like
        echo "its probe did not see the trace: graded as the stub"
    fi ;;
sampled_warps | dilutes)
    # Coalesced in the warps it guesses are sampled, or cheap coalesced loads beside the
    # wasteful ones: the chunked loads are still graded.
    expect_fail; correct
    below_half ;;
fills_trace)
    # A trace buffer filled before the real work: never graded from what is left of it.
    expect_fail; correct
    echo "trace $(get labs.0.coalescing.trace.state): $(get labs.0.coalescing.trace.why)"
    [ "$(get labs.0.coalescing.engine)" != trace ] || below_half ;;
texture_reads)
    contract_names texture ;;
host_regenerates)
    # Its launcher makes x again from --seed and carries y = a * x in its kernel's parameters
    # at the small sizes: the recording's arrays are other values, so what it carried is wrong.
    expect_fail
    [ "$(get labs.0.correctness.passed)" = false ] || fail "must fail correctness" ;;
writes_input)
    # Its kernel leaves its result in x: inputs are compared with their copies after every
    # replay, and one that changed breaks the contract.
    contract_names "a replay changed the input 'x'" ;;
cp_async | bulk_copy | label_cp_async)
    contract_names cp.async ;;
include_absolute)
    no_compile_because "solutions/01-dram-burst/kernel.cu" ;;
endless_compile | include_dev_zero)
    # A preprocessor explosion, an endless include: the compile's memory or time limit.
    no_compile_because "did not finish in time|out of memory|memory exhausted|cannot allocate" ;;
writes_grader)
    # Writes into the grader's tree: the recording writes only its own folder.
    stub_like
    cmp -s "$canary" "$out/canary.orig" || fail "the canary '$canary' was overwritten"
    if [ -e "$was_here" ]; then
        rm -f "$was_here"
        fail "'$was_here' was made beside the grading child"
    fi ;;
prints_pass)
    # Prints a passing report: the text report is still the grader's.
    stub_like
    "$grade" --kernel "$kfile" --seed 7 01 > "$out/report.txt" 2>/dev/null
    grep -Eq "^lab 01 dram-burst: DRAM burst +FAIL +40/100" "$out/report.txt" || fail "the text report does not say FAIL 40/100"
    ! grep -q "^lab 01.*PASS" "$out/report.txt" || fail "a PASS line reached the report"
    grep -q "^0 passed, 1 failed" "$out/report.txt" || fail "the summary does not say 1 failed" ;;
device_launch)
    # Dynamic parallelism: needs relocatable device code, which the grader does not ask for.
    expect_fail
    if [ "$(get labs.0.build.compiled)" = false ]; then
        get labs.0.build.log | grep -q "separate compilation" || fail "the compiler's reason is missing"
    else
        get labs.0.stage | grep -Eq "^(contract|run)$" || fail "compiled, and not refused: stage $(get labs.0.stage)"
    fi ;;
knows_the_size)
    # Right at the graded size only: the small sizes it is also checked at are wrong.
    expect_fail
    [ "$(get labs.0.stage)" = correctness ] || fail "stage $(get labs.0.stage), expected correctness"
    [ "$(get labs.0.correctness.passed)" = false ] || fail "must fail correctness" ;;
reach_tree)
    # Its failure log is quoted, and holds no line of the solution: it could read none.
    expect_fail
    said | grep -q "no solution could be read" || fail "the mutant's own words are not in the log"
    ! said | grep -q "scale_coalesced" || fail "the report quotes the reference solution" ;;
reach_env)
    expect_fail
    said | grep -q "env: PATH=" || fail "the mutant's environment is not in the log"
    ! said | grep -q "$CL_REACH_SECRET" || fail "the grader's environment reached the recording"
    echo "the recording's environment: $(said | grep -c '^env: ') variables" ;;
reach_tty)
    [ "$verdict" = PASS ] || fail "verdict $verdict: it computes y = a * x coalesced and must pass"
    [ -s "$out/typescript" ] || fail "script(1) recorded nothing"
    ! grep -q "FORGED-BY-REACH-TTY" "$out/typescript" || fail "the forged report reached the terminal"
    ! grep -q "TYPED-BY-REACH-TTY" "$out/typescript" || fail "characters were pushed into the terminal" ;;
reach_shm)
    [ "$verdict" = PASS ] || fail "verdict $verdict: it computes y = a * x coalesced and must pass"
    left=$(ls -d /dev/shm/cl-reach-shm-* 2>/dev/null)
    [ -z "$left" ] || { rm -rf $left; fail "left in /dev/shm after the grade: $left"; } ;;
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
