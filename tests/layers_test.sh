#!/usr/bin/env bash
# The layer check passes on the tree as it is, and fails, naming the file and the rule, on a copy
# with one include against the direction in each of the three places it guards, and on a README
# whose table of the layers says otherwise.
set -euo pipefail
source_dir=$1
check=$source_dir/scripts/check-layers.sh
"$check" "$source_dir"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
expect_refused() {  # FILE INCLUDE PATTERN
  rm -rf "$scratch/tree"
  mkdir -p "$scratch/tree/core"
  cp -r "$source_dir/core/lib" "$source_dir/core/include" "$source_dir/core/sdk" "$scratch/tree/core/"
  cp -r "$source_dir/runner" "$source_dir/plugins" "$source_dir/examples" "$scratch/tree/"
  printf '#include "%s"\n' "$2" >> "$scratch/tree/$1"
  if "$check" "$scratch/tree" 2> "$scratch/err"; then
    echo "FAIL: '$2' in $1 was not refused" >&2
    exit 1
  fi
  grep -q "$3" "$scratch/err" || { echo "FAIL: unexpected message:" >&2; cat "$scratch/err" >&2; exit 1; }
  echo "refused as expected: $(head -1 "$scratch/err")"
}
expect_refused core/lib/measure/case_runner.cpp store/results_store.hpp \
  "core/lib/measure/case_runner.cpp:.*layer 'measure' may not include 'store/results_store.hpp'"
expect_refused core/lib/util/csv.cpp analysis/comparison.hpp "layer 'util' may not include"
expect_refused runner/run_command.cpp measure/case_runner.hpp "the parent never includes the timing loop"
expect_refused plugins/transpose/naive_row.cu store/result_columns.hpp "plugin code may not include"
expect_refused runner/list_command.cpp plan.hpp "include 'plan.hpp' by its folder"
# README.md's table of the layers drifting from the rules.
rm -rf "$scratch/tree"
mkdir -p "$scratch/tree/core"
cp -r "$source_dir/core/lib" "$scratch/tree/core/"
sed -E 's/^(\| `analysis\/` \|.*\| util, device, case), store \|$/\1 |/' "$source_dir/README.md" \
  > "$scratch/tree/README.md"
if "$check" "$scratch/tree" 2> "$scratch/err"; then
  echo "FAIL: a README that leaves 'store' out of analysis' row was not refused" >&2
  exit 1
fi
grep -q "README.md: the row of 'analysis' says it may include 'case device util'; the rule says 'case device store util'" \
  "$scratch/err" || { echo "FAIL: unexpected message:" >&2; cat "$scratch/err" >&2; exit 1; }
echo "refused as expected: $(head -1 "$scratch/err")"
echo "layers: ok"
