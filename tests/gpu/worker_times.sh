#!/bin/bash
# Wall seconds of each grading child run by hand on a kept work folder: where a lab's time goes
# inside the steps of labs.N.seconds, then each child's steps (gl_phase) from the lock's timeline:
# the recording's too, which a grade cannot log (its sandbox keeps it out of the timeline's file).
#     tests/gpu/worker_times.sh [BUILD_DIR] [LAB...]
set -u
build=${1:-build-gpu}; shift || true
labs=${*:-01 04 07}
log=$(mktemp)
w=$build/grade-worker
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
t() { local s e rc; s=$(date +%s.%N); GRADE_LOCK_LOG=$log "$@" >/tmp/wt.log 2>&1; rc=$?; e=$(date +%s.%N)
      awk -v a="$s" -v b="$e" -v rc=$rc 'BEGIN { printf "%6.3f s%s", b - a, rc ? " (rc " rc ")" : "" }'; }
for lab in $labs; do
    base=$("$build/grade" --solution "$lab" --seed 7 -q --keep 2>&1 >/dev/null |
           sed -n "s/.*kept the work folder '\(.*\)'.*/\1/p")
    d=$base/lab$lab run=$(ls -d "$base/lab$lab"/run-* | head -1)
    o=/tmp/wt-$lab; rm -rf "$o"; mkdir -p "$o"/a "$o"/b "$o"/c "$o"/d "$o"/e "$o"/f
    echo "lab $lab: rec $(du -sh "$d/rec" | cut -f1), $(ls "$run" | wc -l) files in run"
    echo "  probe            $(t "$w" probe --workdir "$o/a")"
    echo "  record           $(t "$w" record --lab "$lab" --kernel "$d/kernel.so" --workdir "$o/a" --seed 7)"
    echo "  run, timed       $(t "$w" run --lab "$lab" --image "$run/kernel.fatbin" --record "$run/record.json" --workdir "$o/b" --seed 7)"
    echo "  run, no timing   $(t "$w" run --lab "$lab" --image "$run/kernel.fatbin" --record "$run/record.json" --workdir "$o/c" --seed 7 --no-timing)"
    echo "  run + counters   $(t "$w" run --lab "$lab" --image "$run/kernel.fatbin" --record "$run/record.json" --workdir "$o/e" --seed 7 --counters "$o/f")"
    echo "  counters         $(t "$w" counters --lab "$lab" --image "$run/kernel.fatbin" --record "$run/record.json" --workdir "$o/d" --seed 7)"
    rm -rf "$base"
done
python3 "$(dirname "$0")/lock_timeline.py" "$log" | sed -n '/where a child/,$p'
rm -f "$log"
