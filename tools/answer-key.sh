#!/bin/sh
# The instructor's answer key: every lab handout's Predict section, questions and answers, in
# one Markdown file (for the student edition made with --no-answers, which leaves the answers
# out of the handouts). Run it in the full tree.
#     tools/answer-key.sh [OUT.md]        (default: answer-key.md here)
set -eu
out=${1:-answer-key.md}
top=$(cd "$(dirname "$0")/.." && pwd)
{
    echo "# Answer key: the Predict questions of every lab"
    echo
    echo "Made by \`tools/answer-key.sh\` from the handouts; the numbers are the handouts' own."
    for f in "$top"/handouts/0[1-9]-*.md; do
        title=$(sed -n '1s/^# //p' "$f")
        echo
        echo "## $title"
        # From "## Predict" to the next section, headings one level down, the answers' fold
        # opened.
        awk '/^## / { inside = ($0 == "## Predict"); next }
             inside && ($0 == "<details>" || $0 == "</details>" || $0 ~ /^<summary>/) { next }
             inside { sub(/^### /, "#### "); print }' "$f"
    done
} > "$out"
grep -q . "$out"
echo "answer key: $out ($(grep -c '^## ' "$out") labs)"
