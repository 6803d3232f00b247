#!/usr/bin/env bash
# Grades a folder of submissions as a Slurm job array: N tasks, one GPU each, task K grading
# every Nth submission from the Kth (grade --submissions --shard K/N) into OUT/task-K/; then
# gather.sh joins their gradebooks into OUT/gradebook.csv. Waits for the array (sbatch --wait).
# A task that failed is re-run alone, and resumes its own gradebook:
#     grade-array.sh SUBMISSIONS OUT --tasks N --only K [...the same options]
#
#     grade-array.sh SUBMISSIONS OUT [--tasks N] [--grader PATH] [--course FILE] [--labs "01 02"]
#                    [--time MINUTES] [--only K] [-- SBATCH OPTIONS...]
set -eu
usage() { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 2 ] || usage
subs=$(cd "$1" && pwd) out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
tasks=4 grader=$here/../../build/grade course="" labs="" minutes=60 only=""
while [ $# -gt 0 ]; do
    case $1 in
    --tasks) tasks=$2; shift ;;
    --grader) grader=$2; shift ;;
    --course) course=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift ;;
    --labs) labs=$2; shift ;;
    --time) minutes=$2; shift ;;
    --only) only=$2; shift ;;
    --) shift; break ;;
    *) echo "grade-array: unknown option '$1'" >&2; usage ;;
    esac
    shift
done
[ -x "$grader" ] || { echo "grade-array: no grader '$grader' (build it, or give --grader)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
array=0-$((tasks - 1))
[ -n "$only" ] && array=$only
# Each task: its share, resumed where a gradebook of it exists. Exit 0 when every row was graded
# (passed or not: grade's 1), else grade's 2 or 3, which sbatch --wait passes on.
status=0
# shellcheck disable=SC2086
sbatch --wait --parsable --array="$array" --gres=gpu:1 --time="$minutes" \
    --job-name=grade --output="$out/task-%a.log" "$@" \
    "$here/grade-task.sh" "$grader" "$subs" "$out" "$tasks" "$course" $labs || status=$?
"$here/gather.sh" "$out" "$tasks" || [ $status -ne 0 ] || status=1
exit $status
