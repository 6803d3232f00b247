#!/bin/sh
# The live demo (handouts/demo/) in a real browser, headless Chromium. Its model is built afresh
# from common/coalesce.c (tools/demo/build.sh) and must be the one committed beside the page.
# For a table of inputs the page shows the sectors, lines and efficiency that 'grade --model'
# prints, and refuses what it refuses; the layout view's warp is the model's stride; the
# bandwidth view draws every row of the explore tables; the report view draws the blamed warp of
# a report. With SHOTS=DIR, a screenshot of each view is saved there.
# Skipped (77) without clang and headless Chromium (chromium-headless-shell, or chromium).
#     demo.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
browser=$(command -v chromium-headless-shell || command -v chromium) ||
    { echo "no headless Chromium: skipped"; exit 77; }
command -v clang >/dev/null && command -v wasm-ld >/dev/null || { echo "no clang/wasm-ld: skipped"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cp "$src/handouts/demo/index.html" "$src/handouts/demo/demo.js" "$t/"
sh "$src/tools/demo/build.sh" "$t" >/dev/null || { echo "FAIL: the model did not build"; exit 1; }
cmp -s "$t/coalesce-wasm.js" "$src/handouts/demo/coalesce-wasm.js" ||
    fail "handouts/demo/coalesce-wasm.js is not what tools/demo/build.sh makes now: run it"
page() { # QUERY: the page's result element after its scripts ran
    "$browser" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
        --virtual-time-budget=5000 --dump-dom "file://$t/index.html?$1" 2>/dev/null |
        grep -o '<output id="cd-result"[^>]*>[^<]*'
}
attr() { # NAME RESULT
    echo "$2" | grep -o " data-$1=\"[^\"]*\"" | sed 's/.*="//; s/"$//'
}
. "$src/tests/unit/model_lib.sh" # model ARGS...
compare() { # QUERY MODEL-ARGS...
    query=$1
    shift
    r=$(page "$query")
    want=$(model "$@" | sed "s/%$//") # the page writes the efficiency without its %
    if [ "$(attr status "$r")" -ge 100 ] 2>/dev/null; then got=refused
    else got="$(attr sectors "$r") $(attr lines "$r") $(attr efficiency "$r")"; fi
    [ "$got" = "$want" ] || fail "?$query: the page says '$got', grade --model $* '$want'"
    echo "  ?$query -> $got"
    cases=$((cases + 1))
}
cases=0
echo "the page against grade --model:"
while read -r size stride offset active; do
    compare "view=uncoalesced&size=$size&stride=$stride&offset=$offset&active=$active" \
        --size "$size" --stride "$stride" --offset "$offset" --active "$active"
done <<'CASES'
4 4 0 0xffffffff
4 8 0 0xffffffff
4 128 0 0xffffffff
4 4 4 0xffffffff
4 0 0 0xffffffff
4 -4 0 0xffffffff
2 2 0 0x0000ffff
1 1 0 0xffffffff
8 8 0 0xffffffff
8 8 4 0xffffffff
16 16 0 0xffffffff
16 32 16 0x55555555
4 4096 0 0x00000001
CASES
compare "view=layout&rows=1024&major=column" --size 4 --stride 4096
compare "view=layout&rows=1024&major=row" --size 4 --stride 4
compare "view=coalesced" --size 4 --stride 4

# The page's numbers are the WebAssembly model's, not its own: built from a model made wrong on
# purpose (one sector more a request), the same page must show the wrong count.
wrong=$t/wrong
mkdir -p "$wrong/common" "$wrong/tools/demo" "$wrong/handouts/figures"
cp "$src"/common/coalesce.[ch] "$wrong/common/" && cp -r "$src/tools/demo/." "$wrong/tools/demo/"
cp "$src"/handouts/figures/explore-0[12]-h200.csv "$wrong/handouts/figures/"
sed -i 's/out->sectors = sectors.count;/out->sectors = sectors.count + 1;/' "$wrong/common/coalesce.c"
sh "$wrong/tools/demo/build.sh" "$wrong/page" >/dev/null &&
    cp "$t/index.html" "$t/demo.js" "$wrong/page/" || fail "the wrong model did not build"
r=$("$browser" --headless --no-sandbox --disable-gpu --virtual-time-budget=5000 --dump-dom \
    "file://$wrong/page/index.html?view=coalesced" 2>/dev/null | grep -o '<output id="cd-result"[^>]*>')
[ "$(attr sectors "$r")" = 5 ] ||
    fail "with a model that adds a sector the page still shows $(attr sectors "$r"): its numbers are not the model's"
echo "  a model made wrong on purpose -> the page shows $(attr sectors "$r") sectors for 4"

r=$(page "view=bandwidth")
rows=$(( $(wc -l < "$src/handouts/figures/explore-01-h200.csv") + $(wc -l < "$src/handouts/figures/explore-02-h200.csv") - 2 ))
[ "$(attr bars "$r")" = "$rows" ] || fail "the bandwidth view drew $(attr bars "$r") bars of $rows rows"
echo "  ?view=bandwidth -> $(attr bars "$r") bars"

# A report as 'grade --format json' writes it (test_report checks the keys): lanes 64 bytes apart.
addresses=$(awk 'BEGIN { for (l = 0; l < 32; l++) printf "%s%.0f", l ? "," : "", 139637976727552 + 64 * l }')
printf '{"labs":[{"id":"01","coalescing":{"trace":{"worst":{"file":"labs/01-dram-burst/kernel.cu","line":30,"op":"load","source":"y[i] = a * x[i];","size":4,"active":4294967295,"addresses":[%s]}}}}]}\n' \
    "$addresses" > "$t/report.json"
r=$(page "view=report&report=file://$t/report.json")
want=$(model --size 4 --stride 64 | sed "s/%$//")
got="$(attr sectors "$r") $(attr lines "$r") $(attr efficiency "$r")"
[ "$got" = "$want" ] || fail "the report view says '$got', grade --model --stride 64 '$want'"
echo "$r" | grep -q "kernel.cu:30" || fail "the report view does not name the line"
echo "  ?view=report -> $got"

if [ -n "${SHOTS:-}" ]; then
    mkdir -p "$SHOTS"
    for view in coalesced uncoalesced layout bandwidth "report&report=file://$t/report.json"; do
        name=${view%%&*}
        "$browser" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
            --virtual-time-budget=5000 --window-size=1000,560 --screenshot="$SHOTS/$name.png" \
            "file://$t/index.html?view=$view" >/dev/null 2>&1 || fail "no screenshot of $name"
    done
    echo "screenshots in $SHOTS"
fi
echo "$cases inputs compared with grade --model"
[ $fails -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $((fails > 0))
