#!/bin/sh
# N CUDA processes started at the same moment, N = 1, 7, 14, 21 (a seven-lab grading starts
# about 21: recordings, run and trace children): the mean and the most seconds each step took
# (contention.cu), each process's exit, and the CPU's busy share meanwhile. Variants: no buffer,
# CUDA_DEVICE_MAX_CONNECTIONS=1, blocking synchronisation, eager module loading. A measurement
# for the speed work (issue 12), not a test: it asserts nothing. Exits 77 without a GPU.
#     tests/gpu/contention.sh [MIB]
set -u
mib=${1:-1024}
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
nvcc -O2 -arch=native -o "$out/contention" "$(dirname "$0")/contention.cu" || exit 1
cpu() { awk '/^cpu /{ print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat; }
printf '%-34s %3s %6s | %-13s %-13s %-13s %-13s %-13s %-13s | %6s %5s\n' variant n wall \
    "context" "first-launch" "malloc" "memset" "kernel" "free" "exit" "cpu%"
for variant in plain none conn1 blocking eager; do
    for n in 1 7 14 21; do
        m=$mib envs= arg=0
        case $variant in
        none) m=0 ;;
        conn1) envs=CUDA_DEVICE_MAX_CONNECTIONS=1 ;;
        blocking) arg=1 ;;
        eager) envs=CUDA_MODULE_LOADING=EAGER ;;
        esac
        at=$(python3 -c 'import time; print("%.3f" % (time.time() + 0.4))')
        c0=$(cpu)
        i=0
        while [ $i -lt $n ]; do
            ( env $envs "$out/contention" "$at" "$m" "$arg" > "$out/p$i"; date +%s.%N >> "$out/p$i" ) &
            i=$((i + 1))
        done
        wait
        c1=$(cpu)
        cat "$out"/p* | python3 -c '
import sys
at, n, c0, c1, name = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(), sys.argv[4].split(), sys.argv[5]
lines = sys.stdin.read().split("\n")
rows = []
for k in range(0, len(lines) - 1, 2):
    v = [float(x) for x in lines[k].split()]
    v.append(float(lines[k + 1]) - v[7])  # the exit, as the shell saw it
    rows.append(v)
cols = [1, 2, 3, 4, 5, 6, 8]
cells = ["%5.3f/%5.3f" % (sum(r[c] for r in rows) / len(rows), max(r[c] for r in rows)) for c in cols]
wall = max(float(lines[k + 1]) for k in range(0, len(lines) - 1, 2)) - at
busy = float(c1[0]) - float(c0[0]); idle = float(c1[1]) - float(c0[1])
print("%-34s %3d %6.2f | %s | %5.0f%%" % (name, n, wall, " ".join(cells), 100 * busy / (busy + idle)))
' "$at" "$n" "$c0" "$c1" "$variant${envs:+ ($envs)}"
        rm -f "$out"/p*
    done
done
echo "(each cell: mean/most seconds over the n processes; cpu%: the machine's busy share from the start to the last exit)"
