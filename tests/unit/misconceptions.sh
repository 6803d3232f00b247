#!/bin/sh
# Every number the handouts quote from the coalescing model, checked against it: each
# "`grade --model ARGS` → N sectors, E%" in any handout (line breaks and all) is run and must
# print N sectors and E%; and each row of the misconceptions page's simulator table
# (| stride | offset | lines | the simulator's % | sectors | % |) must be what
# 'grade --model --stride S --offset O' prints, the simulator's figure 128 useful bytes over
# lines x 128. A number edited in a handout, or a change to the model, fails here.
#     misconceptions.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0 checked=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
. "$src/tests/unit/model_lib.sh" # model ARGS...
# The quotes: each handout as one line, then every "`grade --model ...` → N sector(s), E%".
for f in "$src"/handouts/*.md; do
    tr '\n' ' ' < "$f" | tr -s ' ' |
        grep -o '`grade --model [^`]*` → [0-9][0-9]* sectors\{0,1\}, [0-9.]*%' |
        sed 's/^`grade --model \([^`]*\)` → \([0-9]*\) sectors\{0,1\}, \([0-9.]*%\)$/\1|\2|\3/' |
        while IFS='|' read -r args sectors eff; do
            # shellcheck disable=SC2086
            got=$(model $args)
            set -- $got
            [ "${1:-}" = "$sectors" ] && [ "${3:-}" = "$eff" ] ||
                echo "FAIL: $(basename "$f"): grade --model $args quoted as $sectors sectors, $eff; it prints $got"
            echo "ok $(basename "$f"): --model $args -> $sectors sectors, $eff"
        done
    # Every arrow after a model command must be read: a quote the pattern above misses (a
    # typo, another form) is a number no one checks.
    arrows=$(tr '\n' ' ' < "$f" | tr -s ' ' | grep -o '`\(build/\)\{0,1\}grade --model [^`]*` \(→\|->\)' | wc -l)
    read_ok=$(tr '\n' ' ' < "$f" | tr -s ' ' |
        grep -o '`grade --model [^`]*` → [0-9][0-9]* sectors\{0,1\}, [0-9.]*%' | wc -l)
    [ "$arrows" = "$read_ok" ] ||
        echo "FAIL: $(basename "$f"): $arrows model quotes with an arrow, $read_ok read as \"\`grade --model ...\` → N sectors, E%\""
done > "$t/quotes.txt"
grep '^FAIL' "$t/quotes.txt"
fails=$((fails + $(grep -c '^FAIL' "$t/quotes.txt")))
quotes=$(grep -c '^ok' "$t/quotes.txt")
# The simulator table.
rows=0
grep '^| [0-9]' "$src/handouts/misconceptions.md" | tr -d ' ' |
    while IFS='|' read -r _ stride offset lines sim sectors eff _; do
        got=$(model --stride "$stride" --offset "$offset")
        set -- $got
        simulated=$(awk -v l="$2" 'BEGIN { printf "%.1f%%", 100 / l }')
        [ "$1 $2 $3 $simulated" = "$sectors $lines $eff $sim" ] ||
            echo "FAIL: misconceptions.md row stride $stride offset $offset: $lines lines $sim, $sectors sectors $eff; the model: $2 lines $simulated, $1 sectors $3"
        echo "row"
    done > "$t/rows.txt"
grep '^FAIL' "$t/rows.txt"
fails=$((fails + $(grep -c '^FAIL' "$t/rows.txt")))
rows=$(grep -c '^row' "$t/rows.txt")
[ "$quotes" -ge 10 ] || fail "only $quotes model quotes found in the handouts"
[ "$rows" -ge 9 ] || fail "only $rows rows in the simulator table"
echo "$quotes model quotes and $rows table rows checked against grade --model"
[ $fails -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $((fails > 0))
