#!/bin/sh
# Gradescope's autograder end to end, with a real sshd on 127.0.0.1 standing in for the course's
# GPU machine: make-autograder.sh builds the upload, it is unpacked as Gradescope lays it out
# (AUTOGRADER_ROOT instead of /autograder), and run_autograder grades a submission there. Where
# this machine has a GPU the grade is real (the stub's 40); where it has none, the GPU machine's
# answer is 0 with the grader's own reason. Also: a wrong key, and no GPU machine set up, each
# give 0 and a message that says so. Needs sshd, zip and root (for sshd); skipped (77) without.
#     gradescope.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
sshd=$(command -v sshd || echo /usr/sbin/sshd)
[ -x "$sshd" ] && command -v zip >/dev/null && command -v unzip >/dev/null && [ "$(id -u)" = 0 ] ||
    { echo "needs sshd (openssh-server), zip, unzip and root: skipped"; exit 77; }
t=$(mktemp -d)
cleanup() { [ -s "$t/sshd.pid" ] && kill "$(cat "$t/sshd.pid")" 2>/dev/null; rm -rf "$t"; }
trap cleanup EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
jget=$build/json-get

ssh-keygen -q -t ed25519 -N '' -f "$t/host_key"
ssh-keygen -q -t ed25519 -N '' -f "$t/user_key"
ssh-keygen -q -t ed25519 -N '' -f "$t/other_key"
cp "$t/user_key.pub" "$t/authorized_keys"
port=$((20000 + $$ % 20000))
cat > "$t/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $t/host_key
AuthorizedKeysFile $t/authorized_keys
PidFile $t/sshd.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
EOF
mkdir -p /run/sshd
"$sshd" -f "$t/sshd_config" -E "$t/sshd.log" || { cat "$t/sshd.log"; fail "sshd did not start"; exit 1; }
for _ in $(seq 50); do [ -s "$t/sshd.pid" ] && break; sleep 0.1; done
printf '[127.0.0.1]:%s %s\n' "$port" "$(cut -d' ' -f1,2 "$t/host_key.pub")" > "$t/known_hosts"

# unpack ZIP: a fresh Gradescope layout with it as source/, and a submission of lab 01's stub.
unpack() {
    rm -rf "$t/autograder"
    mkdir -p "$t/autograder/source" "$t/autograder/submission"
    unzip -q "$1" -d "$t/autograder/source"
    cp "$src/labs/01-dram-burst/kernel.cu" "$t/autograder/submission/01-dram-burst.cu"
}
run() { AUTOGRADER_ROOT=$t/autograder bash "$t/autograder/source/run_autograder"; }
results=$t/autograder/results/results.json

bash "$src/tools/gradescope/make-autograder.sh" "$t/ag.zip" --labs 01 --remote "$(id -un)@127.0.0.1" \
    --port "$port" --key "$t/user_key" --known-hosts "$t/known_hosts" --remote-dir "$src" \
    --remote-grader "$build/grade" --course "$src/tools/course.example.yml" ||
    fail "make-autograder failed"
unzip -l "$t/ag.zip" | grep -q ' ssh/id$' || fail "the key is not in the upload"
[ "$(stat -c %a "$t/ag.zip")" = 600 ] || fail "the upload, which holds the key, is readable by others"
# The GPU machine knows the key only by the line make-autograder wrote: a forced command.
grep -q '^restrict,command=".*remote-grade.sh --forced ' "$t/ag.authorized_keys" ||
    fail "no restricted authorized_keys line: $(cat "$t/ag.authorized_keys" 2>/dev/null)"
cp "$t/ag.authorized_keys" "$t/authorized_keys"
# The key can do nothing but grade: a shell command, a path for the course, a lab that is no
# number are refused, and none runs.
for cmd in "cat /etc/hostname" "touch $t/pwned" \
    "$src/tools/gradescope/remote-grade.sh /bin/sh 0 /etc/passwd 01" \
    "$src/tools/gradescope/remote-grade.sh x 0 '' 01;touch\ $t/pwned"; do
    out=$(ssh -i "$t/user_key" -o "UserKnownHostsFile=$t/known_hosts" -o BatchMode=yes -p "$port" \
        "$(id -un)@127.0.0.1" "$cmd" </dev/null 2>&1)
    case $out in
    *"this key"*) ;;
    *) fail "the key ran '$cmd': $out" ;;
    esac
done
[ ! -e "$t/pwned" ] || fail "the key ran a command of its own"
ssh -i "$t/user_key" -o "UserKnownHostsFile=$t/known_hosts" -o BatchMode=yes -p "$port" \
    "$(id -un)@127.0.0.1" -L 12345:127.0.0.1:22 -N -o ExitOnForwardFailure=yes </dev/null 2>/dev/null &
fwd=$!
sleep 1
! (exec 3<>/dev/tcp/127.0.0.1/12345) 2>/dev/null || fail "the key forwards ports"
kill $fwd 2>/dev/null
unzip -l "$t/ag.zip" | grep -q 'edition/labs/01-dram-burst/kernel.cu' || fail "no student edition in the upload"
! unzip -l "$t/ag.zip" | grep -q 'edition/solutions/' || fail "the solutions are in the upload"
unpack "$t/ag.zip"
run
"$jget" "$results" score > /dev/null || fail "results.json does not parse or has no score"
if nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    [ "$("$jget" "$results" score)" = 40 ] || fail "the stub scored $("$jget" "$results" score), not 40"
    "$jget" "$results" tests.1.name | grep -q "lab 01 dram-burst: load coalescing" || fail "no test per part"
else
    [ "$("$jget" "$results" score)" = 0 ] || fail "scored without a GPU"
    "$jget" "$results" output | grep -q "no CUDA GPU was found" ||
        fail "the GPU machine's reason is not shown: $("$jget" "$results" output)"
fi
echo "over SSH: score $("$jget" "$results" score): $("$jget" "$results" output | head -c 200)"
grep -q "^TIMEOUT=540$" "$t/autograder/source/autograder.conf" || fail "no timeout inside Gradescope's"

# A key the GPU machine does not know: 0, and a message to tell the course staff.
bash "$src/tools/gradescope/make-autograder.sh" "$t/bad.zip" --labs 01 --remote "$(id -un)@127.0.0.1" \
    --port "$port" --key "$t/other_key" --known-hosts "$t/known_hosts" --remote-dir "$src" \
    --remote-grader "$build/grade" > /dev/null
unpack "$t/bad.zip"
run
[ "$("$jget" "$results" score)" = 0 ] || fail "a refused key scored"
"$jget" "$results" output | grep -q "could not be reached" || fail "a refused key is not explained"

# No GPU here and no GPU machine: 0, and why.
bash "$src/tools/gradescope/make-autograder.sh" "$t/none.zip" --labs 01 > /dev/null
unpack "$t/none.zip"
if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    run
    [ "$("$jget" "$results" score)" = 0 ] || fail "scored with nothing to grade on"
    "$jget" "$results" output | grep -q "no GPU machine is set up" || fail "no GPU machine: not explained"
fi
! unzip -l "$t/none.zip" | grep -q ' ssh/' || fail "an upload without --remote holds ssh/"

[ $fails -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $((fails > 0))
