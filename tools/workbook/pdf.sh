#!/bin/sh
# The HTML workbook (build.sh) printed to one PDF by headless Chromium (its default page, US
# Letter), no browser header or footer, the headings as the PDF's outline, the links between handouts kept as links.
# No TeX engine is needed; the page is the one students read, so the two never differ.
#     tools/workbook/pdf.sh [OUT.pdf]        (default: workbook.pdf here)
# Needs pandoc and headless Chromium (chromium-headless-shell, or chromium); exits 3 without.
set -eu
out=${1:-workbook.pdf}
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
here=$(cd "$(dirname "$0")" && pwd)
browser=$(command -v chromium-headless-shell || command -v chromium || true)
[ -n "$browser" ] || {
    echo "workbook: no headless Chromium (Debian: apt-get install chromium-headless-shell)" >&2
    exit 3
}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
sh "$here/build.sh" "$t/workbook.html"
rm -f "$out" # so that a PDF from an earlier run is not taken for this one's
# The live demo's page is static on paper: its first view, as the page opens.
"$browser" --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
    --no-pdf-header-footer --generate-pdf-document-outline --virtual-time-budget=5000 \
    --print-to-pdf="$out" "file://$t/workbook.html" 2>/dev/null
head -c 5 "$out" 2>/dev/null | grep -q '%PDF-' || { echo "workbook: Chromium wrote no PDF" >&2; exit 1; }
echo "workbook: $out ($(wc -c < "$out" | tr -d ' ') bytes)"
