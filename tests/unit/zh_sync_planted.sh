#!/bin/sh
# zh_sync.py can fail: on a copy of the handouts, each mismatch a translation could bring in (a
# number changed, a command changed, a heading dropped, a figure, a fenced block, a missing twin)
# makes it fail, and the untouched copy passes. Skipped (77) without python3.
#     zh_sync_planted.sh SOURCE_DIR
set -u
src=$(cd "$1" && pwd)
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0
sync() { python3 "$src/tests/tools/zh_sync.py" "$t" > "$t/out.txt" 2>&1; }
# A copy of the handouts in a tree whose other files are the real ones (the links' targets).
for f in "$src"/*; do [ "$(basename "$f")" = handouts ] || ln -s "$f" "$t/$(basename "$f")"; done
fresh() { rm -rf "$t/handouts"; cp -R "$src/handouts" "$t/handouts"; }
fresh
sync || { echo "FAIL: the copy of the tree does not pass: $(head -3 "$t/out.txt")"; fails=1; }
zh=$t/handouts/zh/01-dram-burst.md
plant() { # plant NAME SED-SCRIPT: the mismatch must make zh_sync.py fail
    fresh
    sed -i "$2" "$zh"
    if cmp -s "$zh" "$src/handouts/zh/01-dram-burst.md"; then
        echo "FAIL: $1: the plant changed nothing"; fails=$((fails + 1))
    elif sync; then
        echo "FAIL: $1: zh_sync.py passed"; fails=$((fails + 1))
    else
        echo "ok   $1: $(grep -m1 FAIL "$t/out.txt" | cut -c1-110)"
    fi
}
plant "a number"   '0,/带宽为 2417/s//带宽为 2418/'
plant "a command"  '0,/`make -f Makefile.student grade LAB=01`/s//`make grade LAB=01`/'
plant "a heading"  '0,/^## /s//### /'
plant "a figure"   '0,/\.\.\/figures\/zh\/warp-chunked.svg/s//..\/figures\/zh\/sectors-lines.svg/'
plant "a path"     '0,/\.\.\/figures\/zh\/warp-chunked.svg/s//figures\/zh\/warp-chunked.svg/'
plant "a block"    '0,/^```text$/{n;s/$/ /}'
fresh
rm "$zh"
if sync; then echo "FAIL: a missing twin passed"; fails=$((fails + 1)); else echo "ok   a missing twin"; fi
[ $fails -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $((fails > 0))
