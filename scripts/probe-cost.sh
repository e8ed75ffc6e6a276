#!/usr/bin/env bash
# What loading the plugins costs: the median wall and CPU seconds of `kbench list` and of planning
# the default sweep (a run whose shard is empty: it ends once the plan is made), each a probe
# process per plugin file (docs/nothing-lost.md). Usage: scripts/probe-cost.sh [KBENCH] [RUNS]
set -euo pipefail
kbench=${1:-build/bin/kbench}
runs=${2:-9}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for ((i = 0; i < runs; ++i)); do
  /usr/bin/time -a -o "$out/list" -f "%e %U %S" "$kbench" list >/dev/null 2>&1
  /usr/bin/time -a -o "$out/plan" -f "%e %U %S" "$kbench" run --shard 999999/1000000 \
    --output "$out/plan.csv" >/dev/null 2>&1
done
median() { sort -n | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for phase in list plan; do
  wall=$(awk '{print $1}' "$out/$phase" | median)
  cpu=$(awk '{print $2 + $3}' "$out/$phase" | median)
  echo "$phase: ${wall} s wall, ${cpu} s CPU (median of $runs; $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
done
