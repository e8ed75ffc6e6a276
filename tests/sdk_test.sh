#!/usr/bin/env bash
# The SDK path end to end: install to a temporary prefix, scaffold a plugin (a version 3
# strategy), build it out of tree with find_package(kbench), validate it, run it beside the
# built-in plugins, find its rows, refereed by the family's installed library.
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null
kbench=$prefix/bin/kbench

# What an author builds against: the C ABI, the strategy and family helpers, the device
# generators a family checks with, the family headers and their scaffolds, kbench_add_plugin and
# kbench_add_family; and the in-tree families' libraries beside the built-in strategies.
for header in plugin.h plugin.hpp support/strategy.hpp support/family.hpp support/generated.cuh \
              families/transpose.hpp families/reduce.hpp families/matmul.hpp; do
  test -f "$prefix/include/kbench/$header"
done
grep -q '^function(kbench_add_family' "$prefix"/lib*/cmake/kbench/KbenchPlugin.cmake
grep -q '^function(kbench_add_plugin' "$prefix"/lib*/cmake/kbench/KbenchPlugin.cmake
for family in transpose reduce matmul hello; do
  test -f "$prefix"/lib*/kbench/plugins/${family}_family.so
done

"$kbench" new-plugin mine --family transpose --host -o "$work/mine" >/dev/null
cmake -S "$work/mine" -B "$work/mine/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/mine/build" >/dev/null
"$kbench" validate "$work/mine/build/mine.so" | tee "$work/validate.txt"
grep '^valid: ' "$work/validate.txt" >/dev/null
grep -q "^referee: the transpose family's library (version .*$prefix/lib.*/transpose_family.so)" \
  "$work/validate.txt"

"$kbench" run --plugins "$work/mine/build" --plugin 'transpose/mine' --plugin transpose/cpu \
  --sizes 64,33x31 --dtypes int32 --max-time 0.02 --output "$work/r.csv" >/dev/null 2>&1
test "$(grep -c ',transpose,transpose/mine,.*,ok,' "$work/r.csv")" -eq 2
test "$(grep -c ',transpose,transpose/cpu,.*,ok,' "$work/r.csv")" -eq 2
# The referee column (then cupti_us, cupti_kernels and counters, which hold no comma, a kernel file's three, the code and the kernels, empty here for host plugins): the family's library judged both (version 3 strategies).
test "$(grep -c ',transpose,transpose/.*,ok,.*,family,[^,]*,[^,]*,[^,]*,,,,,$' "$work/r.csv")" -eq 4

# Every scaffold the SDK ships builds, host and CUDA; each validates (with cases where a GPU is
# present for the CUDA ones).
for scaffold in "$prefix"/include/kbench/families/templates/*.in; do
  base=$(basename "$scaffold" .in)
  family=${base%%.*}
  host=""
  [[ $base == *.host.cpp ]] && host="--host"
  name=scaffolded_${family}${host:+_host}
  "$kbench" new-plugin "$name" --family "$family" $host -o "$work/$name" >/dev/null
  cmake -S "$work/$name" -B "$work/$name/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
  cmake --build "$work/$name/build" >/dev/null
  "$kbench" validate "$work/$name/build/$name.so" | tee "$work/validate.txt"
  grep -E '^valid: |no CUDA device here' "$work/validate.txt" >/dev/null
  grep -q "^referee: the $family family's library" "$work/validate.txt"
done
test "$(ls "$prefix"/include/kbench/families/templates/*.in | wc -l)" -eq 6
echo "sdk: ok"
