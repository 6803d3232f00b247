#!/bin/sh
# The instructor's answer key: every lab handout's Predict section, questions and answers, in
# one Markdown file (for the student edition made with --no-answers, which leaves the answers
# out of the handouts). Run it in the full tree.
#     tools/answer-key.sh [--lang zh] [OUT.md]   (default: answer-key.md here; zh: handouts/zh/)
set -eu
lang=en
[ "${1:-}" = --lang ] && { lang=$2; shift 2; }
out=${1:-answer-key.md}
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/handouts predict="## Predict"
title_line="# Answer key: the Predict questions of every lab"
made="Made by \`tools/answer-key.sh\` from the handouts; the numbers are the handouts' own."
if [ "$lang" = zh ]; then
    dir=$top/handouts/zh predict="## 预测"
    title_line="# 答案集：各实验的预测题"
    made="由 \`tools/answer-key.sh --lang zh\` 从中文讲义生成；其中的数字都来自讲义本身。"
fi
{
    echo "$title_line"
    echo
    echo "$made"
    for f in "$dir"/0[1-9]-*.md; do
        title=$(sed -n '/^# /{s/^# //p;q}' "$f")
        echo
        echo "## $title"
        # From the Predict section to the next section, headings one level down, the answers'
        # fold opened (the Chinese handouts' anchors left out).
        awk -v predict="$predict" '/^<a id=/ { next }
             /^## / { inside = ($0 == predict); next }
             inside && ($0 == "<details>" || $0 == "</details>" || $0 ~ /^<summary>/) { next }
             inside { sub(/^### /, "#### "); print }' "$f"
    done
} > "$out"
grep -q . "$out"
echo "answer key: $out ($(grep -c '^## ' "$out") labs)"
