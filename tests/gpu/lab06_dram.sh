#!/bin/sh
# Lab 06's claim about DRAM bytes, measured with Nsight Compute: one step of 4194304 particles
# in each layout (the explore run's kernels), DRAM bytes read and written per kernel. A step that
# reads every field moves about the same DRAM bytes as structures or as arrays (the fields it
# skips in a sector are the ones it reads next), while one that reads 6 of 8 fields moves a
# third more as structures. Needs ncu on PATH; prints a table, exits 77 without a GPU or ncu.
#     tests/gpu/lab06_dram.sh [BUILD_DIR]
set -u
build=${1:-build-gpu}
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
command -v ncu >/dev/null || { echo "no ncu: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The explore run times each kernel 17 times and profiles it once more; ncu sees every launch.
ncu --csv --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum -k regex:step \
    "$build/grade-worker" explore --lab 06 --workdir "$tmp" > "$tmp/ncu.csv" 2> "$tmp/ncu.err"
printf '%-40s %14s %14s\n' kernel "DRAM read MB" "DRAM write MB"
# The last launch of each kernel (after warm-ups); values are bytes.
awk -F'","' 'NR > 1 && $0 ~ /dram__bytes/ {
        name = $5; metric = $(NF-2); value = $NF; gsub(/[",]/, "", value);
        v[name, metric] = value; names[name] = 1 }
    END { for (n in names) printf "%-40s %14.1f %14.1f\n", substr(n, 1, 40),
              v[n, "dram__bytes_read.sum"] / 1e6, v[n, "dram__bytes_write.sum"] / 1e6 }' \
    "$tmp/ncu.csv" | sort
grep -q '"' "$tmp/ncu.csv" || { echo "ncu gave no rows:"; tail -5 "$tmp/ncu.err"; exit 1; }
