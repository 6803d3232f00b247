#!/bin/sh
# The live demo (handouts/demo/) in a real browser, headless Chromium. Its model is built afresh
# from common/coalesce.c (tools/demo/build.sh) and must be the one committed beside the page.
# For a table of inputs the page shows the sectors, lines and efficiency that 'grade --model'
# prints, and refuses what it refuses; the layout view's warp is the model's stride; the
# bandwidth view draws every row of the explore tables; the report view draws the blamed warp of
# a report. In Chinese (?lang=zh, or a page of <html lang="zh-CN">) the same numbers, its words
# Chinese; every message of demo.js translated in po/demo-zh_CN.po, and the catalogue made from
# it (handouts/demo/demo-catalogue.js) the one committed. With SHOTS=DIR, a screenshot of each
# view is saved there, NAME.png in English and zh-NAME.png in Chinese.
# Skipped (77) without clang, gettext and headless Chromium (chromium-headless-shell, or
# chromium).
#     demo.sh SOURCE_DIR BUILD_DIR
set -u
src=$1 build=$2
browser=$(command -v chromium-headless-shell || command -v chromium) ||
    { echo "no headless Chromium: skipped"; exit 77; }
command -v clang >/dev/null && command -v wasm-ld >/dev/null || { echo "no clang/wasm-ld: skipped"; exit 77; }
for tool in xgettext msgmerge msgattrib msgfmt; do
    command -v $tool >/dev/null || { echo "no $tool (gettext): skipped"; exit 77; }
done
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
cp "$src/handouts/demo/index.html" "$src/handouts/demo/demo.js" "$t/"
sh "$src/tools/demo/build.sh" "$t" >/dev/null || { echo "FAIL: the model did not build"; exit 1; }
cmp -s "$t/coalesce-wasm.js" "$src/handouts/demo/coalesce-wasm.js" ||
    fail "handouts/demo/coalesce-wasm.js is not what tools/demo/build.sh makes now: run it"
cmp -s "$t/demo-catalogue.js" "$src/handouts/demo/demo-catalogue.js" ||
    fail "handouts/demo/demo-catalogue.js is not what tools/demo/build.sh makes now from po/demo-*.po: run it"

# Every message of demo.js has its Chinese, none empty or fuzzy (after demo.js changes: the
# xgettext and msgmerge lines at the top of po/demo-zh_CN.po).
xgettext --language=JavaScript --keyword=_ --from-code=UTF-8 -o "$t/demo.pot" \
    "$src/handouts/demo/demo.js" || fail "xgettext could not read handouts/demo/demo.js"
messages=$(($(grep -c '^msgid ' "$t/demo.pot") - 1))
sh "$src/po/complete.sh" "$t/demo.pot" "$src/po/demo-zh_CN.po" "messages of demo.js" ||
    fails=$((fails + 1))
echo "$messages messages of demo.js, every one translated in po/demo-zh_CN.po"

dom() { # FILE QUERY: the page's DOM after its scripts ran
    "$browser" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
        --virtual-time-budget=5000 --dump-dom "file://$t/$1?$2" 2>/dev/null
}
page() { # QUERY: the page's result element after its scripts ran (its DOM kept in $t/dom.html)
    dom index.html "$1" > "$t/dom.html"
    grep -o '<output id="cd-result"[^>]*>[^<]*' "$t/dom.html"
}
words() { # ZH|EN: whether every text of the last page ($t/dom.html) is in Chinese (ZH) or none
          # is (EN): its heading, buttons, explanation, inputs' labels, result and the labels of
          # its figure (those with words: not the numbers of the bars, not report.json)
    grep -o '<h1[^>]*>[^<]*\|<button[^>]*>[^<]*\|<p id="cd-text">[^<]*\|<label[^>]*>[^<]*\|<option value=[^>]*>[^<]*\|<output id="cd-result"[^>]*>[^<]*\|<text[^>]*class="cd-label"[^>]*>[^<]*' \
        "$t/dom.html" | sed 's/^<[^>]*>//' | python3 -c '
import re, sys
cjk = lambda t: any("\u4e00" <= c <= "\u9fff" for c in t)
texts = [t for t in sys.stdin.read().split("\n")
         if (cjk(t) or re.search("[A-Za-z]{2}", t)) and t.strip() != "report.json"]
zh = [cjk(t) for t in texts]
sys.exit(0 if texts and (all(zh) if sys.argv[1] == "ZH" else not any(zh)) else 1)' "$1"
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
    case $query in
    lang=zh*) words ZH || fail "?$query: not all its words are Chinese" ;;
    *) words EN || fail "?$query: Chinese words on the English page" ;;
    esac
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
echo "the page in Chinese against grade --model:"
while read -r size stride offset active; do
    compare "lang=zh&view=uncoalesced&size=$size&stride=$stride&offset=$offset&active=$active" \
        --size "$size" --stride "$stride" --offset "$offset" --active "$active"
done <<'CASES'
4 4 0 0xffffffff
4 128 0 0xffffffff
8 8 4 0xffffffff
4 -4 0 0xffffffff
16 32 16 0x55555555
CASES
compare "lang=zh&view=layout&rows=1024&major=column" --size 4 --stride 4096
# The language of a page in Chinese, with no ?lang=, and ?lang=en before it.
sed 's/<html lang="en">/<html lang="zh-CN">/' "$t/index.html" > "$t/index-zh.html"
dom index-zh.html "view=uncoalesced" > "$t/dom.html"
words ZH || fail "a page of <html lang=\"zh-CN\"> does not show the demo in Chinese"
dom index-zh.html "lang=en&view=uncoalesced" > "$t/dom.html"
words EN || fail "?lang=en on a Chinese page is not English"
echo "  <html lang=\"zh-CN\"> -> Chinese, and with ?lang=en English"

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
r=$(page "lang=zh&view=bandwidth")
[ "$(attr bars "$r")" = "$rows" ] || fail "the Chinese bandwidth view drew $(attr bars "$r") bars of $rows rows"
words ZH || fail "?lang=zh&view=bandwidth: not all its words are Chinese"
echo "  ?lang=zh&view=bandwidth -> $(attr bars "$r") bars"

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
r=$(page "lang=zh&view=report&report=file://$t/report.json")
zgot="$(attr sectors "$r") $(attr lines "$r") $(attr efficiency "$r")"
[ "$zgot" = "$want" ] || fail "the Chinese report view says '$zgot', grade --model --stride 64 '$want'"
echo "$r" | grep -q "kernel.cu:30" || fail "the Chinese report view does not name the line"
words ZH || fail "?lang=zh&view=report: not all its words are Chinese"
echo "  ?lang=zh&view=report -> $zgot"

if [ -n "${SHOTS:-}" ]; then
    mkdir -p "$SHOTS"
    for view in coalesced uncoalesced layout bandwidth "report&report=file://$t/report.json"; do
        name=${view%%&*}
        "$browser" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
            --virtual-time-budget=5000 --window-size=1000,560 --screenshot="$SHOTS/$name.png" \
            "file://$t/index.html?view=$view" >/dev/null 2>&1 || fail "no screenshot of $name"
        "$browser" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
            --virtual-time-budget=5000 --window-size=1000,560 --screenshot="$SHOTS/zh-$name.png" \
            "file://$t/index.html?lang=zh&view=$view" >/dev/null 2>&1 || fail "no screenshot of zh-$name"
    done
    echo "screenshots in $SHOTS"
fi
echo "$cases inputs compared with grade --model"
[ $fails -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $((fails > 0))
