#!/usr/bin/env bash
# Builds build-device/ here (sm_90, tests on) and stages a copy without object files in
# .device/build-device, small enough to travel to the GPU machine (name `.device` in `carry`).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v rsync >/dev/null || apt-get install -y -qq rsync >/dev/null
KBENCH_BUILD_DIR=build-device scripts/build.sh -DKBENCH_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90
rm -rf .device/build-device
mkdir -p .device
# CMakeFiles/Export holds the CMake package `cmake --install` copies (the SDK test needs it).
rsync -a --include 'CMakeFiles/Export/***' --exclude '*.o' --exclude 'CMakeFiles/*/' \
  build-device/ .device/build-device/
du -sh .device
