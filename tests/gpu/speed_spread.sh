#!/bin/bash
# Lab 04's speed gate, measured over seeds: the speed-up over the grader's naive kernel of the
# reference solution (32 x 32 tiles), of the same solution with 16 x 16 tiles, and of the naive
# kernel itself (the mutant naive_x_on_columns), timing engine only. Where min_speedup in
# grader/labs/04-matmul/lab04_spec.c comes from; the numbers are in tests/gpu/RESULTS.md.
#     tests/gpu/speed_spread.sh [BUILD_DIR] [SEEDS]
set -u
cd "$(dirname "$0")/../.."
build=${1:-build-gpu} seeds=${2:-"1 2 3 4 5 6"}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's/#define TILE 32/#define TILE 16/' solutions/04-matmul/kernel.cu > "$tmp/tile16.cu"
printf '%-22s %s\n' "kernel" "speed-up by seed ($seeds)"
for who in solution tile16 naive_x_on_columns; do
    case $who in
    solution) k=solutions/04-matmul/kernel.cu ;;
    tile16) k=$tmp/tile16.cu ;;
    *) k=$tmp/$who.cu
       sh tests/submissions/apply.sh tests/submissions/04-matmul/$who.patch "$k" || exit 1 ;;
    esac
    printf '%-22s' "$who"
    for seed in $seeds; do
        "$build/grade" --kernel "$k" 04 --seed "$seed" --no-trace --no-counters --format json \
            --output "$tmp/s.json" >/dev/null 2>&1
        printf ' %.3f' "$("$build/json-get" "$tmp/s.json" labs.0.speed.speedup 2>/dev/null || echo 0)"
    done
    echo
done
