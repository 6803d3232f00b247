#!/usr/bin/env bash
# On the course's GPU machine, for run_autograder: reads one submission as a .tar.gz on standard
# input (64 MiB at most), grades it with GRADER (here, one grade at a time through a lock that
# every remote grade shares, so that two submissions never meet on the GPU; or as a Slurm job
# with one GPU when SLURM is 1: sbatch --wait), and prints its Gradescope results.json on
# standard output. COURSE is a course file here, or "b64:" and the file itself in base64 (the
# course the autograder was made with, travelling with each grade), or empty.
#     remote-grade.sh GRADER SLURM COURSE [LAB...] < submission.tar.gz
# As the forced command of the autograder's key (make-autograder.sh writes the authorized_keys
# line), GRADER and SLURM are the line's own and what the client asks (SSH_ORIGINAL_COMMAND) is
# read as data: only its lab numbers and a "b64:" course are taken, anything else refused.
#     remote-grade.sh --forced GRADER SLURM [COURSE] < submission.tar.gz
# The work goes under GRADE_GRADESCOPE_WORK (default ~/.cache/grade-gradescope: a folder the
# Slurm job's node sees too, not the login node's /tmp).
set -u
if [ "${1:-}" = --forced ]; then
    [ $# -eq 3 ] || [ $# -eq 4 ] || { echo "remote-grade.sh --forced GRADER SLURM [COURSE]" >&2; exit 2; }
    grader=$2 slurm=$3 fixed_course=${4:-}
    # What run_autograder sends: remote-grade.sh GRADER SLURM COURSE LAB..., its words quoted
    # by printf %q. Split on blanks and never run: the path, GRADER and SLURM are ignored (the
    # key's line has its own), COURSE must be '' or b64:, every LAB two digits.
    set -f # no word of it is a pattern to expand
    # shellcheck disable=SC2206
    words=(${SSH_ORIGINAL_COMMAND:-})
    set +f
    [ ${#words[@]} -ge 4 ] && [ "${words[0]##*/}" = remote-grade.sh ] ||
        { echo "this key only grades a submission (remote-grade.sh)" >&2; exit 2; }
    if [ -n "$fixed_course" ]; then
        course=$fixed_course # the line's own (--remote-course): what the client says is ignored
    else
        case ${words[3]} in
        "''") course="" ;;
        b64:*) [[ ${words[3]#b64:} =~ ^[A-Za-z0-9+/=]+$ ]] ||
                   { echo "the course must be base64" >&2; exit 2; }
               course=${words[3]} ;;
        *) echo "this key takes a course only as b64:, never a path" >&2; exit 2 ;;
        esac
    fi
    for w in "${words[@]:4}"; do
        [[ $w =~ ^[0-9][0-9]$ ]] || { echo "this key grades labs by their numbers, not '${w:0:40}'" >&2; exit 2; }
    done
    set -- "${words[@]:4}"
else
    [ $# -ge 3 ] || { echo "remote-grade.sh GRADER SLURM COURSE [LAB...]" >&2; exit 2; }
    grader=$1 slurm=$2 course=$3
    shift 3
fi
base=${GRADE_GRADESCOPE_WORK:-$HOME/.cache/grade-gradescope}
mkdir -p "$base" && chmod 700 "$base"
work=$(mktemp -d "$base/grade-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/subs"
# Kept as the archive it came as: the grader reads it in memory, extracting nothing (intake.h).
head -c $((64 << 20)) > "$work/subs/submission.tar.gz"
args=()
case $course in
b64:*) printf '%s' "${course#b64:}" | base64 -d > "$work/course.yml" 2>/dev/null ||
           { echo "the course does not decode" >&2; exit 2; }
       args=(--course "$work/course.yml") ;;
"") ;;
*) args=(--course "$course") ;;
esac
args+=(--submissions "$work/subs" --output "$work/out" -q "$@")
if [ "$slurm" = 1 ]; then
    sbatch --wait --quiet --gres=gpu:1 --job-name=grade-gradescope --output="$work/log" \
        --wrap "$(printf '%q ' "$grader" "${args[@]}")" >/dev/null 2>&1
else
    flock "$base/gpu.lock" "$grader" "${args[@]}" > "$work/log" 2>&1
fi
if [ -s "$work/out/results/submission.json" ]; then
    cat "$work/out/results/submission.json"
else
    head -c 3000 "$work/log" >&2 2>/dev/null || echo "the grader left no log" >&2
    exit 1
fi
