#!/usr/bin/env bash
# kbench's median against Nsight Compute's kernel duration, case by case (hot cache, clocks as
# found). Each argument is one case: "PLUGIN DTYPE SIZE [BLOCK]". Prints a markdown table.
#   scripts/ncu-compare.sh "transpose/naive_row float32 8192 32x8" "matmul/tiled float32 1024 16x16"
set -uo pipefail
kbench=${KBENCH:-build/bin/kbench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "| case | kbench median us | ncu gpu__time_duration us | kbench / ncu |"
echo "|---|---:|---:|---:|"
for spec in "$@"; do
  read -r plugin dtype size block <<<"$spec"
  args=(run --plugin "$plugin" --dtypes "$dtype" --sizes "$size")
  [ -n "${block:-}" ] && args+=(--blocks "$block")
  "$kbench" "${args[@]}" --output "$work/timed.csv" >/dev/null 2>&1
  median=$(tail -n 1 "$work/timed.csv" | awk -F, '{print $30}')
  # The first kernel of the profiled launch; the second is the verified launch.
  # CSV fields: ..., "Metric Name", "Metric Unit", "Metric Value"; the unit varies with the value.
  ncu_us=$(ncu --cache-control none --clock-control none --metrics gpu__time_duration.sum \
               --csv "$kbench" "${args[@]}" --profile --output "$work/profiled.csv" 2>/dev/null |
           grep 'gpu__time_duration.sum' | head -n 1 |
           awk -F'","' '{ v = $NF; gsub(/[",]/, "", v); u = $(NF - 1)
                          s = u ~ /^ns/ ? 1e-3 : u ~ /^(us|usecond)/ ? 1 : u ~ /^ms/ ? 1e3 : u ~ /^s/ ? 1e6 : 0
                          printf "%.3f", v * s }')
  ratio=$(awk -v a="$median" -v b="$ncu_us" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
  echo "| $spec | $median | $ncu_us | $ratio |"
done
