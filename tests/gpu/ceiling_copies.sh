#!/bin/sh
# Every copy the bandwidth ceiling is the best of, at three buffer sizes, as a table: which copy
# wins on this GPU and how much the buffer's size matters. Needs nvcc; exits 77 without a GPU.
#     tests/gpu/ceiling_copies.sh
set -u
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nvcc -O2 -o "$tmp/ceiling_copies" "$here/ceiling_copies.cu" || exit 1
"$tmp/ceiling_copies"
