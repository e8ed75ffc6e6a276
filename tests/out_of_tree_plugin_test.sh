#!/usr/bin/env bash
# A plugin built outside the tree, from one .cu file that includes only kbench/plugin.h, loads
# with --plugins DIR and runs (on a machine without a GPU: is listed, and skipped with the
# one-line notice).
set -euo pipefail
kbench=$1 source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S "$source_dir/examples/out_of_tree" -B "$work/build" \
      -DKBENCH_INCLUDE_DIR="$source_dir/core/include" >/dev/null
cmake --build "$work/build" >/dev/null
"$kbench" list --plugins "$work/build" | grep '| example/saxpy | cuda | float32 |' >/dev/null
"$kbench" run --plugins "$work/build" --plugin example/saxpy --sizes 1000,2^20 \
              --max-time 0.05 --output "$work/r.csv" >"$work/out.txt" 2>&1
if nvidia-smi -L >/dev/null 2>&1; then
  test "$(grep -c ',example/saxpy,.*,ok,' "$work/r.csv")" -eq 2
else
  grep -q 'no CUDA device found.*skipping the CUDA plugins: example/saxpy' "$work/out.txt"
fi

# The same source built against the ABI version 1 header it was written for: a true version 1
# plugin, which this kbench (version 2) still loads and runs.
cmake -S "$source_dir/examples/out_of_tree" -B "$work/v1" \
      -DKBENCH_INCLUDE_DIR="$source_dir/tests/abi_v1" >/dev/null
cmake --build "$work/v1" >/dev/null
"$kbench" list --plugins "$work/v1" | grep '| example/saxpy | cuda | float32 |' >/dev/null
"$kbench" run --plugins "$work/v1" --plugin example/saxpy --sizes 1000,2^20 \
              --max-time 0.05 --output "$work/v1.csv" >"$work/v1.txt" 2>&1
if nvidia-smi -L >/dev/null 2>&1; then
  test "$(grep -c ',example/saxpy,.*,ok,' "$work/v1.csv")" -eq 2
else
  grep -q 'no CUDA device found.*skipping the CUDA plugins: example/saxpy' "$work/v1.txt"
fi
echo "out-of-tree plugin: ok"
