#!/usr/bin/env bash
# A plugin built outside the tree, from one .cu file that includes only a kbench/plugin.h:
# examples/out_of_tree/saxpy.cu, a version 1 plugin built against the version 1 header it was
# written for (tests/abi_v1), loads with --plugins DIR and runs as its own referee (its rows say
# referee=plugin). On a machine without a GPU it is listed, validated for its ABI, and skipped by
# run with the one-line notice. Built against today's header it is refused at configure time.
set -euo pipefail
kbench=$1 source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gpu=false
nvidia-smi -L >/dev/null 2>&1 && gpu=true

cmake -S "$source_dir/examples/out_of_tree" -B "$work/v1" >/dev/null
cmake --build "$work/v1" >/dev/null
"$kbench" list --plugins "$work/v1" | grep '| example/saxpy | cuda | float32 |' >/dev/null
"$kbench" validate "$work/v1/saxpy.so" | tee "$work/validate.txt"
grep -q '^referee: the plugin itself (ABI version 1): its rows say referee=plugin$' "$work/validate.txt"
grep -qE '^valid: |no CUDA device here' "$work/validate.txt"
"$kbench" run --plugins "$work/v1" --plugin example/saxpy --sizes 1000,2^20 \
              --max-time 0.05 --output "$work/v1.csv" >"$work/v1.txt" 2>&1
if $gpu; then
  test "$(grep -c ',example/saxpy,.*,ok,' "$work/v1.csv")" -eq 2
  # The referee column (then cupti_us, cupti_kernels and counters, which hold no comma, a kernel file's three, empty here, the code that ran and the kernels, which may): a version 1 plugin judged itself.
  test "$(grep ',example/saxpy,' "$work/v1.csv" | grep -c ',plugin,[^,]*,[^,]*,[^,]*,,,,sm_90[^,]*,.*$')" -eq 2
  head -1 "$work/v1.csv" | grep -q ',referee,cupti_us,cupti_kernels,counters,kernel_file,kernel_sha256,kernel_compiler,code,kernels$'
else
  grep -q 'no CUDA device found.*skipping the CUDA plugins: example/saxpy' "$work/v1.txt"
fi

# The same source against the current header (version 3) declares a version it does not
# implement: the example's CMakeLists refuses it, naming the version 1 header.
if cmake -S "$source_dir/examples/out_of_tree" -B "$work/v3" \
         -DKBENCH_INCLUDE_DIR="$source_dir/core/include" >"$work/v3.txt" 2>&1; then
  echo "saxpy configured against the version 3 header" >&2
  exit 1
fi
grep -q 'saxpy.cu is a version 1 plugin' "$work/v3.txt"
echo "out-of-tree plugin: ok"
