#!/bin/sh
# The red team's table (tests/submissions/README.md): every attack (rt_*.cu) and every honest
# alternative (alt_*.cu) of tests/submissions/, or the files named, graded once with seed 7, one
# row each: what it must get (its "expect:" line; alt_* must PASS) and what it got. The last
# line counts the rows that got what they must.
#     redteam.sh BUILD_DIR [FILE.cu ...]
# Exits 77 (skipped) without a GPU.
set -u
build=$1
shift
cd "$(dirname "$0")/../.." || exit 1
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
grade=$build/grade jget=$build/json-get
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
[ $# -gt 0 ] || set -- tests/submissions/*/rt_*.cu tests/submissions/*/alt_*.cu
good=0 bad=0
printf '%-4s %-28s %-11s %-11s %5s %-12s %7s %7s  %s\n' lab case must got score stage loads stores reason
for f in "$@"; do
    [ -f "$f" ] || continue
    lab=$(basename "$(dirname "$f")" | cut -c1-2) name=$(basename "$f" .cu)
    must=$(sed -n 's|^// expect: *\([A-Z_]*\).*|\1|p' "$f" | head -n 1)
    stages=$(sed -n 's|^// expect-stage: *\([a-z_|]*\).*|\1|p' "$f" | head -n 1)
    case $name in alt_*) must=PASS stages=passed ;; esac
    "$grade" --format json --output "$out/r.json" --seed 7 --kernel "$f" "$lab" >/dev/null 2>"$out/err"
    verdict=$("$jget" "$out/r.json" labs.0.verdict 2>/dev/null | tr ' ' _)
    stage=$("$jget" "$out/r.json" labs.0.stage 2>/dev/null)
    score=$("$jget" "$out/r.json" labs.0.score 2>/dev/null)
    ld=$("$jget" "$out/r.json" labs.0.coalescing.loads.efficiency 2>/dev/null)
    st=$("$jget" "$out/r.json" labs.0.coalescing.stores.efficiency 2>/dev/null)
    reason=$("$jget" "$out/r.json" labs.0.reason 2>/dev/null | cut -c1-150)
    ok=no
    if [ "$verdict" = "${must:-FAIL}" ]; then
        case "|$stages|" in *"|$stage|"*) ok=yes ;; esac
        [ -n "$stages" ] || ok=yes
    fi
    [ $ok = yes ] && good=$((good + 1)) || bad=$((bad + 1))
    printf '%-4s %-28s %-11s %-11s %5s %-12s %7.3f %7.3f  %s%s\n' "$lab" "$name" "${must:-FAIL}" \
        "${verdict:-none}" "${score:--}" "${stage:--}" "${ld:-0}" "${st:-0}" \
        "$([ $ok = yes ] || echo 'UNEXPECTED: ')" "$reason"
done
echo "$good passed, $bad failed"
[ "$bad" -eq 0 ]
