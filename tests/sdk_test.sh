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
done
test "$(ls "$prefix"/include/kbench/families/templates/*.in | wc -l)" -eq 6
echo "sdk: ok"
