#!/bin/sh
# Batch grading on the GPU, as an instructor runs it: 20 submissions for labs 01 and 02
# (solutions, stubs, alternative solutions, mutants and hostile files; student-edition trees,
# flat files, a .tar.gz and a .zip; a link, a binary file, two files for one lab) graded by
# 'grade --submissions'. Every row's verdict is checked, and the feedback files. Then the same
# batch is killed in the middle and resumed: no row lost, none graded twice, the same verdicts.
# Last, where Slurm can be started (tests/unit/slurm.sh), the same folder through a job array
# of two tasks, which must give the same gradebook.
#     batch.sh BUILD_DIR SOURCE_DIR
# Exits 77 (skipped) without a GPU.
set -u
build=$1 src=$2
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
grade=$build/grade csvget=$build/csv-get
[ -x "$csvget" ] || { echo "built without batch grading (libarchive, libcsv): skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
subs=$work/subs
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

sol1=$src/solutions/01-dram-burst/kernel.cu sol2=$src/solutions/02-stride/kernel.cu
stub1=$src/labs/01-dram-burst/kernel.cu stub2=$src/labs/02-stride/kernel.cu
m1=$src/tests/submissions/01-dram-burst m2=$src/tests/submissions/02-stride
# put STUDENT PATH FILE: FILE handed in by STUDENT as PATH
put() { mkdir -p "$subs/$1/$(dirname "$2")" && cp "$3" "$subs/$1/$2"; }
tree() { put "$1" labs/01-dram-burst/kernel.cu "$2"; put "$1" labs/02-stride/kernel.cu "$3"; }

tree s01-solutions "$sol1" "$sol2"
tree s02-stubs "$stub1" "$stub2"
put s03-flat 01-dram-burst.cu "$sol1"; put s03-flat 02.cu "$stub2"
put s04-alt 01.cu "$m1/alt_float2_pairs.cu"
put s05-mutants 01.cu "$m1/index_bug.cu"; put s05-mutants 02.cu "$m2/no_transpose.cu"
put s06-hang 01.cu "$m1/hang.cu"; put s06-hang 02.cu "$m2/alt_warp_shuffle.cu"
put s07-crash 01.cu "$m1/crash.cu"
put s08-forger 01.cu "$m1/writes_results.cu"
put s09-escapes 01.cu "$m1/escape_codes.cu"
put s10-sleepers 01.cu "$m1/sleepers.cu"
tree s11-tmp "$sol1" "$sol2" &&
    (cd "$subs/s11-tmp" && tar -czf "$subs/s11-archived.tar.gz" labs) && rm -rf "$subs/s11-tmp"
tree s12-tmp "$stub1" "$stub2"
if command -v python3 >/dev/null; then
    (cd "$subs/s12-tmp" && python3 -m zipfile -c "$subs/s12-zipped.zip" labs)
else
    (cd "$subs/s12-tmp" && tar -cf "$subs/s12-zipped.tar" labs) # no zip tool here
fi
rm -rf "$subs/s12-tmp"
mkdir -p "$subs/s13-link" && ln -s "$sol1" "$subs/s13-link/01.cu"
put s14-binary 02.cu "$stub2" && printf 'x\000y' >> "$subs/s14-binary/02.cu"
put s15-two 01.cu "$sol1"; put s15-two labs/01-dram-burst/kernel.cu "$sol1"
put s16-alt02 02-stride.cu "$m2/alt_float4_tile.cu"
put s17-pairs 01.cu "$m1/pairs.cu"
put s18-decoy 01.cu "$m1/decoy_kernel.cu"
put s19-cpu 01.cu "$m1/cpu_copy.cu"
put s20-oob 01.cu "$m1/oob_write.cu"
echo "the folder: $(ls "$subs" | wc -l) submissions"; ls "$subs"

# STUDENT LAB VERDICT [SCORE]: what each row must say.
expected='s01-solutions 01 PASS 100
s01-solutions 02 PASS 100
s02-stubs 01 FAIL 40
s02-stubs 02 FAIL 70
s03-flat 01 PASS 100
s03-flat 02 FAIL 70
s04-alt 01 PASS 100
s04-alt 02 MISSING 0
s05-mutants 01 FAIL 0
s05-mutants 02 FAIL 0
s06-hang 01 FAIL 0
s06-hang 02 PASS 100
s07-crash 01 FAIL 0
s07-crash 02 MISSING 0
s08-forger 01 FAIL
s09-escapes 01 FAIL 0
s10-sleepers 01 FAIL 40
s11-archived 01 PASS 100
s11-archived 02 PASS 100
s12-zipped 01 FAIL 40
s12-zipped 02 FAIL 70
s13-link 01 REFUSED 0
s14-binary 02 REFUSED 0
s15-two 01 REFUSED 0
s16-alt02 02 PASS 100
s16-alt02 01 MISSING 0
s17-pairs 01 FAIL 40
s18-decoy 01 FAIL 0
s19-cpu 01 FAIL 0
s20-oob 01 FAIL 0'

check_rows() { # GRADEBOOK
    n=$("$csvget" "$1" --rows)
    [ "$n" = 40 ] || fail "$1 has $n rows, not 20 x 2"
    echo "$expected" | while read -r who lab verdict score; do
        got=$("$csvget" "$1" "$who" "$lab" verdict) || { echo "FAIL: no row $who $lab"; continue; }
        [ "$got" = "$verdict" ] || echo "FAIL: $who lab $lab: $got, expected $verdict ($("$csvget" "$1" "$who" "$lab" reason))"
        [ -z "$score" ] || [ "$("$csvget" "$1" "$who" "$lab" score)" = "$score" ] ||
            echo "FAIL: $who lab $lab: score $("$csvget" "$1" "$who" "$lab" score), expected $score"
    done > "$work/row-fails.txt"
    cat "$work/row-fails.txt"
    fails=$((fails + $(wc -l < "$work/row-fails.txt")))
}

echo "=== the whole batch"
start=$(date +%s.%N)
"$grade" --submissions "$subs" --output "$work/out1" --seed 7 01 02 2> "$work/progress1.txt"
status=$?
end=$(date +%s.%N)
tail -4 "$work/progress1.txt"
[ "$status" -eq 1 ] || fail "exit status $status, expected 1 (some rows fail)"
check_rows "$work/out1/gradebook.csv"
echo "wall time $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f s, %.2f s a submission", b - a, (b - a) / 20 }')"
"$csvget" "$work/out1/gradebook.csv" --keys | sort > "$work/keys1.txt"
[ "$(ls "$work/out1/feedback" | grep -c '\.md$')" = 20 ] || fail "not 20 feedback files"
grep -q "PASS" "$work/out1/feedback/s01-solutions.md" || fail "s01's feedback holds no report"
grep -q "a link, never followed" "$work/out1/feedback/s13-link.md" || fail "s13's feedback does not say why"
# (The compile cache, OUT/.compiled, holds binaries: only what a person reads is searched.)
esc=$(grep -rl "$(printf '\033')" "$work/out1/gradebook.csv" "$work/out1/feedback" "$work/out1/results")
[ -z "$esc" ] || fail "an escape byte reached $esc"
jget=$build/json-get
[ "$("$jget" "$work/out1/results/s01-solutions.json" score)" = 200 ] || fail "s01's results.json does not score 200"
[ "$("$jget" "$work/out1/results/s13-link.json" score)" = 0 ] || fail "s13's results.json does not score 0"
"$jget" "$work/out1/results/s13-link.json" tests.5.name >/dev/null || fail "s13's results.json lacks a test per part"

echo "=== killed in the middle, then resumed"
setsid "$grade" --submissions "$subs" --output "$work/out2" --seed 7 -q 01 02 &
pid=$!
for _ in $(seq 600); do
    [ "$("$csvget" "$work/out2/gradebook.csv" --rows 2>/dev/null || echo 0)" -ge 12 ] && break
    sleep 0.5
done
kill -9 -- -"$pid" 2>/dev/null || kill -9 "$pid"
wait "$pid" 2>/dev/null
before=$("$csvget" "$work/out2/gradebook.csv" --rows)
echo "killed with $before rows written"
[ "$before" -ge 12 ] && [ "$before" -lt 40 ] || fail "killed at $before rows: not in the middle"
"$grade" --submissions "$subs" --output "$work/out2" --seed 7 01 02 2>&1 >/dev/null | grep -m1 "exists: add --resume" ||
    fail "a second run without --resume did not refuse the gradebook"
"$grade" --submissions "$subs" --output "$work/out2" --seed 7 --resume 01 02 2> "$work/progress2.txt"
head -1 "$work/progress2.txt"
check_rows "$work/out2/gradebook.csv"
"$csvget" "$work/out2/gradebook.csv" --keys | sort > "$work/keys2.txt"
# The forger's score may differ (its forgery races its own launches): compare the verdicts.
cut -d' ' -f1-3 "$work/keys1.txt" > "$work/v1.txt"
cut -d' ' -f1-3 "$work/keys2.txt" > "$work/v2.txt"
cmp -s "$work/v1.txt" "$work/v2.txt" || { fail "the resumed batch's verdicts differ"; diff "$work/v1.txt" "$work/v2.txt"; }
[ "$(ls "$work/out2/feedback" | grep -c '\.md$')" = 20 ] || fail "the resumed batch has not 20 feedback files"

echo "=== the same folder through a Slurm job array (tools/slurm/), where Slurm can be started"
sh "$src/tests/unit/slurm.sh" "$src" "$build" "$subs" "$work/out1/gradebook.csv" "01 02"
case $? in
0) ;;
77) echo "(no Slurm here)" ;;
*) fail "the Slurm array did not give the batch's gradebook" ;;
esac

echo
[ $fails -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $((fails > 0))
