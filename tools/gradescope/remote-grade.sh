#!/usr/bin/env bash
# On the course's GPU machine, for run_autograder: reads one submission as a .tar.gz on standard
# input (64 MiB at most), grades it with GRADER (here, or as a Slurm job with one GPU when SLURM is 1: sbatch
# --wait), and prints its Gradescope results.json on standard output.
#     remote-grade.sh GRADER SLURM COURSE [LAB...] < submission.tar.gz
set -u
grader=$1 slurm=$2 course=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/subs"
# Kept as the archive it came as: the grader reads it in memory, extracting nothing (intake.h).
head -c $((64 << 20)) > "$work/subs/submission.tar.gz"
args=()
[ -n "$course" ] && args=(--course "$course")
args+=(--submissions "$work/subs" --output "$work/out" -q "$@")
if [ "$slurm" = 1 ]; then
    sbatch --wait --quiet --gres=gpu:1 --job-name=grade-gradescope --output="$work/log" \
        --wrap "$(printf '%q ' "$grader" "${args[@]}")" >/dev/null 2>&1
else
    "$grader" "${args[@]}" > "$work/log" 2>&1
fi
if [ -s "$work/out/results/submission.json" ]; then
    cat "$work/out/results/submission.json"
else
    head -c 3000 "$work/log" >&2 2>/dev/null || echo "the grader left no log" >&2
    exit 1
fi
