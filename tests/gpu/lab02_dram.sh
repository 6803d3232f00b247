#!/bin/sh
# Lab 02's claim about DRAM bytes, measured with Nsight Compute: the stub's kernel reads the
# input once per channel (about six times its 151 MB) in long contiguous sweeps, the solution's
# once. For each (the solution where this copy has it), the launches are recorded once and the
# graded launch replayed under ncu, as grading replays it; prints DRAM bytes read and written,
# the kernel's time and their rate. Needs ncu on PATH; exits 77 without a GPU or ncu.
#     tests/gpu/lab02_dram.sh [BUILD_DIR] [NVCC]
set -u
build=${1:-build-gpu} nvcc=${2:-nvcc}
src=$(cd "$(dirname "$0")/../.." && pwd)
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
command -v ncu >/dev/null || { echo "no ncu: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
printf '%-9s %12s %12s %9s %12s\n' kernel "read MB" "written MB" "time us" "DRAM TB/s"
status=0
for kind in stub solution; do
    so=$build/liblab02_$kind.so
    case $kind in stub) cu=$src/labs/02-stride/kernel.cu ;; *) cu=$src/solutions/02-stride/kernel.cu ;; esac
    [ -f "$cu" ] && [ -f "$so" ] || { echo "$kind: not in this copy"; continue; }
    w=$tmp/$kind
    mkdir -p "$w/rec" "$w/run"
    "$nvcc" -arch=native -lineinfo --fatbin -I"$src/labs/02-stride" -o "$w/k.fatbin" "$cu" ||
        { echo "nvcc --fatbin failed"; exit 1; }
    "$build/grade-worker" record --lab 02 --kernel "$so" --workdir "$w/rec" --seed 7 > "$w/rec.log" 2>&1 ||
        { echo "grade-worker record failed"; cat "$w/rec.log"; exit 1; }
    # The first launch replayed is the graded one (the check shapes' come after it).
    ncu --clock-control none --csv --print-units base -k regex:deinterleave -c 1 --metrics "$M" \
        "$build/grade-worker" run --lab 02 --image "$w/k.fatbin" --record "$w/rec/record.json" \
        --workdir "$w/run" --seed 7 --no-timing > "$w/ncu.csv" 2> "$w/ncu.err" ||
        { echo "ncu failed ($kind):"; tail -n 15 "$w/ncu.err" "$w/ncu.csv"; exit 1; }
    awk -F'","' -v kind="$kind" '$0 ~ /dram__bytes|gpu__time/ {
            metric = $(NF-2); value = $NF; gsub(/[",]/, "", value); v[metric] = value }
        END { if (!v["gpu__time_duration.sum"]) { print kind ": ncu gave no rows"; exit 1 }
              r = v["dram__bytes_read.sum"]; w = v["dram__bytes_write.sum"]; t = v["gpu__time_duration.sum"]
              printf "%-9s %12.2f %12.2f %9.0f %12.2f\n", kind, r / 1e6, w / 1e6, t / 1e3, (r + w) / t / 1e3 }' \
        "$w/ncu.csv" || status=1
done
exit $status
