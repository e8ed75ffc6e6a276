#!/usr/bin/env bash
# Builds build-device/ here (sm_90, tests on) and stages a copy without object files in
# .device/build-device, small enough to travel to the GPU machine (name `.device` in `carry`).
#   scripts/device-prepare.sh generations   also the plugins as compute_80 PTX alone, built in
#     build-ptx80/ and staged in .device/build-ptx80/lib (`scripts/gpu-check.sh generations`)
#   scripts/device-prepare.sh gpu-only      stages only the test programs that hold a `gpu` test
#     and no static library (about 30 MiB against 80: `KBENCH_GPU_ONLY=1 scripts/gpu-check.sh
#     tests`, `scripts/gpu-check.sh lease`)
#   scripts/device-prepare.sh against=COMMIT  also that commit's runner and plugins, built in a
#     worktree beside this checkout (../kbench-against-COMMIT, kept for the next time) and staged in
#     .device/against (`scripts/gpu-check.sh against`: the same sweeps by both builds in one call)
# The words go together (`generations gpu-only`): one lease's staging for all.
set -euo pipefail
cd "$(dirname "$0")/.."
words=" $* "
asked() { [[ $words == *" $1 "* ]]; }
against=$(sed -n 's/.* against=\([^ ]*\) .*/\1/p' <<<"$words")
rm -rf .device/against  # none of an earlier call travels
if [ -n "$against" ]; then
  commit=$(git rev-parse --short=12 "$against^{commit}")
  tree=$(cd .. && pwd)/kbench-against-$commit
  [ -d "$tree" ] || git worktree add --detach "$tree" "$commit" >/dev/null
  (cd "$tree" && KBENCH_BUILD_DIR=build-device KBENCH_BUILD_TARGET=kbench_sweep scripts/build.sh \
     -DKBENCH_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90)
  mkdir -p .device/against/bin .device/against/lib
  cp "$tree/build-device/bin/kbench" .device/against/bin/
  cp -r "$tree/build-device/lib/kbench" .device/against/lib/
  echo "$commit" >.device/against/commit
fi
if asked generations; then
  [ -d build-ptx80/lib/kbench/plugins ] && find build-ptx80/lib/kbench/plugins -name '*.so' -delete
  KBENCH_BUILD_DIR=build-ptx80 KBENCH_BUILD_TARGET=kbench_plugins scripts/build.sh \
    -DKBENCH_BUILD_TESTS=OFF -DKBENCH_CUDA_ARCHS=compute_80
  rm -rf .device/build-ptx80 && mkdir -p .device/build-ptx80/lib/kbench
  cp -r build-ptx80/lib/kbench/plugins .device/build-ptx80/lib/kbench/
else
  rm -rf .device/build-ptx80  # none of an earlier commit travels
fi
command -v rsync >/dev/null || apt-get install -y -qq rsync >/dev/null
# A plugin removed from the build leaves its .so behind, and the runner would load it: relinking
# every plugin from its objects costs seconds.
[ -d build-device/lib/kbench/plugins ] && find build-device/lib/kbench/plugins -name '*.so' -delete
KBENCH_BUILD_DIR=build-device scripts/build.sh -DKBENCH_BUILD_TESTS=ON -DCMAKE_CUDA_ARCHITECTURES=90
# CUPTI (the fourth clock, --metrics) is loaded at run time from the GPU machine's own toolkit
# (libcupti.so.13 and the profiler's libnvperf_*.so, 41 MB: too large to carry); the build only
# needs its headers, and without them kbench would leave the CUPTI columns empty everywhere.
if grep -q '^KBENCH_CUPTI_INCLUDE_DIR:PATH=.*NOTFOUND' build-device/CMakeCache.txt; then
  echo "device-prepare: no CUPTI headers (cupti.h) in this toolkit: build-device has no CUPTI clock" >&2
  exit 1
fi
rm -rf .device/build-device
mkdir -p .device
# The commit the build came from, for gpu-check.sh's record (the GPU machine has no .git).
git describe --always --dirty --abbrev=12 >.device/commit
# CMakeFiles/Export holds the CMake package `cmake --install` copies (the SDK test needs it).
rsync -a --include 'CMakeFiles/Export/***' --exclude '*.o' --exclude 'CMakeFiles/*/' \
  build-device/ .device/build-device/
# The scan family (examples/out_of_tree_family/scan), built against the installed SDK as a user
# outside kbench would: `scripts/gpu-check.sh abi2` runs it with its CUB baseline.
rm -rf .device/sdk-prefix .device/scan
cmake --install build-device --prefix "$PWD/.device/sdk-prefix" >/dev/null
cmake -S examples/out_of_tree_family/scan -B build-scan -DCMAKE_PREFIX_PATH="$PWD/.device/sdk-prefix" \
      -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
cmake --build build-scan -j"$(nproc)" >/dev/null
mkdir -p .device/scan/templates
cp build-scan/*.so .device/scan/ && cp build-scan/templates/* .device/scan/templates/
rm -rf .device/sdk-prefix
if asked gpu-only; then
  gpu_programs=$(ctest --test-dir build-device -L gpu --show-only=json-v1 | python3 -c '
import json, os, sys
print("\n".join({os.path.basename(t["command"][0]) for t in json.load(sys.stdin)["tests"]}))')
  for program in .device/build-device/bin/*; do
    name=$(basename "$program")
    [ "$name" = kbench ] || grep -qx "$name" <<<"$gpu_programs" || rm -f "$program"
  done
  find .device/build-device -name '*.a' -delete
fi
du -sh .device
