#!/usr/bin/env bash
# One call on a GPU machine: environment check, every test (the `gpu` label included), then the
# benchmark sweeps, with the CSV and logs under $OUT (or ./gpu-out) and a short table last.
#
#   scripts/gpu-check.sh [tests|sweep|all] [extra kbench run args...]
#
# The build comes from this machine's build-device/ (scripts/device-prepare.sh builds it where
# Boost and GoogleTest are installed and stages a slim copy in .device/); on a machine with the
# dependencies, `KBENCH_BUILD_DIR=build-device scripts/build.sh -DKBENCH_BUILD_TESTS=ON` works too.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
shift || true
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"

# CTest files hold the absolute paths of the machine that built them.
if [ -d .device/build-device ] && [ ! -e build-device ]; then ln -s .device/build-device build-device; fi
built_in=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' build-device/CMakeCache.txt)
if [ -n "$built_in" ] && [ "$built_in" != "$PWD" ] && [ ! -e "$built_in" ]; then
  mkdir -p "$(dirname "$built_in")" && ln -s "$PWD" "$built_in"
fi
kbench=$PWD/build-device/bin/kbench

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
missing=$(ldd "$kbench" build-device/lib/kbench/plugins/*.so | grep "not found" | sort -u)
[ -z "$missing" ] || { echo "missing libraries: $missing"; exit 1; }

if [ "$mode" = tests ] || [ "$mode" = all ]; then
  ctest --test-dir build-device -j4 --output-on-failure --timeout 900 2>&1 | tee "$out/ctest.log" |
    grep -E "tests passed|tests failed|\*\*\*Failed|Failed  |Timeout|Not Run|^[0-9]+% " 
fi

if [ "$mode" = sweep ] || [ "$mode" = all ]; then
  csv="$out/sweep.csv"
  for preset in presets/gpu-check-*.ini; do
    "$kbench" run --config "$preset" --output "$csv" --run-id "gpu-check-$(date -u +%Y%m%dT%H%M%SZ)" \
      "$@" >"$out/$(basename "$preset" .ini).md" 2>>"$out/sweep.log"
    echo "== $preset (exit $?)"
    grep -E "^\| |cases:" "$out/$(basename "$preset" .ini).md" | grep -vE "\| (ok|unsupported) \|.*\| *\|$" | tail -60
  done
fi
