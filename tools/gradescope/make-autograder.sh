#!/usr/bin/env bash
# Makes the autograder upload for Gradescope (its "Autograder settings", zip file): setup.sh,
# run_autograder, the student edition (to build and grade where the image has a GPU) and the
# course's settings; with --remote, the SSH key and host key to send each submission to the
# course's GPU machine, where tools/gradescope/remote-grade.sh grades it. The key goes into the
# zip only (readable by its owner alone): keep the zip out of any repository. OUT.authorized_keys
# is the key's line for that machine's ~/.ssh/authorized_keys: a forced command (remote-grade.sh
# --forced) with no shell, terminal or forwarding, so that the key can grade and nothing else.
# --timeout is the seconds a grade may take over SSH (default 540, inside Gradescope's default
# 10 minutes: set it below the assignment's own autograder timeout).
#     make-autograder.sh OUT.zip [--labs "01 02"] [--course FILE] [--timeout S]
#         [--remote USER@HOST --key KEY [--port N] [--known-hosts FILE]
#          --remote-dir DIR --remote-grader PATH [--remote-course FILE] [--slurm]]
set -eu
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -ge 1 ] || usage
out=$1
shift
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
labs="" course="" remote="" key="" port=22 known="" remote_dir="" remote_grader="" remote_course=""
slurm=0 timeout=540
while [ $# -gt 0 ]; do
    case $1 in
    --labs) labs=$2; shift ;;
    --course) course=$2; shift ;;
    --remote) remote=$2; shift ;;
    --key) key=$2; shift ;;
    --port) port=$2; shift ;;
    --known-hosts) known=$2; shift ;;
    --remote-dir) remote_dir=$2; shift ;;
    --remote-grader) remote_grader=$2; shift ;;
    --remote-course) remote_course=$2; shift ;;
    --slurm) slurm=1 ;;
    --timeout) timeout=$2; shift ;;
    *) echo "make-autograder: unknown option '$1'" >&2; usage ;;
    esac
    shift
done
if [ -n "$remote" ]; then
    [ -r "$key" ] || { echo "make-autograder: --remote needs --key, a private key that can log in there" >&2; exit 2; }
    [ -n "$remote_dir" ] && [ -n "$remote_grader" ] ||
        { echo "make-autograder: --remote needs --remote-dir (a copy of this tree there) and --remote-grader (its grade)" >&2; exit 2; }
fi
top=$(cd "$(dirname "$0")/../.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp "$top/tools/gradescope/setup.sh" "$top/tools/gradescope/run_autograder" "$stage/"
sh "$top/tools/student-edition.sh" "$stage/edition" >/dev/null
rm -f "$stage/edition.tar.gz"
course_name=""
if [ -n "$course" ]; then
    cp "$course" "$stage/edition/course.yml"
    course_name=course.yml
fi
{
    echo "# made by tools/gradescope/make-autograder.sh on $(date -u +%Y-%m-%d)"
    printf 'LABS=%q\nREMOTE=%q\nPORT=%q\nREMOTE_DIR=%q\nREMOTE_GRADER=%q\nREMOTE_COURSE=%q\n' \
        "$labs" "$remote" "$port" "$remote_dir" "$remote_grader" "$remote_course"
    printf 'SLURM=%q\nCOURSE=%q\nTIMEOUT=%q\n' "$slurm" "$course_name" "$timeout"
} > "$stage/autograder.conf"
if [ -n "$remote" ]; then
    mkdir -p "$stage/ssh"
    cp "$key" "$stage/ssh/id"
    chmod 600 "$stage/ssh/id"
    if [ -n "$known" ]; then
        cp "$known" "$stage/ssh/known_hosts"
    else
        ssh-keyscan -p "$port" "${remote#*@}" > "$stage/ssh/known_hosts" 2>/dev/null
    fi
    [ -s "$stage/ssh/known_hosts" ] || { echo "make-autograder: no host key for ${remote#*@}" >&2; exit 1; }
fi
rm -f "$out"
(umask 077 && cd "$stage" && zip -qr "$out" .)
chmod 600 "$out"
echo "autograder: $out ($(du -h "$out" | cut -f1)); upload it as the autograder's zip file"
if [ -n "$remote" ]; then
    keys=${out%.zip}.authorized_keys
    pub=$(ssh-keygen -y -f "$key") || { echo "make-autograder: cannot read the public half of $key" >&2; exit 1; }
    printf 'restrict,command="%s --forced %s %s%s" %s grade-gradescope\n' \
        "$remote_dir/tools/gradescope/remote-grade.sh" "$remote_grader" "$slurm" \
        "${remote_course:+ $remote_course}" "$pub" > "$keys"
    chmod 600 "$keys"
    echo "on ${remote#*@}: add the line in $keys to ~/.ssh/authorized_keys (the key can then grade, nothing else)"
fi
