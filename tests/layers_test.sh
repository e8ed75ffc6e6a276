#!/usr/bin/env bash
# The layer check passes on the tree as it is, and fails, naming the file and the rule, on a copy
# with one include against the direction in each of the places it guards, and on a README whose
# table of the layers says otherwise or whose table of the folders names a folder that is gone.
set -euo pipefail
source_dir=$1
check=$source_dir/scripts/check-layers.sh
"$check" "$source_dir"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
expect_refused() {  # FILE INCLUDE PATTERN (INCLUDE in quotes unless it starts with '<')
  rm -rf "$scratch/tree"
  mkdir -p "$scratch/tree/core"
  cp -r "$source_dir/core/lib" "$source_dir/core/include" "$source_dir/core/sdk" "$scratch/tree/core/"
  cp -r "$source_dir/runner" "$source_dir/plugins" "$source_dir/examples" "$scratch/tree/"
  if [[ $2 == '<'* ]]; then include=$2; else include="\"$2\""; fi
  printf '#include %s\n' "$include" >> "$scratch/tree/$1"
  if "$check" "$scratch/tree" 2> "$scratch/err"; then
    echo "FAIL: '$2' in $1 was not refused" >&2
    exit 1
  fi
  grep -q "$3" "$scratch/err" || { echo "FAIL: unexpected message:" >&2; cat "$scratch/err" >&2; exit 1; }
  echo "refused as expected: $(head -1 "$scratch/err")"
}
expect_refused core/lib/measure/case_timer.cpp store/results_store.hpp \
  "core/lib/measure/case_timer.cpp:.*layer 'measure' may not include 'store/results_store.hpp'"
expect_refused core/lib/util/csv.cpp analysis/comparison.hpp "layer 'util' may not include"
expect_refused runner/run_command.cpp measure/case_timer.hpp "the parent never times nor judges"
expect_refused runner/worker_supervisor.cpp referee/referee_service.hpp "the parent never times nor judges"
expect_refused runner/child/worker_main.cpp options.hpp "a child includes nothing of the parent (options.hpp)"
expect_refused runner/run_command.cpp child/child_commands.hpp "the parent starts a child, never includes it"
expect_refused plugins/transpose/naive_row.cu store/result_columns.hpp "plugin code may not include"
expect_refused runner/list_command.cpp plan.hpp "include 'plan.hpp' by its folder"
expect_refused core/sdk/support/memo.cpp '<kbench/families/matmul.hpp>' \
  "core/sdk/support/memo.cpp:.*the SDK serves every family and includes none"
expect_refused runner/list_command.cpp '<kbench/families/hello.hpp>' \
  "the runner knows a family through its library"
expect_refused plugins/transpose/naive_row.cu '<kbench/families/reduce.hpp>' \
  "the family 'transpose' includes only its own header, not kbench/families/reduce.hpp"
tree_with_readme() {  # the source tree, but for README.md, which the caller writes
  rm -rf "$scratch/tree"
  mkdir -p "$scratch/tree"
  for entry in "$source_dir"/*; do
    [ "$(basename "$entry")" = README.md ] || ln -s "$entry" "$scratch/tree/"
  done
}
# README.md's table of the layers drifting from the rules.
tree_with_readme
sed -E 's/^(\| `analysis\/` \|.*\| util, device, case), store \|$/\1 |/' "$source_dir/README.md" \
  > "$scratch/tree/README.md"
if "$check" "$scratch/tree" 2> "$scratch/err"; then
  echo "FAIL: a README that leaves 'store' out of analysis' row was not refused" >&2
  exit 1
fi
grep -q "README.md: the row of 'analysis' says it may include 'case device util'; the rule says 'case device store util'" \
  "$scratch/err" || { echo "FAIL: unexpected message:" >&2; cat "$scratch/err" >&2; exit 1; }
echo "refused as expected: $(head -1 "$scratch/err")"
# README.md's table of the folders naming one that is gone.
tree_with_readme
sed -E 's/^(\| `presets\/` \|.*)$/\1\n| `benchmarks\/` | gone |/' "$source_dir/README.md" >"$scratch/tree/README.md"
if "$check" "$scratch/tree" 2> "$scratch/err"; then
  echo "FAIL: a README whose folders table names benchmarks/ was not refused" >&2
  exit 1
fi
grep -q "README.md: the table of the folders names 'benchmarks/', which is no folder" "$scratch/err" ||
  { echo "FAIL: unexpected message:" >&2; cat "$scratch/err" >&2; exit 1; }
echo "refused as expected: $(head -1 "$scratch/err")"
echo "layers: ok"
