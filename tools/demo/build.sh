#!/bin/sh
# Builds the live demo's model: common/coalesce.c and tools/demo/demo_wasm.c compiled to
# WebAssembly with clang's wasm32 target (no C library: tools/demo/libc), written with the
# explore runs' measured tables as one script, handouts/demo/coalesce-wasm.js (base64), which
# handouts/demo/index.html and the workbook load. Also the page's words in other languages,
# handouts/demo/demo-catalogue.js (CL_DEMO_CATALOGUE, loaded before demo.js): each
# po/demo-LL_CC.po compiled by msgfmt --check and read back by Python's gettext, the
# translations of LL. Needs clang and wasm-ld (Debian: clang, lld), msgfmt (gettext), python3.
#     tools/demo/build.sh [OUT_DIR]        (default: handouts/demo)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/handouts/demo}
command -v clang >/dev/null || { echo "demo: clang is not installed" >&2; exit 3; }
command -v msgfmt >/dev/null || { echo "demo: msgfmt (gettext) is not installed" >&2; exit 3; }
command -v python3 >/dev/null || { echo "demo: python3 is not installed" >&2; exit 3; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clang --target=wasm32 -O2 -nostdlib -ffreestanding -isystem "$top/tools/demo/libc" \
    -I"$top/common" -Wl,--no-entry -o "$tmp/coalesce.wasm" \
    "$top/common/coalesce.c" "$top/tools/demo/demo_wasm.c"
csv() { # NAME FILE: the file as a JavaScript string
    printf '  "%s": "%s",\n' "$1" "$(sed 's/\\/\\\\/g; s/"/\\"/g' "$2" | awk '{ printf "%s\\n", $0 }')"
}
mkdir -p "$out"
{
    echo "// Made by tools/demo/build.sh from common/coalesce.c and tools/demo/demo_wasm.c: do not edit."
    printf 'const CL_DEMO_WASM = "%s";\n' "$(base64 -w0 "$tmp/coalesce.wasm")"
    echo "const CL_DEMO_EXPLORE = {"
    csv 01 "$top/handouts/figures/explore-01-h200.csv"
    csv 02 "$top/handouts/figures/explore-02-h200.csv"
    echo "};"
} > "$out/coalesce-wasm.js"
echo "demo: $out/coalesce-wasm.js ($(wc -c < "$tmp/coalesce.wasm" | tr -d ' ') bytes of WebAssembly)"
# The catalogues: {LL: {msgid: msgstr}} of the translated messages (msgfmt leaves out the
# empty and fuzzy ones: the page shows their English), each {name} of a message kept.
mkdir "$tmp/mo"
for po in "$top"/po/demo-*.po; do
    [ -f "$po" ] || continue
    lang=$(basename "$po" .po)
    lang=${lang#demo-}
    msgfmt --check -o "$tmp/mo/${lang%%_*}.mo" "$po" || { echo "demo: msgfmt --check $po failed" >&2; exit 1; }
done
# shellcheck disable=SC2046
python3 - "$out/demo-catalogue.js" $(ls "$tmp"/mo/*.mo 2>/dev/null) <<'EOF'
import gettext, json, os, re, sys
lines = ["// Made by tools/demo/build.sh from po/demo-*.po: do not edit.",
         "const CL_DEMO_CATALOGUE = {"]
for mo in sys.argv[2:]:
    with open(mo, "rb") as f:
        catalog = gettext.GNUTranslations(f)._catalog
    lang = os.path.basename(mo)[:-3]
    lines.append(f"  {lang}: {{")
    for msgid, msgstr in sorted((k, v) for k, v in catalog.items() if k):
        if sorted(re.findall(r"\{\w+\}", msgid)) != sorted(re.findall(r"\{\w+\}", msgstr)):
            sys.exit(f"demo: the {lang} translation of {msgid!r} has other {{placeholders}}")
        lines.append(f"    {json.dumps(msgid, ensure_ascii=False)}: "
                     f"{json.dumps(msgstr, ensure_ascii=False)},")
    lines.append("  },")
lines.append("};")
with open(sys.argv[1], "w", encoding="utf-8") as f:
    f.write("\n".join(lines) + "\n")
EOF
echo "demo: $out/demo-catalogue.js ($(grep -c '^    "' "$out/demo-catalogue.js") translated messages)"
