#!/usr/bin/env bash
# The SDK path end to end: install to a temporary prefix, scaffold a plugin, build it out of tree
# with find_package(kbench), validate it, run it beside the built-in plugins, find its rows.
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
kbench=$prefix/bin/kbench

"$kbench" new-plugin mine --family transpose --host -o "$work/mine" >/dev/null
cmake -S "$work/mine" -B "$work/mine/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/mine/build" >/dev/null
"$kbench" validate "$work/mine/build/mine.so" | tee "$work/validate.txt"
grep '^valid: ' "$work/validate.txt" >/dev/null

"$kbench" run --plugins "$work/mine/build" --plugin 'transpose/mine' --plugin transpose/cpu \
  --sizes 64,33x31 --dtypes int32 --max-time 0.02 --output "$work/r.csv" >/dev/null 2>&1
test "$(grep -c ',transpose,transpose/mine,.*,ok,' "$work/r.csv")" -eq 2
test "$(grep -c ',transpose,transpose/cpu,.*,ok,' "$work/r.csv")" -eq 2

# The CUDA scaffold builds too; where a GPU is present it validates with cases.
"$kbench" new-plugin fastmm --family matmul -o "$work/fastmm" >/dev/null
cmake -S "$work/fastmm" -B "$work/fastmm/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/fastmm/build" >/dev/null
"$kbench" validate "$work/fastmm/build/fastmm.so"
echo "sdk: ok"
