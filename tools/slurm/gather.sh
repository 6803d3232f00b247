#!/usr/bin/env bash
# Joins the gradebooks, feedback and results of grade-array.sh's tasks (OUT/task-K/) into OUT/,
# and names every task that left no gradebook or wrote no row, with the command that re-runs it.
#     gather.sh OUT TASKS
set -u
out=$1 tasks=$2
book=$out/gradebook.csv
rm -f "$book"
mkdir -p "$out/feedback" "$out/results"
missing=0
for k in $(seq 0 $((tasks - 1))); do
    part=$out/task-$k
    if [ ! -s "$part/gradebook.csv" ]; then
        echo "gather: task $k left no gradebook ($(grep -m1 "^grade:" "$out/task-$k.log" 2>/dev/null || echo "see $out/task-$k.log")); re-run it alone with grade-array.sh ... --only $k" >&2
        missing=$((missing + 1))
        continue
    fi
    if [ "$(tail -c 1 "$part/gradebook.csv" | od -An -c | tr -d ' ')" != '\n' ]; then
        echo "gather: task $k's gradebook ends in a row cut short; re-run it alone with grade-array.sh ... --only $k (it resumes, dropping that row)" >&2
        missing=$((missing + 1))
        continue
    fi
    # The header (one line: no field of it holds a newline) once, then every task's rows.
    [ -s "$book" ] || head -n 1 "$part/gradebook.csv" > "$book"
    tail -n +2 "$part/gradebook.csv" >> "$book"
    cp "$part"/feedback/*.md "$out/feedback/" 2>/dev/null
    cp "$part"/results/*.json "$out/results/" 2>/dev/null
done
echo "gather: $book from $((tasks - missing)) of $tasks tasks"
[ $missing -eq 0 ]
