#!/bin/sh
# The grade program end to end, without a GPU: help, list, usage errors, and what a student
# sees when no GPU is found (a fake grading child reports none). Runs on every machine.
#     grade_cli.sh GRADE_BINARY
set -u
grade=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
check() { # check NAME EXPECTED_STATUS PATTERN -- command...
    name=$1 want=$2 pattern=$3
    shift 4
    "$@" > "$work/out" 2>&1
    got=$?
    if [ "$got" -ne "$want" ] || ! grep -q -- "$pattern" "$work/out"; then
        echo "FAIL $name: status $got (want $want), output:"; sed 's/^/    /' "$work/out"
        fails=$((fails + 1))
    else
        echo "ok   $name"
    fi
}

# A grading child that finds no GPU, as the real one does on a machine without a driver.
cat > "$work/fake-worker" <<'EOS'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = --workdir ] && dir=$2; shift; done
mkdir -p "$dir"
printf '{"mode":"probe","device":{"count":0,"driver_cuda":"0.0","runtime_cuda":"13.0"},"device_error":"cudaErrorNoDevice","device_error_text":"no CUDA-capable device is detected"}' > "$dir/result.json"
EOS
chmod +x "$work/fake-worker"
# A grading child that crashes.
printf '#!/bin/sh\nkill -SEGV $$\n' > "$work/crashing-worker"
chmod +x "$work/crashing-worker"

check help 0 "usage: grade" -- "$grade" --help
check version 0 "grade 0" -- "$grade" --version
check list 0 "01-dram-burst" -- "$grade" --list
check unknown-option 2 "unknown option '--frobnicate'" -- "$grade" --frobnicate
check unknown-lab 2 "unknown lab '42'" -- "$grade" 42
check missing-kernel 2 "cannot read" -- "$grade" --kernel "$work/none.cu" 01
check no-gpu 3 "no CUDA GPU was found" -- env GRADE_WORKER="$work/fake-worker" "$grade" 01
check no-gpu-advice 3 "Makefile.student doctor" -- env GRADE_WORKER="$work/fake-worker" "$grade"
check no-gpu-doctor 3 "FAIL  GPU" -- env GRADE_WORKER="$work/fake-worker" "$grade" --doctor
check crashing-child 3 "killed by signal" -- env GRADE_WORKER="$work/crashing-worker" "$grade" 01
check missing-child 3 "could not be started" -- env GRADE_WORKER="$work/nothing" "$grade" 01
[ "$fails" -eq 0 ] && echo "all grade CLI checks passed" || echo "$fails grade CLI checks failed"
exit $((fails > 0))
