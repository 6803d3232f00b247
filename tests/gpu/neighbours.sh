#!/bin/sh
# One student cannot slow another (issue 35): a class where an honest student hands in the seven
# reference solutions, graded in a batch alone and again beside three hostile neighbours (lab
# 01): a launcher that sleeps past its limit (neighbours/sleeper.cu), one whose second run after
# a failure sleeps (neighbours/staller.cu), and a kernel that hangs (tests/submissions/
# 01-dram-burst/hang.cu). The honest student's seven rows must take at most 1.5x their time in
# the clean batch (and 3 s) and pass; the sleeper must get the verdict beside others that it gets
# alone (FAIL, timed out). Prints a table. Exits 77 without a GPU.
#     tests/gpu/neighbours.sh BUILD_DIR SOURCE_DIR
set -u
build=$1 src=$2
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
grade=$build/grade csv=$build/csv-get
[ -x "$csv" ] || { echo "built without batch grading (libarchive, libcsv): skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=$(dirname "$0")
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
labs=$("$grade" --list | cut -d' ' -f1 | cut -d- -f1)

honest() { # honest DIR: the seven solutions, as a student tree
    for l in $("$grade" --list | cut -d' ' -f1); do
        mkdir -p "$1/labs/$l" && cp "$src/solutions/$l/kernel.cu" "$1/labs/$l/kernel.cu"
    done
}
honest "$work/clean/honest"
honest "$work/hostile/honest"
mkdir -p "$work/hostile/sleeper" "$work/hostile/staller" "$work/hostile/hang"
cp "$here/neighbours/sleeper.cu" "$work/hostile/sleeper/01.cu"
cp "$here/neighbours/staller.cu" "$work/hostile/staller/01.cu"
cp "$src/tests/submissions/01-dram-burst/hang.cu" "$work/hostile/hang/01.cu"

for class in clean hostile; do
    a=$(date +%s.%N)
    "$grade" --submissions "$work/$class" --output "$work/out-$class" --seed 7 --timeout 30 -q \
        >/dev/null 2>"$work/$class.log"
    b=$(date +%s.%N)
    echo "$class batch: $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", b - a }') s"
done
printf '%-4s %10s %10s %8s  %s\n' lab clean_s hostile_s ratio verdicts
sum_clean=0 sum_hostile=0
for lab in $labs; do
    c=$("$csv" "$work/out-clean/gradebook.csv" honest "$lab" seconds)
    h=$("$csv" "$work/out-hostile/gradebook.csv" honest "$lab" seconds)
    vc=$("$csv" "$work/out-clean/gradebook.csv" honest "$lab" verdict)
    vh=$("$csv" "$work/out-hostile/gradebook.csv" honest "$lab" verdict)
    printf '%-4s %10s %10s %8s  %s %s\n' "$lab" "$c" "$h" \
        "$(awk -v c="$c" -v h="$h" 'BEGIN { printf "%.2f", c > 0 ? h / c : 0 }')" "$vc" "$vh"
    [ "$vh" = PASS ] || fail "the honest lab $lab is $vh beside the hostile neighbours"
    sum_clean=$(awk -v a="$sum_clean" -v b="$c" 'BEGIN { print a + b }')
    sum_hostile=$(awk -v a="$sum_hostile" -v b="$h" 'BEGIN { print a + b }')
done
echo "the honest submission: $sum_clean s alone in its batch, $sum_hostile s beside the neighbours"
awk -v c="$sum_clean" -v h="$sum_hostile" 'BEGIN { exit !(h <= 1.5 * c + 3) }' ||
    fail "the neighbours slowed the honest submission more than 1.5x"
for who in sleeper staller hang; do
    echo "$who: $("$csv" "$work/out-hostile/gradebook.csv" "$who" 01 verdict), $("$csv" "$work/out-hostile/gradebook.csv" "$who" 01 reason | cut -c1-100)"
done
"$grade" --kernel "$here/neighbours/sleeper.cu" 01 --seed 7 --timeout 30 --format json \
    --output "$work/alone.json" >/dev/null 2>&1
alone=$("$build/json-get" "$work/alone.json" labs.0.verdict)
beside=$("$csv" "$work/out-hostile/gradebook.csv" sleeper 01 verdict)
echo "the sleeper alone: $alone; beside others: $beside"
[ "$alone" = "$beside" ] || fail "the sleeper got $alone alone and $beside beside others"
[ "$beside" = FAIL ] || fail "the sleeper is $beside beside others, not FAIL (timed out)"
[ $fails -eq 0 ] && echo "1 passed, 0 failed" || { echo "0 passed, 1 failed"; exit 1; }
