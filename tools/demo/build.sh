#!/bin/sh
# Builds the live demo's model: common/coalesce.c and tools/demo/demo_wasm.c compiled to
# WebAssembly with clang's wasm32 target (no C library: tools/demo/libc), written with the
# explore runs' measured tables as one script, handouts/demo/coalesce-wasm.js (base64), which
# handouts/demo/index.html and the workbook load. Needs clang and wasm-ld (Debian: clang, lld).
#     tools/demo/build.sh [OUT_DIR]        (default: handouts/demo)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/handouts/demo}
command -v clang >/dev/null || { echo "demo: clang is not installed" >&2; exit 3; }
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
