#!/usr/bin/env python3
"""compare-builds.py BASE.csv THIS.csv [--by-run]: two builds' rows of the same sweep, case by case.

With --by-run, a case is also known by its run id (each build ran the same presets under the same
run ids: gpu-check.sh against), so a case two presets share is compared preset by preset.

Prints the cases whose status differs, and the medians of the cases both call `ok`: how many are
within 1% and the largest differences, so a change to the worker or the referee can be held to
"the same statuses, every median within 1% of the previous build's, in the same call".
"""
import csv
import sys


def rows(path, by_run):
    cases = {}
    for row in csv.DictReader(open(path)):
        key = (row["plugin"], row["dtype"], row["op"], row["shape"], row["block"], row["params"])
        cases[key + ((row["run_id"],) if by_run else ())] = row
    return cases


def main():
    by_run = "--by-run" in sys.argv[3:]
    base, this = rows(sys.argv[1], by_run), rows(sys.argv[2], by_run)
    common = sorted(set(base) & set(this))
    changed = [(k, base[k]["status"], this[k]["status"]) for k in common
               if base[k]["status"] != this[k]["status"]]
    print(f"cases: {len(common)} in both, {len(set(base) - set(this))} only in the base, "
          f"{len(set(this) - set(base))} only in this build; {len(changed)} changed status")
    for key, was, now in changed:
        print(f"  {' '.join(key[:5] + key[6:])}: {was} -> {now}: {this[key]['message'][:160]}")
    ratios = []
    for k in common:
        if base[k]["status"] == "ok" and this[k]["status"] == "ok" and base[k]["median_us"]:
            ratios.append((float(this[k]["median_us"]) / float(base[k]["median_us"]), k))
    ratios.sort()
    within = sum(1 for r, _ in ratios if abs(r - 1) <= 0.01)
    print(f"medians of {len(ratios)} ok cases: {within} within 1%, "
          f"{sum(1 for r, _ in ratios if abs(r - 1) <= 0.03)} within 3%")
    for r, k in ratios[:5] + ratios[-5:]:
        print(f"  {r:.4f} {' '.join(k[:5] + k[6:])} "
              f"({base[k]['median_us']} -> {this[k]['median_us']} us)")


if __name__ == "__main__":
    main()
