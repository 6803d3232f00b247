#!/bin/sh
# Where a lab's compile goes: nvcc on each lab's solution with the grader's flags (grader/build.c
# bd_command) and EXTRA's after them, REPS times each, the median wall seconds and the median of
# each step nvcc times itself (--time). A measurement, not a test; needs no GPU when ARCH is set.
# (The flags are copied from build.c: change both.)
#     [ARCH=sm_90] [REPS=5] [EXTRA="-Xcompiler -fuse-ld=gold"] tests/gpu/compile_steps.sh [LAB ...]
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
arch=${ARCH:-native} reps=${REPS:-5} extra=${EXTRA:-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
labs=${*:-$(cd "$root/solutions" && ls -d [0-9][0-9]-* | cut -c1-2)}
for lab in $labs; do
    dir=$(ls -d "$root"/solutions/"$lab"-*) || exit 2
    header=$(ls -d "$root"/labs/"$lab"-*)
    : > "$work/times.csv"
    : > "$work/walls"
    i=0
    while [ "$i" -lt "$reps" ]; do
        start=$(date +%s.%N)
        # shellcheck disable=SC2086
        nvcc -shared -Xcompiler -fPIC -O3 -Xcompiler -O0 -lineinfo --cudart shared --threads 0 -arch="$arch" \
            -I"$header" $extra --time "$work/times.csv" -o "$work/kernel.so" "$dir/kernel.cu" \
            >"$work/log" 2>&1 || { cat "$work/log"; exit 1; }
        end=$(date +%s.%N)
        awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }' >> "$work/walls"
        i=$((i + 1))
    done
    python3 - "$lab" "$work/walls" "$work/times.csv" "$extra" <<'PY'
import sys, statistics, collections
lab, walls, times, extra = sys.argv[1:]
w = [float(x) for x in open(walls)]
steps = collections.defaultdict(list)
for line in open(times):
    f = [x.strip() for x in line.split(",")]
    if len(f) >= 8 and f[-1] == "ms":
        name = f[1] + (" (dlink)" if "dlink" in f[3] + f[2] else "")
        steps[name].append(float(f[-2]))
cells = "  ".join(f"{k} {statistics.median(v):.0f}" for k, v in steps.items())
print(f"{lab} wall {statistics.median(w):.3f} s (min {min(w):.3f})  ms: {cells}  [{extra or 'as graded'}]")
PY
done
