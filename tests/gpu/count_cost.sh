#!/bin/sh
# Where one CUPTI count's time goes (count_cost.cu): each step of counting a copy kernel loaded
# from a fatbin, three rounds a process, for each variant (the module loaded before the
# profiler is enabled, as the worker does; after it; and a launch outside the counted range
# first), with 0 and 4096 MiB of other device memory allocated; then beside CPU-bound processes,
# beside other contexts' GPU work; several sessions on one enabled profiler (by metrics and
# replay mode; and a server's eight sessions, and another process counting while it idles);
# then through CUPTI's SASS metrics API (alone, with the module's two kernels launched one after
# the other, and four processes at once).
# A measurement for the speed work (issue 12), not a test: it asserts nothing. Exits 77 without
# a GPU.
#     tests/gpu/count_cost.sh
set -u
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
here=$(dirname "$0")
cuda=$(dirname "$(dirname "$(command -v nvcc)")")
cupti=$cuda/extras/CUPTI
[ -d "$cupti/include" ] || cupti=$cuda
nvcc -fatbin -arch=native -o "$out/kernel.fatbin" "$here/count_cost_kernel.cu" || exit 1
nvcc -O2 -o "$out/count_cost" "$here/count_cost.cu" -I"$cupti/include" -L"$cupti/lib64" \
    -Xlinker -rpath="$cupti/lib64" -lcuda -lcupti || exit 1
for mib in 0 4096; do
    for variant in before after warm; do
        echo "--- $variant, $mib MiB beside"
        "$out/count_cost" "$out/kernel.fatbin" "$variant" "$mib"
    done
done
echo "--- before, 0 MiB beside, with 12 CPU-bound processes running"
pids=
for i in $(seq 12); do sh -c 'while :; do :; done' & pids="$pids $!"; done
"$out/count_cost" "$out/kernel.fatbin" before 0
kill $pids 2>/dev/null
echo "--- before, 0 MiB beside, with 6 other contexts keeping the GPU busy"
pids=
for i in $(seq 6); do "$out/count_cost" busy 8 & pids="$pids $!"; done
sleep 1
"$out/count_cost" "$out/kernel.fatbin" before 0
kill $pids 2>/dev/null
wait 2>/dev/null
echo "(milliseconds; 'sum' is the steps from enabling the profiler to disabling it)"
echo "--- three sessions a round on one enabled profiler, by metrics (sass, one, hw) and replay mode"
for m in sass one hw; do
    for r in kernel user application; do
        echo "--- metrics $m, replay $r"
        COUNT_COST_METRICS=$m COUNT_COST_REPLAY=$r COUNT_COST_STARTS=3 \
            "$out/count_cost" "$out/kernel.fatbin" before 0 2>&1 | tail -n +3
    done
done
echo "--- one enable, eight sessions (each a fresh module, buffers and counter-data image)"
"$out/count_cost" "$out/kernel.fatbin" server 8
echo "--- the same, idle 10 s after its first session; another process counts meanwhile"
"$out/count_cost" "$out/kernel.fatbin" server 3 10 > "$out/idle.txt" 2>&1 &
sleep 3
"$out/count_cost" "$out/kernel.fatbin" before 0 2>&1 | grep -i 'error\|^before' | head -3
wait
cat "$out/idle.txt"
echo "--- CUPTI's SASS metrics API: the metrics about global and shared memory, then one process"
"$out/count_cost" "$out/kernel.fatbin" sass list > "$out/sass.txt" 2>&1
grep -c '^sass metric' "$out/sass.txt"
grep '^sass metric' "$out/sass.txt" | grep -i 'global\|shared\|sector\|bytes' | head -30
grep -v '^sass metric' "$out/sass.txt"
for lazy in 1 0; do
    echo "--- the SASS metrics API, the module's two kernels launched one after the other, lazy patching $lazy"
    COUNT_COST_BOTH=1 COUNT_COST_LAZY=$lazy "$out/count_cost" "$out/kernel.fatbin" sass 2>&1
done
echo "--- the SASS metrics API, four processes at once"
for i in 1 2 3 4; do "$out/count_cost" "$out/kernel.fatbin" sass > "$out/sass$i.txt" 2>&1 & done
wait
cat "$out"/sass[1-4].txt
