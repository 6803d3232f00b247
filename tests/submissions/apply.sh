#!/bin/sh
# Writes the kernel a mutant submission stands for:
#     tests/submissions/apply.sh tests/submissions/NN-slug/NAME.{cu,patch} OUT.cu
# A NAME.cu is copied as it is. A NAME.patch (a unified diff, its first lines saying what the
# mutant does and what it must get) is applied with no fuzz to the stub or solution its
# "--- a/..." line names. A patch that no longer applies fails loudly, naming both files.
set -u
case_file=$1 out=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
case $case_file in
*.cu)
    cp "$case_file" "$out" ;;
*.patch)
    base=$(sed -n 's|^--- a/\([^[:space:]]*\).*|\1|p' "$case_file" | head -n 1)
    if [ -z "$base" ] || [ ! -f "$src/$base" ]; then
        echo "cannot apply '$case_file': it names no stub or solution that exists ('$base')" >&2
        exit 1
    fi
    if ! patch --quiet --fuzz=0 --no-backup-if-mismatch --reject-file=- -o "$out" \
            "$src/$base" < "$case_file" >&2; then
        echo "'$case_file' no longer applies to '$base': make it again from the changed file" >&2
        exit 1
    fi ;;
*)
    echo "'$case_file' is neither a NAME.cu nor a NAME.patch" >&2
    exit 1 ;;
esac
