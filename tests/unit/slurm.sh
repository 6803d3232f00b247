#!/bin/sh
# The Slurm recipe (tools/slurm/) on a real single-node Slurm that this test starts itself
# (munged, slurmctld, slurmd from Debian's packages; the GPU listed by hand in gres.conf: the
# real /dev/nvidia0 where there is one, /dev/null standing in for it elsewhere). Three
# submissions over two array tasks with one GPU each. With a GPU: every row graded, the same
# verdicts as one 'grade --submissions' run. Without: the scheduling path alone, each task
# saying why it could not grade, and a failed task re-run alone. Needs root and the packages
# (slurmctld slurmd slurm-client munge); skipped (77) without.
#     slurm.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
for tool in slurmctld slurmd munged sbatch; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "no $tool: skipped"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "needs root to start Slurm: skipped"; exit 77; }
[ -x "$build/csv-get" ] || { echo "built without batch grading: skipped"; exit 77; }
pgrep -x slurmctld >/dev/null && { echo "a slurmctld runs already: skipped"; exit 77; }
t=$(mktemp -d)
chmod 755 "$t"
stop() {
    for p in "$t/slurmd.pid" "$t/slurmctld.pid" "$t/munge/munged.pid"; do
        [ -s "$p" ] && kill "$(cat "$p")" 2>/dev/null
    done
    sleep 1
    rm -rf "$t"
}
trap stop EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
host=$(hostname -s)
gpu=/dev/null
nvidia-smi -L 2>/dev/null | grep -q '^GPU' && gpu=/dev/nvidia0

# munge, as its own user, with a socket of this test's
mkdir -p "$t/munge" && chown munge "$t/munge" 2>/dev/null
su -s /bin/sh munge -c "/usr/sbin/munged --socket=$t/munge/munge.socket --pid-file=$t/munge/munged.pid --log-file=$t/munge/munged.log --seed-file=$t/munge/seed" ||
    { fail "munged did not start"; cat "$t/munge/munged.log"; exit 1; }
mkdir -p "$t/spool/ctld" "$t/spool/d"
cat > "$t/slurm.conf" <<CONF
ClusterName=lab
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$t/munge/munge.socket
MpiDefault=none
MailProg=/bin/true
StateSaveLocation=$t/spool/ctld
SlurmdSpoolDir=$t/spool/d
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
GresTypes=gpu
NodeName=$host CPUs=$(nproc) RealMemory=1000 Gres=gpu:1 State=UNKNOWN
PartitionName=gpu Nodes=ALL Default=YES MaxTime=60 State=UP
CONF
echo "NodeName=$host Name=gpu File=$gpu" > "$t/gres.conf"
export SLURM_CONF=$t/slurm.conf
/usr/sbin/slurmctld || { fail "slurmctld did not start"; cat "$t/slurmctld.log"; exit 1; }
/usr/sbin/slurmd || { fail "slurmd did not start"; cat "$t/slurmd.log"; exit 1; }
for _ in $(seq 60); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.5; done
sinfo -h -o '%P %T %G' | grep -q 'idle gpu:1' || { fail "the node is not idle with its GPU: $(sinfo -h -o '%P %T %G')"; tail -5 "$t/slurmd.log"; exit 1; }

# Three submissions of lab 01: the solution, the stub, nothing for it.
subs=$t/subs
mkdir -p "$subs/ann" "$subs/bob" "$subs/cyd"
cp "$src/labs/01-dram-burst/kernel.cu" "$subs/bob/01.cu"
[ -f "$src/solutions/01-dram-burst/kernel.cu" ] && cp "$src/solutions/01-dram-burst/kernel.cu" "$subs/ann/01.cu"
chmod -R a+rX "$t"

bash "$src/tools/slurm/grade-array.sh" "$subs" "$t/out" --tasks 2 --grader "$build/grade" --labs 01 \
    --time 10 > "$t/array.txt" 2>&1
status=$?
cat "$t/array.txt"
for k in 0 1; do
    grep -q "task $k of 2" "$t/out/task-$k.log" || fail "task $k did not run"
    grep -q "CUDA_VISIBLE_DEVICES=0" "$t/out/task-$k.log" || fail "task $k was given no GPU"
done
if [ "$gpu" = /dev/nvidia0 ]; then
    [ "$status" -eq 0 ] || fail "the array exited $status"
    [ "$("$build/csv-get" "$t/out/gradebook.csv" --rows)" = 3 ] || fail "not 3 rows gathered"
    [ "$("$build/csv-get" "$t/out/gradebook.csv" bob 01 verdict)" = FAIL ] || fail "bob's stub did not fail"
    [ "$("$build/csv-get" "$t/out/gradebook.csv" cyd 01 verdict)" = MISSING ] || fail "cyd's row is not MISSING"
    "$build/grade" --submissions "$subs" --output "$t/direct" --seed 7 -q 01
    [ "$("$build/csv-get" "$t/out/gradebook.csv" --keys | cut -d' ' -f1-3 | sort)" = \
      "$("$build/csv-get" "$t/direct/gradebook.csv" --keys | cut -d' ' -f1-3 | sort)" ] ||
        fail "the array's verdicts differ from one batch's"
else
    [ "$status" -eq 3 ] || fail "the array exited $status, not grade's 3 (no GPU)"
    grep -q "no CUDA GPU was found" "$t/out/task-0.log" || fail "task 0 does not say why it could not grade"
    grep -q "re-run it alone with grade-array.sh ... --only 1" "$t/array.txt" || fail "the failed task is not named"
    # A failed task re-run alone: only its log is written again.
    cp "$t/out/task-0.log" "$t/task-0.before"
    bash "$src/tools/slurm/grade-array.sh" "$subs" "$t/out" --tasks 2 --grader "$build/grade" \
        --labs 01 --time 10 --only 1 > "$t/rerun.txt" 2>&1
    cmp -s "$t/out/task-0.log" "$t/task-0.before" || fail "re-running task 1 ran task 0 too"
    grep -q "task 1 of 2" "$t/out/task-1.log" || fail "task 1 was not re-run"
fi
[ $fails -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $((fails > 0))
