#!/bin/sh
# A class's worth of grading time (issue 12): N submissions (default 20) of all seven labs, each
# lab's file taken in turn from its reference solution, its stub and its alternative and mutant
# submissions (tests/submissions/; lab 01's hostile cases left out: they time out by design),
# graded with `grade --submissions` as an instructor would, the GPU lock's timeline kept.
# Prints the wall time, the time per seven-lab submission, 300 submissions at that rate, the
# verdicts, and where the GPU's time went (tests/gpu/lock_timeline.py). A measurement, not a
# test: it asserts nothing but that every row was graded.
#     tests/gpu/class_speed.sh BUILD_DIR [N] [LIMIT_S]
# GRADEBOOK=FILE keeps the gradebook there (to compare the rows of two runs), KEEP=DIR the gradebook
# and each student's feedback (with every engine's word on each lab); SEED=N grades
# with that seed (default: a new one each run).
# Past LIMIT_S seconds (default 900) the batch is stopped and the rows done so far are
# reported, with the rate and the timeline as far as it went.
set -u
build=$1 n=${2:-20} limit=${3:-900}
src=$(cd "$(dirname "$0")/../.." && pwd)
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
subs=$work/subs
mkdir -p "$subs"
for lab in $("$build/grade" --list | cut -d' ' -f1); do
    id=${lab%%-*}
    cases="solution stub"
    for f in "$src/tests/submissions/$lab"/*.cu "$src/tests/submissions/$lab"/*.patch; do
        [ -f "$f" ] || continue
        name=$(basename "${f%.*}")
        case $id in 01) case $name in alt_* | index_bug | pairs | swapped) ;; *) continue ;; esac ;; esac
        cases="$cases $f"
    done
    set -- $cases
    count=$#
    i=0
    while [ $i -lt "$n" ]; do
        k=$((i % count + 1))
        eval "c=\${$k}"
        d=$subs/$(printf 's%02d' "$i")
        mkdir -p "$d"
        case $c in
        solution) cp "$src/solutions/$lab/kernel.cu" "$d/$lab.cu" ;;
        stub) cp "$src/labs/$lab/kernel.cu" "$d/$lab.cu" ;;
        *) sh "$src/tests/submissions/apply.sh" "$c" "$d/$lab.cu" ;;
        esac
        i=$((i + 1))
    done
done
echo "$n submissions of $(ls "$subs/s00" | wc -l) labs each"
start=$(date +%s.%N)
GRADE_LOCK_LOG=$work/lock.log timeout "$limit" "$build/grade" --submissions "$subs" --output "$work/out" -q ${SEED:+--seed "$SEED"}
status=$?
end=$(date +%s.%N)
[ $status -eq 124 ] && echo "stopped after $limit s"
rows=$("$build/csv-get" "$work/out/gradebook.csv" --rows 2>/dev/null || echo 0)
awk -v a="$start" -v b="$end" -v r="$rows" 'BEGIN {
    w = b - a; if (r == 0) { printf "no row in %.1f s\n", w; exit }
    printf "%d rows in %.1f s: %.2f s a row, %.2f s a seven-lab submission; 300 submissions: %.0f min\n", r, w, w / r, 7 * w / r, 300 * 7 * w / r / 60 }'
"$build/csv-get" "$work/out/gradebook.csv" --keys > "$work/keys.txt" 2>/dev/null
awk '{ print $3 }' "$work/keys.txt" | sort | uniq -c
echo "the slowest rows (seconds, wall, as each waited for the GPU too):"
while read -r student lab verdict score; do
    echo "$("$build/csv-get" "$work/out/gradebook.csv" "$student" "$lab" seconds) $student $lab $verdict"
done < "$work/keys.txt" | sort -rn | head -8
python3 "$src/tests/gpu/lock_timeline.py" "$work/lock.log"
[ -z "${GRADEBOOK:-}" ] || cp "$work/out/gradebook.csv" "$GRADEBOOK"
[ -z "${KEEP:-}" ] || { mkdir -p "$KEEP" && cp -r "$work/out/feedback" "$work/out/gradebook.csv" "$KEEP"; }
[ "$rows" -eq $((n * 7)) ]
