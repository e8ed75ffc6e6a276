#!/usr/bin/env python3
"""The fair-timing acceptance figures from CSVs written by `scripts/gpu-check.sh fair`.

  timing-check.py sweep CSV          rows not timed `held` and why; ok rows >= 20 us whose median
                                     and batch_us differ by more than 3%
  timing-check.py pair CSV RUN_A RUN_B   the same cases' medians in two runs, side by side
  timing-check.py groups CSV PREFIX_A PREFIX_B   the same, each side the median over the runs
                                     whose id starts with its prefix (run-to-run placement noise)
"""
import statistics
import csv
import sys
from collections import Counter


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def key(r):
    return (r["plugin"], r["dtype"], r["op"], r["shape"], r["block"])


def sweep(path):
    all_rows = rows(path)
    print(f"{len(all_rows)} rows; status: {dict(Counter(r['status'] for r in all_rows))}")
    print(f"timing: {dict(Counter(r['timing'] for r in all_rows))}")
    not_held = Counter((r["plugin"], r["message"][:90]) for r in all_rows
                       if r["timing"] == "plain")
    for (plugin, why), n in sorted(not_held.items()):
        print(f"  plain x{n}: {plugin}: {why}")
    checked = off = 0
    for r in all_rows:
        if r["status"] != "ok" or not r["batch_us"] or float(r["median_us"]) < 20:
            continue
        checked += 1
        ratio = float(r["batch_us"]) / float(r["median_us"])
        if abs(ratio - 1) > 0.03:
            off += 1
            print(f"  batch/median {ratio:.3f}: {' '.join(key(r))} median {r['median_us']} "
                  f"batch {r['batch_us']} host {r['host_us']}")
    print(f"ok rows >= 20 us: {checked}; median and batch_us more than 3% apart: {off}")
    notes = [r for r in all_rows if r["status"] == "ok" and "self-check" in r["message"]]
    for r in notes:
        print(f"  note: {' '.join(key(r))}: {r['message'][:160]}")
    for r in all_rows:
        if r["status"] not in ("ok", "unsupported"):
            print(f"  {r['status']}: {' '.join(key(r))}: {r['message'][:160]}")


def pair(path, run_a, run_b):
    by_run = {run_a: {}, run_b: {}}
    for r in rows(path):
        if r["run_id"] in by_run and r["status"] == "ok":
            by_run[r["run_id"]][key(r)] = r
    print(f"| case | {run_a} median (batch) | {run_b} median (batch) | ratio |")
    print("|---|---:|---:|---:|")
    for k, a in sorted(by_run[run_a].items()):
        b = by_run[run_b].get(k)
        if b is None:
            continue
        ratio = float(a["median_us"]) / float(b["median_us"])
        print(f"| {' '.join(x for x in k if x)} | {a['median_us']} ({a['batch_us']}) | "
              f"{b['median_us']} ({b['batch_us']}) | {ratio:.4f} |")


def groups(path, prefix_a, prefix_b):
    medians = {prefix_a: {}, prefix_b: {}}
    for r in rows(path):
        for prefix in medians:
            if r["run_id"].startswith(prefix) and r["status"] == "ok":
                medians[prefix].setdefault(key(r), []).append(float(r["median_us"]))
    print(f"| case | {prefix_a}* medians | {prefix_b}* medians | ratio of their medians |")
    print("|---|---|---|---:|")
    for k, a in sorted(medians[prefix_a].items()):
        b = medians[prefix_b].get(k)
        if b is None:
            continue
        ratio = statistics.median(a) / statistics.median(b)
        print(f"| {' '.join(x for x in k if x)} | {', '.join(map(str, a))} | "
              f"{', '.join(map(str, b))} | {ratio:.4f} |")


if __name__ == "__main__":
    {"sweep": sweep, "pair": pair, "groups": groups}[sys.argv[1]](*sys.argv[2:])
