#!/bin/sh
# The counters engine must read what Nsight Compute reads: for lab 01's stub and solution,
# compares the grader's bytes-per-sector figures (grade-worker counters, replaying the
# recorded launches as grading does) with ncu's
# smsp__sass_average_data_bytes_per_sector_mem_global_op_{ld,st}.pct for the same kernel.
#     counters_vs_ncu.sh BUILD_DIR [NVCC]
# Exits 77 (skipped) without a GPU or without ncu.
set -u
build=$1 nvcc=${2:-nvcc}
src=$(cd "$(dirname "$0")/../.." && pwd)
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
command -v ncu >/dev/null || { echo "no ncu on PATH: skipped"; exit 77; }
jget=$build/json-get
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
M=smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct,smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct
status=0
printf '%-9s %-6s %12s %12s\n' kernel op grader_pct ncu_pct
for kind in stub solution; do
    so=$build/liblab01_$kind.so
    case $kind in stub) cu=$src/labs/01-dram-burst/kernel.cu ;; *) cu=$src/solutions/01-dram-burst/kernel.cu ;; esac
    mkdir -p "$work/$kind/r" "$work/$kind/c" "$work/$kind/n"
    # The device code alone, and the launches recorded once: what every measuring step replays.
    "$nvcc" -arch=native -lineinfo --fatbin -I"$src/labs/01-dram-burst" -o "$work/$kind.fatbin" "$cu" ||
        { echo "nvcc --fatbin failed"; exit 1; }
    "$build/grade-worker" record --lab 01 --kernel "$so" --workdir "$work/$kind/r" --seed 7 \
        > "$work/$kind/r.log" 2>&1 || { echo "grade-worker record failed"; cat "$work/$kind/r.log"; exit 1; }
    replay="--image $work/$kind.fatbin --record $work/$kind/r/record.json"
    "$build/grade-worker" counters --lab 01 $replay --workdir "$work/$kind/c" --seed 7 \
        > "$work/$kind/c.log" 2>&1 || { echo "grade-worker counters failed"; cat "$work/$kind/c.log"; exit 1; }
    r=$work/$kind/c/result.json
    [ "$("$jget" "$r" counters.status)" = ok ] || { echo "counters: $("$jget" "$r" counters.why)"; exit 1; }
    # The graded launch alone (-c 1): the replays on the small check shapes that follow it are
    # not compared, and on the H200 ncu once failed to profile the fifth of them (exit 11).
    ncu --clock-control none --csv --page raw --print-units base -k regex:scale -c 1 --metrics "$M" \
        "$build/grade-worker" run --lab 01 $replay --workdir "$work/$kind/n" --seed 7 \
        --no-timing > "$work/$kind/ncu.csv" 2> "$work/$kind/ncu.err" ||
        { echo "ncu failed ($kind):"; tail -n 15 "$work/$kind/ncu.err" "$work/$kind/ncu.csv"; exit 1; }
    for op in ld st; do
        bytes=$("$jget" "$r" counters.kernels.0.${op}_bytes)
        sectors=$("$jget" "$r" counters.kernels.0.${op}_sectors)
        ours=$(awk -v b="$bytes" -v s="$sectors" 'BEGIN { printf "%.4f", (s > 0 ? 100 * b / (32 * s) : 0) }')
        theirs=$(awk -v m="smsp__sass_average_data_bytes_per_sector_mem_global_op_$op.pct" '
            /^"/ { line = substr($0, 2, length($0) - 2); n = split(line, f, "\",\"")
                   if (!col) { for (i = 1; i <= n; i++) if (f[i] == m) col = i; next }
                   v = f[col]; gsub(",", "", v)
                   if (v ~ /^[0-9.]+$/) { printf "%.4f", v; exit } }' "$work/$kind/ncu.csv")
        printf '%-9s %-6s %12s %12s\n' "$kind" "$op" "$ours" "${theirs:-missing}"
        awk -v a="$ours" -v b="${theirs:--1}" 'BEGIN { d = a - b; exit !(d < 0.01 && d > -0.01) }' || status=1
    done
done
[ $status -eq 0 ] && echo "ok: counters engine equals ncu" || echo "FAIL: counters engine differs from ncu"
exit $status
