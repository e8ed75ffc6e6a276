#!/usr/bin/env bash
# A family kbench does not know, dropped in: examples/out_of_tree_family/scan, built only against
# the installed SDK (its referee scan_family.so with kbench_add_family, its version 3 strategies
# with kbench_add_plugin), goes through list, run (the family's own default sweep), validate,
# new-plugin --family scan, compare and report with no kbench source changed. Without a GPU the
# CUDA strategies are listed, validated for their ABI and skipped by run; scan/cpu runs, refereed
# by the family's library on the host.
set -euo pipefail
build=$1 source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
kbench=$prefix/bin/kbench
plugins=$work/scan
cmake -S "$source_dir/examples/out_of_tree_family/scan" -B "$plugins" \
      -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$plugins" >/dev/null
gpu=false
nvidia-smi -L >/dev/null 2>&1 && gpu=true

"$kbench" list --plugins "$plugins" --family scan | tee "$work/list.txt"
for plugin in cpu naive blocked cub; do grep -q "| scan/$plugin |" "$work/list.txt"; done
grep -q '| scan/blocked | cuda | int32 |  | from --blocks | items=4 of 1,2,4,8 |' "$work/list.txt"

# No sweep option: the sizes, blocks and dtypes are the family's own (2^20 and 2^24, int32).
set +e
"$kbench" run --plugins "$plugins" --family scan --output "$work/r.csv" --run-id night-1 \
  --max-time 0.05 >"$work/run.txt" 2>&1
code=$?
set -e
cat "$work/run.txt"
test "$code" -eq 0
test "$(grep -c ',scan,scan/cpu,1,int32,,1048576,-,,.*,ok,' "$work/r.csv")" -eq 1
test "$(grep -c ',scan,scan/cpu,1,int32,,16777216,-,,.*,ok,' "$work/r.csv")" -eq 1
# The referee column (then cupti_us, cupti_kernels and counters, which hold no comma, a kernel file's three, empty here, the code that ran and the kernels, which may): the family's library, not the strategy, judged every row.
test "$(grep -c ',scan,scan/.*,family,[^,]*,[^,]*,[^,]*,,,,[^,]*,.*$' "$work/r.csv")" -eq "$(($(wc -l <"$work/r.csv") - 1))"
if $gpu; then
  # blocked: 2 sizes x its 1 default block x its default items; naive refuses 2^24 (unsupported).
  test "$(grep -c ',scan/blocked,.*,items=4,.*,ok,' "$work/r.csv")" -eq 2
  test "$(grep -c ',scan/cub,.*,ok,' "$work/r.csv")" -eq 2
else
  grep -q 'skipping the CUDA plugins: scan/blocked, scan/cub, scan/naive' "$work/run.txt"
fi

for so in "$plugins"/*.so; do
  "$kbench" validate "$so" | tee "$work/validate.txt"
  grep -qE '^valid: |no CUDA device here' "$work/validate.txt"
done
"$kbench" validate "$plugins/scan_family.so" | tee "$work/validate.txt"
grep -q '^valid: a family library; it referees scan/blocked, scan/cpu, scan/cub, scan/naive' \
  "$work/validate.txt"
"$kbench" validate "$plugins/scan_cpu.so" | tee "$work/validate.txt"
grep -q "^referee: the scan family's library (version 1, $plugins/scan_family.so)" "$work/validate.txt"
grep -q '^valid: 2 of 2 small cases ran and verified' "$work/validate.txt"

# The family's own scaffold, found beside its plugins: a version 3 strategy against plugin.h
# alone. Its referee is the family's library in that folder: validate finds it with --plugins,
# and refuses the strategy without it.
"$kbench" new-plugin mine --family scan --plugins "$plugins" -o "$work/mine" >/dev/null
grep -q -- "kbench validate build/mine.so --plugins $plugins" "$work/mine/CMakeLists.txt"
cmake -S "$work/mine" -B "$work/mine/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/mine/build" >/dev/null
set +e
"$kbench" validate "$work/mine/build/mine.so" >"$work/validate.txt"
code=$?
set -e
cat "$work/validate.txt"
test "$code" -eq 1
grep -q "^invalid: no referee: the library of the 'scan' family" "$work/validate.txt"
"$kbench" validate "$work/mine/build/mine.so" --plugins "$plugins" | tee "$work/validate.txt"
grep -q "^referee: the scan family's library" "$work/validate.txt"
grep -qE '^valid: |no CUDA device here' "$work/validate.txt"
if $gpu; then
  "$kbench" run --plugins "$work/mine/build" --plugins "$plugins" --plugin scan/mine \
    --sizes 1000,4097 --max-time 0.02 --output "$work/mine.csv" >/dev/null 2>&1
  test "$(grep -c ',scan/mine,.*,ok,.*,family,[^,]*,[^,]*,[^,]*,,,,sm_90[^,]*,.*$' "$work/mine.csv")" -eq 2
fi

"$kbench" compare "$work/r.csv" --by plugin --family scan | tee "$work/compare.txt"
grep -q 'scan/cpu' "$work/compare.txt"
"$kbench" report "$work/r.csv" --plugins "$plugins" -o "$work/report" >/dev/null
grep -q '^## scan' "$work/report/report.md"
if $gpu; then grep -q 'the best plugin other than scan/cub' "$work/report/report.md"; fi
echo "scan family: ok"
