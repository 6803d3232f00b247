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
printf '{"mode":"probe","device":{"count":0,"index":0,"name":"","compute_capability":"0.0","sm_count":0,"l2_bytes":0,"global_bytes":0,"mem_clock_khz":0,"bus_width_bits":0,"peak_bytes_per_s":0,"sm_clock_khz":0,"peak_fp32_flops":0,"driver_cuda":"0.0","runtime_cuda":"13.0","error":"cudaErrorNoDevice","error_text":"no CUDA-capable device is detected"}}' > "$dir/result.json"
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
check bench-kernel 2 "--bench grades each lab's stub and solution" -- "$grade" --bench --kernel x.cu 01
check bench-no-gpu 3 "no CUDA GPU was found" -- env GRADE_WORKER="$work/fake-worker" "$grade" --bench 01
check missing-kernel 2 "cannot read" -- "$grade" --kernel "$work/none.cu" 01
check no-gpu 3 "no CUDA GPU was found" -- env GRADE_WORKER="$work/fake-worker" "$grade" 01
check no-gpu-advice 3 "Makefile.student doctor" -- env GRADE_WORKER="$work/fake-worker" "$grade"
check no-gpu-doctor 3 "FAIL  GPU" -- env GRADE_WORKER="$work/fake-worker" "$grade" --doctor
# A platform that reads the report gets one that says why, never an empty file.
check no-gpu-gradescope 3 "no CUDA GPU was found" -- env GRADE_WORKER="$work/fake-worker" \
    "$grade" --format gradescope --output "$work/results.json" 01 02
if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["score"] == 0 and d["tests"] and "no CUDA GPU" in d["tests"][0]["output"]' "$work/results.json" 2>/dev/null; then
    echo "ok   no-gpu-gradescope-file"
else
    echo "FAIL no-gpu-gradescope-file: not a results.json that says why:"; sed 's/^/    /' "$work/results.json"
    fails=$((fails + 1))
fi
check no-gpu-json 3 '"error":' -- env GRADE_WORKER="$work/fake-worker" "$grade" --format json 01
# A Classroom runner without a GPU: a runner result that says so, for the reporter to show.
check no-gpu-classroom 3 '"status":"error"' -- env GRADE_WORKER="$work/fake-worker" \
    "$grade" --format classroom 01
# What a batch would grade, read on a machine without a GPU.
if "$grade" --help | grep -q -- "--check"; then
    mkdir -p "$work/class/ann" "$work/class/bob"
    printf '// ann\n' > "$work/class/ann/01.cu"
    printf 'nothing\n' > "$work/class/bob/notes.txt"
    check submissions-check 1 "ann  *01  graded     ann/01.cu" -- env GRADE_WORKER="$work/fake-worker" \
        "$grade" --submissions "$work/class" --check 01
    check submissions-check-missing 1 "bob  *01  MISSING" -- "$grade" --submissions "$work/class" --check 01
    check check-needs-submissions 2 "--check reads a --submissions class" -- "$grade" --check 01
fi
check crashing-child 3 "killed by signal" -- env GRADE_WORKER="$work/crashing-worker" "$grade" 01
check missing-child 3 "could not be started" -- env GRADE_WORKER="$work/nothing" "$grade" 01
# The model command: no GPU, DESIGN's table for a few patterns, and its figure.
cd "$work" || exit 1
check model-chunk 0 "32-byte sectors touched            32" -- "$grade" --model --stride 64
check model-coalesced 0 "efficiency                     100.0%" -- "$grade" --model
check model-broadcast 0 "bytes per sector                12.5%" -- "$grade" --model --stride 0
check model-misaligned 0 "efficiency                      80.0%" -- "$grade" --model --offset 4
check model-struct12 0 "32-byte sectors touched            12" -- "$grade" --model --stride 12
check model-float4 0 "32-byte sectors touched            16" -- "$grade" --model --size 16
check model-halfwarp 0 "32-byte sectors touched             2" -- "$grade" --model --active 0xffff
check model-addresses 0 "bytes asked for (unique)           16" -- "$grade" --model --addresses 0,4,8,12
check model-bad-size 2 "must be 1, 2, 4, 8 or 16" -- "$grade" --model --size 3
# A float4 or float2 access must be aligned to its size: the GPU faults otherwise.
check model-misaligned-float4 2 "faults on the GPU (misaligned address)" -- "$grade" --model --size 16 --offset 8
check model-misaligned-float2 2 "lane 0's address is 4 bytes past a multiple of 8" -- "$grade" --model --size 8 --offset 4
check model-misaligned-list 2 "lane 1's address" -- "$grade" --model --size 4 --addresses 0,6
check model-float4-at-16 0 "32-byte sectors touched            17" -- "$grade" --model --size 16 --offset 16
check model-with-lab 2 "takes no lab" -- "$grade" --model 01
"$grade" --model --offset 4 --figure "$work/fig.dot" > /dev/null 2>&1
if grep -q "5 sectors touched" "$work/fig.dot" && grep -c "^  lane[0-9]* -> s" "$work/fig.dot" | grep -qx 32; then
    echo "ok   model-figure"
else
    echo "FAIL model-figure: $work/fig.dot lacks the 5 sectors or the 32 lane edges"; fails=$((fails + 1))
fi
if command -v dot > /dev/null; then
    if dot -Tsvg "$work/fig.dot" -o "$work/fig.svg" 2> "$work/dot.err" && [ ! -s "$work/dot.err" ]; then
        echo "ok   model-figure-renders"
    else
        echo "FAIL model-figure-renders:"; cat "$work/dot.err"; fails=$((fails + 1))
    fi
fi

[ "$fails" -eq 0 ] && echo "all grade CLI checks passed" || echo "$fails grade CLI checks failed"
exit $((fails > 0))
