#!/usr/bin/env bash
# Configures and builds kbench into ${KBENCH_BUILD_DIR:-build} (incremental, idempotent): every
# target, or ${KBENCH_BUILD_TARGET} alone (scripts/sweep.sh: kbench_sweep, the runner and the
# plugins). Extra arguments go to the CMake configure step, e.g. -DCMAKE_CUDA_ARCHITECTURES=native.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/install-deps.sh
build_dir=${KBENCH_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
cmake --build "$build_dir" -j"$(nproc)" ${KBENCH_BUILD_TARGET:+--target "$KBENCH_BUILD_TARGET"}
