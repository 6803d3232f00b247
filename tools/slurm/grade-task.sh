#!/usr/bin/env bash
# One task of grade-array.sh's job array (SLURM_ARRAY_TASK_ID says which):
#     grade-task.sh GRADER SUBMISSIONS OUT TASKS COURSE [LAB...]
set -u
grader=$1 subs=$2 out=$3 tasks=$4 course=$5
shift 5
k=${SLURM_ARRAY_TASK_ID:?not run as a task of a Slurm job array}
args=(--submissions "$subs" --shard "$k/$tasks" --output "$out/task-$k")
[ -n "$course" ] && args=(--course "$course" "${args[@]}")
[ -f "$out/task-$k/gradebook.csv" ] && args+=(--resume)
echo "task $k of $tasks on $(hostname), CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-unset}"
"$grader" "${args[@]}" "$@"
status=$?
[ $status -eq 1 ] && status=0 # some rows failed: that is a grade, not a failure
exit $status
