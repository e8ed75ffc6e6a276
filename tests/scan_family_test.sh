#!/usr/bin/env bash
# A family kbench does not know, dropped in: examples/out_of_tree_family/scan, built only against
# the installed SDK, goes through list, run (the family's own default sweep), validate,
# new-plugin --family scan, compare and report with no kbench source changed. Without a GPU the
# CUDA plugins are listed, validated for their ABI and skipped by run; scan/cpu runs.
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

# The family's own scaffold, found beside its plugins.
"$kbench" new-plugin mine --family scan --plugins "$plugins" -o "$work/mine" >/dev/null
cmake -S "$work/mine" -B "$work/mine/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/mine/build" >/dev/null
"$kbench" validate "$work/mine/build/mine.so" | tee "$work/validate.txt"
grep -qE '^valid: |no CUDA device here' "$work/validate.txt"

"$kbench" compare "$work/r.csv" --by plugin --family scan | tee "$work/compare.txt"
grep -q 'scan/cpu' "$work/compare.txt"
"$kbench" report "$work/r.csv" --plugins "$plugins" -o "$work/report" >/dev/null
grep -q '^## scan' "$work/report/report.md"
if $gpu; then grep -q 'the best plugin other than scan/cub' "$work/report/report.md"; fi
echo "scan family: ok"
