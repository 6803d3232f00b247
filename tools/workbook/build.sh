#!/bin/sh
# Renders the handouts into one self-contained HTML workbook: a table of contents, every figure
# embedded, the links between handouts kept (workbook.lua), math as MathML (no network). The
# Markdown stays where it is, readable as it is hosted. Every handout but the instructor guide.
#     tools/workbook/build.sh [--lang zh] [OUT.html]   (default: workbook.html here)
# With --lang zh, the Chinese twins of handouts/zh/ and the glossary.
# Needs pandoc 2.17 or later; exits 3 without it.
set -eu
lang=en
[ "${1:-}" = --lang ] && { lang=$2; shift 2; }
case $lang in en | zh) ;; *) echo "workbook: --lang is en or zh" >&2; exit 2 ;; esac
out=${1:-workbook.html}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
top=$(cd "$(dirname "$0")/../.." && pwd)
command -v pandoc >/dev/null ||
    { echo "workbook: pandoc is not installed (Debian, Ubuntu: apt-get install pandoc)" >&2; exit 3; }
# pandoc 2.19 renamed --self-contained to --embed-resources --standalone.
embed=--self-contained
pandoc --help | grep -q -- '--embed-resources' && embed="--embed-resources --standalone"
cd "$top/handouts"
pages="00-introduction.md 01-dram-burst.md 02-stride.md 03-row-col-major.md 04-matmul.md
       05-corner-turning.md 06-aos-soa.md 07-pitch-padding.md misconceptions.md beyond.md demo.md
       appendix.md"
if [ "$lang" = zh ]; then
    # The Chinese twins (handouts/zh/), their figures and links resolved from there.
    # shellcheck disable=SC2086
    pandoc $(for p in $pages; do echo "zh/$p"; done) zh/glossary.md --resource-path=zh \
        --standalone $embed --toc --toc-depth=2 --mathml \
        --lua-filter="$top/tools/workbook/workbook.lua" \
        --metadata title="GPU 上的内存合并访问：实验讲义" --metadata lang=zh-CN \
        --metadata toc-title="目录" -o "$out"
else
    # shellcheck disable=SC2086
    pandoc $pages --standalone $embed --toc --toc-depth=2 --mathml \
        --lua-filter="$top/tools/workbook/workbook.lua" \
        --metadata title="Memory coalescing on the GPU: a lab workbook" --metadata lang=en -o "$out"
fi
echo "workbook: $out ($(wc -c < "$out" | tr -d ' ') bytes)"
