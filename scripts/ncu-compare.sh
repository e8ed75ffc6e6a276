#!/usr/bin/env bash
# kbench against Nsight Compute, case by case (clocks as found). Each argument is one case:
# "PLUGIN DTYPE SIZE [BLOCK]". Prints a markdown table.
#
#   scripts/ncu-compare.sh "transpose/naive_row float32 8192 32x8" "matmul/tiled float32 1024 16x16"
#       kbench's median against Nsight Compute's gpu__time_duration.sum of the same launch
#   scripts/ncu-compare.sh --dram "transpose/copy float32 8192" "transpose/fast float32 8192"
#       kbench's counters (`kbench run --metrics`: the CUPTI range profiler over one launch) against
#       Nsight Compute's dram__throughput.avg.pct_of_peak_sustained_elapsed and DRAM bytes over
#       the same launch (within 2 points)
#   --cold: both with the L2 flushed first (kbench --cold, ncu --cache-control all); default hot.
#
# The launch Nsight Compute profiles is kbench's --profile launch, the one between
# cudaProfilerStart and cudaProfilerStop (--profile-from-start off): never the runner's own
# kernels (bandwidth probes, the blocking kernel). --dram profiles its kernels one by one
# (--replay-mode kernel): kbench's dram_throughput is the DRAM bytes over the kernels' own time,
# and a range's percentage is of the range's elapsed time, the wait before its kernel included
# (H100, transpose/fast 8192^2: 33% of a range, 85.7% of its kernel). A copy (transpose/copy's
# cudaMemcpyAsync) is no kernel: Nsight Compute has no figure for it. The profiled run's workers run outside the plugin
# sandbox (KBENCH_SANDBOX=off, as validate does under the compute sanitizer): the injected
# profiler reaches into them (docs/nothing-lost.md).
set -uo pipefail
kbench=${KBENCH:-build/bin/kbench}
dram=0
cold=()
cache=none
while [[ $# -gt 0 && $1 == --* ]]; do
  case $1 in
    --dram) dram=1 ;;
    --cold) cold=(--cold) cache=all ;;
    *) echo "ncu-compare.sh: unknown option $1 (--dram, --cold)" >&2; exit 2 ;;
  esac
  shift
done
command -v ncu >/dev/null || { echo "ncu-compare.sh: ncu (Nsight Compute) is not on the PATH" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A column of the last row of a kbench results CSV, by name.
cell() {
  python3 - "$1" "$2" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(rows[-1].get(sys.argv[2], "") if rows else "")
PY
}
# One counter of a `counters` cell ("name=value;...").
counter() {
  python3 - "$1" "$2" <<'PY'
import sys
for item in sys.argv[1].split(";"):
    name, _, value = item.partition("=")
    if name == sys.argv[2]:
        print(value)
        break
PY
}
# Nsight Compute's value of a metric in its --csv output (the first row naming it), in base units
# (--print-units base); "" when absent.
ncu_value() {
  python3 - "$1" "$2" <<'PY'
import csv, sys
lines = [l for l in open(sys.argv[1]) if l.startswith('"')]
for row in csv.DictReader(lines):
    if row.get("Metric Name") == sys.argv[2]:
        print(row.get("Metric Value", "").replace(",", ""))
        break
PY
}
number() { awk -v v="$1" -v d="$2" 'BEGIN { if (v == "") print "-"; else printf "%.*f", d, v }'; }

if ((dram)); then
  echo "| case | kbench dram_throughput % | ncu dram__throughput % | difference (points) | within 2 | kbench DRAM bytes | ncu DRAM bytes |"
  echo "|---|---:|---:|---:|:-:|---:|---:|"
else
  echo "| case | kbench median us | ncu gpu__time_duration us | kbench / ncu |"
  echo "|---|---:|---:|---:|"
fi
for spec in "$@"; do
  read -r plugin dtype size block <<<"$spec"
  args=(run --plugin "$plugin" --dtypes "$dtype" --sizes "$size" "${cold[@]}")
  [ -n "${block:-}" ] && args+=(--blocks "$block")
  rm -f "$work/timed.csv" "$work/profiled.csv"
  if ((dram)); then
    "$kbench" "${args[@]}" --metrics dram_throughput,dram_read_bytes,dram_write_bytes \
      --output "$work/timed.csv" >/dev/null 2>&1
    counters=$(cell "$work/timed.csv" counters)
    kb_pct=$(counter "$counters" dram_throughput)
    kb_bytes=$(awk -v r="$(counter "$counters" dram_read_bytes)" -v w="$(counter "$counters" dram_write_bytes)" \
                   'BEGIN { if (r != "" && w != "") printf "%.0f", r + w }')
    KBENCH_SANDBOX=off ncu --target-processes all --profile-from-start off --replay-mode kernel \
        --cache-control "$cache" --clock-control none --print-units base --csv \
        --metrics dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum \
        "$kbench" "${args[@]}" --profile --output "$work/profiled.csv" >"$work/ncu.csv" 2>/dev/null
    ncu_pct=$(ncu_value "$work/ncu.csv" dram__throughput.avg.pct_of_peak_sustained_elapsed)
    ncu_bytes=$(awk -v r="$(ncu_value "$work/ncu.csv" dram__bytes_read.sum)" \
                    -v w="$(ncu_value "$work/ncu.csv" dram__bytes_write.sum)" \
                    'BEGIN { if (r != "" && w != "") printf "%.0f", r + w }')
    diff=$(awk -v a="$kb_pct" -v b="$ncu_pct" 'BEGIN { if (a != "" && b != "") printf "%.2f", a - b; else print "-" }')
    within=$(awk -v d="$diff" 'BEGIN { if (d == "-") print "-"; else print (d <= 2 && d >= -2) ? "yes" : "no" }')
    echo "| $spec | $(number "$kb_pct" 2) | $(number "$ncu_pct" 2) | $diff | $within | ${kb_bytes:--} | ${ncu_bytes:--} |"
  else
    "$kbench" "${args[@]}" --output "$work/timed.csv" >/dev/null 2>&1
    median=$(cell "$work/timed.csv" median_us)
    KBENCH_SANDBOX=off ncu --target-processes all --profile-from-start off --cache-control "$cache" \
        --clock-control none --print-units base --csv --metrics gpu__time_duration.sum \
        "$kbench" "${args[@]}" --profile --output "$work/profiled.csv" >"$work/ncu.csv" 2>/dev/null
    ns=$(ncu_value "$work/ncu.csv" gpu__time_duration.sum)
    ncu_us=$(awk -v v="$ns" 'BEGIN { if (v != "") printf "%.3f", v / 1e3 }')
    ratio=$(awk -v a="$median" -v b="$ncu_us" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')
    echo "| $spec | ${median:--} | ${ncu_us:--} | $ratio |"
  fi
done
