#!/bin/sh
# Renders the handouts into one self-contained HTML workbook: a table of contents, every figure
# embedded, the links between handouts kept (workbook.lua), math as MathML (no network). The
# Markdown stays where it is, readable as it is hosted. Every handout but the instructor guide.
#     tools/workbook/build.sh [OUT.html]        (default: workbook.html here)
# Needs pandoc 2.17 or later; exits 3 without it.
set -eu
out=${1:-workbook.html}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v pandoc >/dev/null ||
    { echo "workbook: pandoc is not installed (Debian, Ubuntu: apt-get install pandoc)" >&2; exit 3; }
# pandoc 2.19 renamed --self-contained to --embed-resources --standalone.
embed=--self-contained
pandoc --help | grep -q -- '--embed-resources' && embed="--embed-resources --standalone"
cd "$top/handouts"
# shellcheck disable=SC2086
pandoc 00-introduction.md 0[1-7]-*.md misconceptions.md beyond.md demo.md appendix.md --standalone $embed --toc --toc-depth=2 \
    --mathml --lua-filter="$top/tools/workbook/workbook.lua" \
    --metadata title="Memory coalescing on the GPU: a lab workbook" --metadata lang=en -o "$out"
echo "workbook: $out ($(wc -c < "$out" | tr -d ' ') bytes)"
