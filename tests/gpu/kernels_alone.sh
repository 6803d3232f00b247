#!/bin/sh
# Each launcher of labs 02, 03 and 06 timed alone, at the graded size, against a float4 copy of
# 1 GiB timed the same way in the same process: where a lab's time goes, kernel by kernel (the
# grader times a lab's launchers together). Lab 03 also at three times the rows and at twice the
# rows and columns, to show what a larger problem does to short kernels. A measurement for the
# speed work (issue 12), not a test; its outputs are checked, and it fails when one is wrong.
#     tests/gpu/kernels_alone.sh [NVCC] [SOURCE_TREE]    (the solutions of that tree)
# Exits 77 without a GPU.
set -u
nvcc=${1:-nvcc}
src=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
here=$(cd "$(dirname "$0")" && pwd)
nvidia-smi -L 2>/dev/null | grep -q '^GPU' || { echo "no GPU: skipped"; exit 77; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
status=0
for lab in 02-stride 03-row-col-major 06-aos-soa; do
    id=${lab%%-*}
    "$nvcc" -O3 -lineinfo -arch=native -std=c++17 -I"$src/labs/$lab" -I"$src/common" \
        "$here/kernels_alone/lab$id.cu" "$src/solutions/$lab/kernel.cu" "$src/common/cuda_check.c" \
        -o "$bin/lab$id" || { echo "cannot build lab $id's driver"; exit 1; }
done
"$bin/lab02" || status=1
"$bin/lab03" || status=1
"$bin/lab03" 18024 4104 || status=1
"$bin/lab03" 12016 8208 || status=1
"$bin/lab06" || status=1
exit $status
