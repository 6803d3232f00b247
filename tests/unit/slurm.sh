#!/bin/sh
# The Slurm recipe (tools/slurm/) on a real single-node Slurm that this test starts itself
# (munged, slurmctld, slurmd from Debian's packages, installed or unpacked anywhere: the GPU
# machine gets them through .devdeps; the GPU listed by hand in gres.conf: the real
# /dev/nvidia0 where there is one, /dev/null standing in for it elsewhere). Two array tasks with
# one GPU each. With a GPU: every row graded, the same verdicts as one 'grade --submissions'
# run. Without: the scheduling path alone, each task saying why it could not grade, and a
# failed task re-run alone. Needs root and the packages (slurmctld slurmd slurm-client munge);
# skipped (77) without.
#     slurm.sh SOURCE_DIR BUILD_DIR
# Three submissions of lab 01 of its own; or, with a GPU, a folder graded before (tests/gpu/batch.sh):
#     slurm.sh SOURCE_DIR BUILD_DIR SUBMISSIONS GRADEBOOK "LAB..."
# the array's gradebook must then hold GRADEBOOK's rows with their verdicts.
set -u
src=$1 build=$2 given=${3:-} expected=${4:-} labs=${5:-01}
# Where a tool is: on PATH, in /usr/sbin, or in the sbin beside sbatch's bin (a tree unpacked
# with dpkg -x, where the daemons keep their Debian names, slurmctld-wlm, with no alternatives
# link).
where() {
    command -v "$1" 2>/dev/null && return
    for d in /usr/sbin "$(dirname "$(command -v sbatch 2>/dev/null || echo /none/bin/sbatch)")/../sbin"; do
        for f in "$d/$1" "$d/$1-wlm"; do
            [ -x "$f" ] && { echo "$f"; return; }
        done
    done
    return 1
}
for tool in slurmctld slurmd slurmstepd munged sbatch; do
    where "$tool" >/dev/null || { echo "no $tool: skipped"; exit 77; }
done
[ "$(id -u)" = 0 ] || { echo "needs root to start Slurm: skipped"; exit 77; }
[ -x "$build/csv-get" ] || { echo "built without batch grading: skipped"; exit 77; }
ctld=$(where slurmctld) slurmd=$(where slurmd) stepd=$(where slurmstepd) munged=$(where munged)
plugins=$(cd "$(dirname "$ctld")/../lib/x86_64-linux-gnu/slurm-wlm" 2>/dev/null && pwd) ||
    { echo "no slurm-wlm plugin folder beside $ctld: skipped"; exit 77; }
# Unpacked, the packages' libraries are in the tree's usr/lib and, for some (libdbus), its lib.
libs=$plugins
top=$(cd "$(dirname "$ctld")/../.." && pwd)
[ "$top" != / ] && [ -d "$top/lib/x86_64-linux-gnu" ] && libs=$libs:$top/lib/x86_64-linux-gnu
missing=$(LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} ldd "$ctld" "$slurmd" \
    "$stepd" "$munged" "$plugins"/auth_munge.so "$plugins"/select_cons_tres.so \
    "$plugins"/gres_gpu.so "$plugins"/cgroup_v2.so 2>/dev/null | awk '/not found/ { print $1 }' | sort -u | tr '\n' ' ')
[ -z "$missing" ] || { echo "Slurm's libraries missing here ($missing): skipped"; exit 77; }
pgrep -x slurmctld >/dev/null && { echo "a slurmctld runs already: skipped"; exit 77; }
t=$(mktemp -d)
chmod 755 "$t"
# Slurm's plugins and library, found from its binaries (unpacked elsewhere than /usr, they are
# not where Slurm was built to look). A daemon knows itself by the name it was started as: the
# Debian names (slurmd-wlm) are started through links with the plain ones.
export LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir "$t/bin"
ln -s "$ctld" "$t/bin/slurmctld" && ln -s "$slurmd" "$t/bin/slurmd" && ln -s "$stepd" "$t/bin/slurmstepd"
ctld=$t/bin/slurmctld slurmd=$t/bin/slurmd stepd=$t/bin/slurmstepd
stop() { # and wait for the daemons to be gone, so that a Slurm started next finds none
    pids=
    for p in "$t/slurmd.pid" "$t/slurmctld.pid" "$t/munge/munged.pid"; do
        pid=$(cat "$p" 2>/dev/null) && [ -n "$pid" ] && kill "$pid" 2>/dev/null && pids="$pids $pid"
    done
    for _ in $(seq 50); do
        alive=0
        for pid in $pids; do kill -0 "$pid" 2>/dev/null && alive=1; done
        [ $alive = 0 ] && break
        sleep 0.2
    done
    rm -rf "$t"
}
trap stop EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
host=$(hostname -s)
gpu=/dev/null
nvidia-smi -L 2>/dev/null | grep -q '^GPU' && gpu=/dev/nvidia0

# munge with a key and a socket of this test's: as its own user where there is one, else as
# root (which munged allows with --force)
mkdir -p "$t/munge"
dd if=/dev/urandom of="$t/munge/munge.key" bs=1024 count=1 2>/dev/null && chmod 600 "$t/munge/munge.key"
margs="--socket=$t/munge/munge.socket --pid-file=$t/munge/munged.pid --log-file=$t/munge/munged.log --seed-file=$t/munge/seed --key-file=$t/munge/munge.key"
if id munge >/dev/null 2>&1; then
    chown -R munge "$t/munge"
    su -s /bin/sh munge -c "$munged $margs"
else
    # shellcheck disable=SC2086
    "$munged" $margs --force
fi || { fail "munged did not start"; cat "$t/munge/munged.log"; exit 1; }
mkdir -p "$t/spool/ctld" "$t/spool/d"
cat > "$t/slurm.conf" <<CONF
ClusterName=lab
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$t/munge/munge.socket
MpiDefault=none
MailProg=/bin/true
PluginDir=$plugins
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
# No cgroup plugin is used above, but slurmd (22.05) loads one as it starts: the default,
# autodetect, takes cgroup/v2 on a host with cgroup2 alone, and its start needs systemd's dbus,
# which a container lacks ("Unable to initialize cgroup plugin"). cgroup/v1 touches nothing
# until a plugin asks, and its mount point here is a folder of the test's own.
mkdir -p "$t/cgroup"
printf 'CgroupPlugin=cgroup/v1\nCgroupMountpoint=%s\n' "$t/cgroup" > "$t/cgroup.conf"
export SLURM_CONF=$t/slurm.conf
"$ctld" || { fail "slurmctld did not start"; cat "$t/slurmctld.log"; exit 1; }
"$slurmd" -d "$stepd" || { fail "slurmd did not start"; cat "$t/slurmd.log"; exit 1; }
for _ in $(seq 60); do sinfo -h -o %T 2>/dev/null | grep -q idle && break; sleep 0.5; done
sinfo -h -o '%P %T %G' | grep -q 'idle gpu:1' ||
    { fail "the node is not idle with its GPU: $(sinfo -h -o '%P %T %G')"; grep -ih "error\|gres" "$t/slurmd.log" "$t/slurmctld.log" | tail -12; exit 1; }

if [ -n "$given" ]; then
    # A folder graded before: the array must give the same rows, the same verdicts.
    [ "$gpu" = /dev/nvidia0 ] || { echo "a given folder needs a GPU: skipped"; exit 77; }
    start=$(date +%s)
    # shellcheck disable=SC2086
    bash "$src/tools/slurm/grade-array.sh" "$given" "$t/out" --tasks 2 --grader "$build/grade" \
        --labs "$labs" --time 30 > "$t/array.txt" 2>&1
    status=$?
    tail -3 "$t/array.txt"
    echo "the array: $(($(date +%s) - start)) s for $(ls "$given" | wc -l) submissions, exit $status"
    [ "$status" -eq 0 ] || { fail "the array exited $status"; cat "$t/out"/task-*.log | tail -20; }
    got=$("$build/csv-get" "$t/out/gradebook.csv" --rows) want=$("$build/csv-get" "$expected" --rows)
    [ "$got" = "$want" ] || fail "the array gathered $got rows, the batch $want"
    "$build/csv-get" "$t/out/gradebook.csv" --keys | cut -d' ' -f1-3 | sort > "$t/array.keys"
    "$build/csv-get" "$expected" --keys | cut -d' ' -f1-3 | sort > "$t/batch.keys"
    cmp -s "$t/array.keys" "$t/batch.keys" ||
        { fail "the array's verdicts differ from the batch's"; diff "$t/batch.keys" "$t/array.keys"; }
    [ $fails -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
    exit $((fails > 0))
fi

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
# Gradescope's remote grading as a Slurm job (remote-grade.sh with SLURM=1, as run_autograder
# calls it over SSH): ann's submission as the .tar.gz it sends.
tar -C "$subs/ann" -czf - . |
    bash "$src/tools/gradescope/remote-grade.sh" "$build/grade" 1 "" 01 > "$t/gs.json" 2> "$t/gs.err"
gs=$?
if [ "$gpu" = /dev/nvidia0 ]; then
    want=100
    [ -f "$subs/ann/01.cu" ] || want=0 # a student edition: no solution to hand in
    [ $gs -eq 0 ] && [ "$("$build/json-get" "$t/gs.json" score)" = $want ] ||
        { fail "Gradescope through Slurm: exit $gs, score $("$build/json-get" "$t/gs.json" score 2>&1)"; cat "$t/gs.err"; }
else
    [ $gs -ne 0 ] && grep -q "no CUDA GPU was found" "$t/gs.err" ||
        { fail "Gradescope through Slurm without a GPU: exit $gs, $(head -c 300 "$t/gs.err")"; }
fi
echo "Gradescope's remote grading through sbatch --wait: exit $gs, $(head -c 120 "$t/gs.err")"
[ $gs -eq 0 ] && echo "its results.json: $(head -c 300 "$t/gs.json")"
[ $fails -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $((fails > 0))
