#!/bin/sh
# The HTML workbook (tools/workbook/build.sh): it renders, its table of contents lists every
# handout, every internal link lands on an identifier of the page, no link points at a Markdown
# file, every figure is embedded (a data: URI), none left out, and, where headless Chromium is,
# the live demo runs in it and the workbook prints to a PDF (tools/workbook/pdf.sh) with its
# pages, outline and links. Skipped (77) without pandoc.
#     workbook.sh SOURCE_DIR
set -u
src=$1
command -v pandoc >/dev/null || { echo "no pandoc: skipped"; exit 77; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
# check_page HTML DIR WHAT: every internal link lands on an identifier of the page, none points
# at a Markdown file, every figure of DIR's handouts is embedded, each handout has its place;
# sets toc, links, broken, embedded and figures for the summary line.
check_page() {
    page=$1 dir=$2 what=$3
    grep -o 'id="[^"]*"' "$page" | sed 's/^id="//; s/"$//' | sort -u > "$t/ids"
    grep -o 'href="#[^"]*"' "$page" | sed 's/^href="#//; s/"$//' | sort -u > "$t/links"
    broken=$(comm -23 "$t/links" "$t/ids")
    links=$(wc -l < "$t/links")
    [ -z "$broken" ] || fail "$what: internal links with no target: $(echo "$broken" | tr '\n' ' ')"
    md=$(grep -o 'href="[^"#:]*\.md[^"]*"' "$page" | sort -u)
    [ -z "$md" ] || fail "$what: links to Markdown files: $(echo "$md" | tr '\n' ' ')"
    # Figures as pandoc reads them, the instructor's guide left out (not the students' page).
    figures=$(cd "$dir" && pandoc $(ls *.md | grep -v '^instructor-guide.md$') -t json | grep -o '"t":"Image"' | wc -l)
    embedded=$(grep -o '<img[^>]*src="data:[^"]*"' "$page" | wc -l)
    other=$(grep -o '<img[^>]*>' "$page" | grep -vc 'src="data:')
    [ "$embedded" -eq "$figures" ] || fail "$what: $embedded figures embedded, the handouts have $figures"
    [ "$other" -eq 0 ] || fail "$what: $other figures not embedded"
    toc=$(sed -n '/<nav id="TOC"/,/<\/nav>/p' "$page" | grep -c '<a href="#')
    for f in "$dir"/*.md; do
        id=$(basename "$f" .md)
        [ "$id" = instructor-guide ] && continue
        grep -q "id=\"$id\"" "$page" || fail "$what: no place for $id.md"
    done
}
html=$t/workbook.html
sh "$src/tools/workbook/build.sh" "$html" || { echo "FAIL: the workbook did not render"; exit 1; }
check_page "$html" "$src/handouts" "the workbook"
[ "$toc" -gt 20 ] || fail "the table of contents has $toc entries"
# The live demo runs inside the page too (its scripts embedded), where there is a browser.
browser=$(command -v chromium-headless-shell || command -v chromium || true)
if [ -n "$browser" ]; then
    "$browser" --headless --no-sandbox --disable-gpu --virtual-time-budget=5000 --dump-dom \
        "file://$html" 2>/dev/null | grep -q '<output id="cd-result" data-status="0" data-sectors="4"' ||
        fail "the demo does not run in the workbook"
    # The PDF (tools/workbook/pdf.sh): pages, the headings as its outline (every lab's "Expected
    # output" among them), the links kept.
    pdf=$t/workbook.pdf
    if sh "$src/tools/workbook/pdf.sh" "$pdf" > "$t/pdf.log" 2>&1; then
        pages=$(grep -a -c '/Type /Page\b' "$pdf")
        outline=$(grep -a -c '/Title (' "$pdf")
        labs=$(grep -a -c '/Title (Expected output' "$pdf")
        links=$(grep -a -c '/Subtype /Link' "$pdf")
        [ "$pages" -ge 60 ] || fail "the PDF has $pages pages"
        [ "$outline" -gt "$toc" ] || fail "the PDF's outline has $outline entries, the contents $toc"
        [ "$labs" -eq 7 ] || fail "the PDF's outline has $labs labs' Expected output, not 7"
        [ "$links" -ge 100 ] || fail "the PDF kept $links links"
        echo "workbook.pdf: $(wc -c < "$pdf" | tr -d ' ') bytes, $pages pages, $outline outline entries, $links links"
    else
        fail "the PDF did not print: $(tail -2 "$t/pdf.log")"
    fi
fi
echo "workbook: $(wc -c < "$html" | tr -d ' ') bytes, $toc contents entries, $links internal link targets ($(echo "$broken" | grep -c .) broken), $embedded of $figures figures embedded"
# The Chinese workbook (handouts/zh/): the same checks of its links and figures, every twin in it.
en_toc=$toc
zh=$t/workbook-zh.html
if sh "$src/tools/workbook/build.sh" --lang zh "$zh" > "$t/zh.log" 2>&1; then
    grep -q 'not found in resource path' "$t/zh.log" && fail "Chinese workbook: $(grep 'not found' "$t/zh.log" | head -3 | tr '\n' ' ')"
    check_page "$zh" "$src/handouts/zh" "the Chinese workbook"
    [ "$toc" -gt "$en_toc" ] || fail "the Chinese workbook: $toc contents entries, the English $en_toc (and its glossary)"
    echo "workbook-zh: $(wc -c < "$zh" | tr -d ' ') bytes, $toc contents entries, $links internal link targets ($(echo "$broken" | grep -c .) broken), $embedded of $figures figures embedded"
else
    fail "the Chinese workbook did not render: $(tail -2 "$t/zh.log")"
fi
[ $fails -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $((fails > 0))
