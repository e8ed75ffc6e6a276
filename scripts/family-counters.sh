#!/usr/bin/env bash
# The seeds' lessons as counters: each family's ladder run once with every counter of
# `kbench run --metrics all`, then, per counter that explains a step, `kbench compare --by plugin
# --ladder` in ladder order (each plugin at its fastest block, each column against the one before).
# What it prints fills the "Why, in counters" sections of docs/families/*.md.
#
#   scripts/family-counters.sh [transpose|reduce|matmul|hello|all] [extra kbench run args...]
#
# The rows go to $OUT/counters-<family>.csv (OUT defaults to ./gpu-out), the tables to stdout.
set -uo pipefail
cd "$(dirname "$0")/.."
family=${1:-all}
shift || true
kbench=${KBENCH:-build/bin/kbench}
[ -x "$kbench" ] || kbench=build-device/bin/kbench
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"

# ladder FAMILY "RUN ARGS" "COUNTER..." PLUGIN...
ladder() {
  local name=$1 run_args=$2 counters=$3
  shift 3
  local csv="$out/counters-$name.csv" plugins=() p
  for p in "$@"; do plugins+=(--plugin "$p"); done
  rm -f "$csv"
  # shellcheck disable=SC2086 # run_args is a list of words
  "$kbench" run "${plugins[@]}" $run_args --metrics all --output "$csv" "${extra[@]}" \
    >"$out/counters-$name.log" 2>&1
  echo "## $name: $(grep -E '^[0-9]+ cases:' "$out/counters-$name.log")"
  grep -E "^kbench: (no CUPTI|--metrics)" "$out/counters-$name.log"
  for metric in time $counters; do
    echo
    echo "### $name, $metric"
    echo
    "$kbench" compare "$csv" --by plugin --ladder --metric "$metric" "${plugins[@]}" 2>&1 |
      grep -vE "^Each cell|^$|^###"
  done
  echo
}

extra=("$@")
if [ "$family" = transpose ] || [ "$family" = all ]; then
  ladder transpose "--sizes 8192 --dtypes float32 --blocks 32x8,32x32" \
    "dram_throughput dram_read_bytes dram_write_bytes global_load_sectors_per_request global_store_sectors_per_request shared_load_bank_conflicts shared_store_bank_conflicts instructions achieved_occupancy" \
    transpose/naive_row transpose/naive_col transpose/shared transpose/shared_padded \
    transpose/shared_swapped_index transpose/tiled_coarse transpose/fast transpose/cublas transpose/copy
fi
if [ "$family" = reduce ] || [ "$family" = all ]; then
  ladder reduce "--sizes 2^24 --dtypes float32 --ops sum --blocks 256" \
    "dram_throughput global_load_sectors_per_request threads_per_instruction shared_load_bank_conflicts shared_store_bank_conflicts instructions achieved_occupancy" \
    reduce/single_thread reduce/one_block_chunked reduce/one_block_strided reduce/multi_block \
    reduce/tree_interleaved reduce/tree_sequential reduce/tree_unrolled reduce/warp_shuffle \
    reduce/fast reduce/cub
fi
if [ "$family" = matmul ] || [ "$family" = all ]; then
  ladder matmul "--sizes 2048 --dtypes float32 --blocks 16x16,32x32" \
    "global_load_sectors_per_request l2_hit_rate dram_read_bytes shared_load_bank_conflicts instructions achieved_occupancy sm_throughput" \
    matmul/naive_cols matmul/naive_rows matmul/naive matmul/row_shared matmul/tiled \
    matmul/tiled_padded matmul/regblock matmul/cublas matmul/tensor_mma matmul/tensor_wgmma \
    matmul/cublas_tf32
fi
if [ "$family" = hello ] || [ "$family" = all ]; then
  ladder hello "--sizes 132 --blocks 32x8" "instructions achieved_occupancy" hello/printf hello/record
fi
