#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image. Its images have no
# GPU: the SSH client is all that run_autograder needs to send submissions to the course's GPU
# machine. Where the image has the CUDA Toolkit (a GPU runner of the course's own), the grader
# is built too, and run_autograder grades there.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends openssh-client ca-certificates >/dev/null
chmod 600 "$here/ssh/id" 2>/dev/null || true
if command -v nvcc >/dev/null || [ -x /usr/local/cuda/bin/nvcc ]; then
    apt-get install -y -qq --no-install-recommends build-essential cmake pkg-config libcjson-dev \
        libarchive-dev libcsv-dev libyaml-dev >/dev/null
    export PATH=$PATH:/usr/local/cuda/bin
    cmake -S "$here/edition" -B "$here/edition/build" >/dev/null
    cmake --build "$here/edition/build" -j"$(nproc)" >/dev/null
fi
