#!/bin/sh
# Every lab's stub and solution must be the same file outside the STUDENT markers, and each
# must have exactly one student region. Runs on every machine.
#     student_regions.sh SOURCE_DIR
set -u
src=$1
fails=0
[ -d "$src/solutions" ] || { echo "no solutions/ (a student edition): skipped"; exit 77; }
outside() { sed '/STUDENT BEGIN/,/STUDENT END/d' "$1"; }
for stub in "$src"/labs/*/kernel.cu; do
    lab=$(basename "$(dirname "$stub")")
    sol=$src/solutions/$lab/kernel.cu
    for f in "$stub" "$sol"; do
        b=$(grep -c 'STUDENT BEGIN' "$f" 2>/dev/null)
        e=$(grep -c 'STUDENT END' "$f" 2>/dev/null)
        [ "$b" = 1 ] && [ "$e" = 1 ] || { echo "FAIL $f: needs one STUDENT BEGIN/END pair"; fails=$((fails + 1)); }
    done
    if [ "$(outside "$stub")" = "$(outside "$sol")" ]; then
        echo "ok   $lab: stub and solution agree outside the student region"
    else
        echo "FAIL $lab: stub and solution differ outside the student region:"
        outside "$stub" > /tmp/stub.$$; outside "$sol" > /tmp/sol.$$
        diff /tmp/stub.$$ /tmp/sol.$$ | head -20; rm -f /tmp/stub.$$ /tmp/sol.$$
        fails=$((fails + 1))
    fi
done
exit $((fails > 0))
