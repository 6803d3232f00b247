#!/bin/sh
# Every mutant submission still stands for the kernel it says: each NAME.patch applies, with no
# fuzz, to the stub or solution it names, and compiles; each NAME.cu and NAME.patch begins by
# saying what it does. Runs on every machine (no GPU needed); the GPU tests grade them.
#     submissions.sh SOURCE_DIR NVCC ARCH
set -u
src=$1 nvcc=$2 arch=$3
[ -d "$src/tests/submissions" ] || { echo "no tests/submissions/ (a student edition): skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
for m in "$src"/tests/submissions/[0-9][0-9]-*/*.cu "$src"/tests/submissions/[0-9][0-9]-*/*.patch; do
    [ -e "$m" ] || continue
    lab=$(basename "$(dirname "$m")")
    name=$(basename "$m")
    if ! head -n 1 "$m" | grep -Eq '^(// )?(Mutant|Not a failing mutant|Alternative solution)'; then
        echo "FAIL $lab/$name: its first line must say what the mutant does"
        fails=$((fails + 1))
    fi
    case $name in *.cu) continue ;; esac
    out=$tmp/${name%.patch}.cu
    if ! sh "$src/tests/submissions/apply.sh" "$m" "$out"; then
        echo "FAIL $lab/$name: does not apply"
        fails=$((fails + 1))
    elif ! "$nvcc" -arch="$arch" -c -I"$src/labs/$lab" -o "$tmp/m.o" "$out" > "$tmp/log" 2>&1; then
        echo "FAIL $lab/$name: applies but does not compile:"; sed 's/^/    /' "$tmp/log" | head -20
        fails=$((fails + 1))
    else
        echo "ok   $lab/$name"
    fi
done
exit $((fails > 0))
