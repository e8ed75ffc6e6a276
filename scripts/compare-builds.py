#!/usr/bin/env python3
"""compare-builds.py BASE.csv THIS.csv [--by-run | --pooled]: two builds' rows of the same sweep,
case by case.

With --by-run, a case is also known by its run id (each build ran the same presets under the same
run ids: gpu-check.sh against), so a case two presets share is compared preset by preset.
With --pooled, each CSV holds several runs of one sweep (gpu-check.sh medians): a case's median is
the median of its runs' medians, the builds' medians are compared as below, and beside them each
build's own spread (its largest run median over its smallest) and what one run of a build against
another run of the same build gives, which is as close as two single runs can agree.

Prints the cases whose status differs, and the medians of the cases both call `ok`: how many are
within 1% and the largest differences, so a change to the worker or the referee can be held to
"the same statuses, every median within 1% of the previous build's, in the same call".
"""
import csv
import statistics
import sys


def rows(path, by_run):
    cases = {}
    for row in csv.DictReader(open(path)):
        cases[case_key(row) + ((row["run_id"],) if by_run else ())] = row
    return cases


def case_key(row):
    return (row["plugin"], row["dtype"], row["op"], row["shape"], row["block"], row["params"])


def run_medians(path):
    """{case: {run id: median}} of the rows that are ok."""
    cases = {}
    for row in csv.DictReader(open(path)):
        if row["status"] == "ok" and row["median_us"]:
            cases.setdefault(case_key(row), {})[row["run_id"]] = float(row["median_us"])
    return cases


def within(ratios, share):
    return sum(1 for r in ratios if abs(r - 1) <= share)


def pooled(base_path, this_path):
    base, this = run_medians(base_path), run_medians(this_path)
    common = sorted(k for k in set(base) & set(this) if len(base[k]) > 1 and len(this[k]) > 1)
    print(f"cases ok in at least two runs of each build: {len(common)}")
    ratios, spreads, worst = [], {"base": [], "this": []}, []
    same_build = []
    for k in common:
        b, t = statistics.median(base[k].values()), statistics.median(this[k].values())
        ratios.append(t / b)
        spread_b = max(base[k].values()) / min(base[k].values()) - 1
        spread_t = max(this[k].values()) / min(this[k].values()) - 1
        spreads["base"].append(spread_b)
        spreads["this"].append(spread_t)
        runs = sorted(base[k])
        same_build.append(base[k][runs[1]] / base[k][runs[0]])
        worst.append((abs(t / b - 1) - max(spread_b, spread_t), t / b, spread_b, spread_t, k, b, t))
    n = len(common)
    print(f"one run of the base build against another (its first two runs): "
          f"{within(same_build, 0.01)} of {n} within 1%")
    print(f"this build's median of its runs against the base's: {within(ratios, 0.01)} of {n} "
          f"within 1%, {within(ratios, 0.03)} within 3%, median ratio "
          f"{statistics.median(ratios):.4f}")
    beyond = [w for w in worst if w[0] > 0 and abs(w[1] - 1) > 0.01]
    print(f"beyond 1% and beyond both builds' own spread: {len(beyond)}")
    for name in ("base", "this"):
        print(f"  {name} build's spread over its runs: {within([1 + s for s in spreads[name]], 0.01)}"
              f" of {n} within 1%, largest {100 * max(spreads[name]):.1f}%")
    for gap, ratio, spread_b, spread_t, k, b, t in sorted(worst, reverse=True)[:10]:
        print(f"  {ratio:.4f} {' '.join(k[:5] + k[6:])} ({b:.4g} -> {t:.4g} us; spread "
              f"{100 * spread_b:.1f}% / {100 * spread_t:.1f}%)")


def main():
    if "--pooled" in sys.argv[3:]:
        pooled(sys.argv[1], sys.argv[2])
        return
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
