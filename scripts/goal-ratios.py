#!/usr/bin/env python3
"""The goal ratios from one results CSV, one table per GPU model and run.

    scripts/goal-ratios.py results/h100.csv [--run RUN_ID]

Each line: the two sides' median (batch_us) in microseconds, and B's median over A's (above 1:
A is faster). Only `ok` rows count; a goal whose rows are missing from a run is left out. A run
with --repetitions N has N rows a case: each side is then the median of its N medians (and of its
N batch_us), and the line adds N and the range of the N repetitions' own ratios.
"""
import argparse
import csv
import collections
import statistics

GOALS = (
    [("matmul/tensor_wgmma", "matmul/cublas_tf32", "float32", s, "", 0.95)
     for s in ("4096x4096x4096", "8192x8192x8192")]
    + [("matmul/tensor_bf16", "matmul/cublas_bf16", "float32", s, "", 0.95)
       for s in ("4096x4096x4096", "8192x8192x8192")]
    + [("matmul/regblock", "matmul/cublas", "float32", "4096x4096x4096", "", 0.90)]
    + [("transpose/fast", other, d, s, "", goal)
       for d in ("float32", "float64") for s in ("2048x2048", "8192x8192", "8192x4096")
       for other, goal in (("transpose/cublas", 1.0), ("transpose/copy", None))]
    + [("reduce/fast", "reduce/cub", d, s, op, 1.0)
       for d in ("float32", "int32") for s in ("67108864", "268435456") for op in ("sum", "sumsq")]
)


def median_of(case_rows, column):
    return statistics.median(float(r[column]) for r in case_rows)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("csv")
    parser.add_argument("--run", help="only this run id")
    args = parser.parse_args()
    rows = collections.defaultdict(lambda: collections.defaultdict(list))  # (gpu, run) -> case -> rows
    for r in csv.DictReader(open(args.csv, newline="")):
        if r["status"] != "ok" or (args.run and r["run_id"] != args.run):
            continue
        case = (r["plugin"], r["dtype"], r["shape"], r["op"])
        defaults = (None, "", "tile_bytes=auto", "tile_bytes=512",
                    "tile_bytes=auto;tile_height=auto",
                    "tile_bytes=auto;tile_height=auto;tile_order=auto;kernel=auto")
        if r["plugin"] == "transpose/fast" and r.get("params") not in defaults:
            continue  # the default tile only (auto; 512 before it), as a plain run uses it
        rows[(r["gpu_name"], r["run_id"])][case].append(r)
    for (gpu, run), cases in sorted(rows.items()):
        lines = []
        for a, b, dtype, shape, op, goal in GOALS:
            ra, rb = cases.get((a, dtype, shape, op)), cases.get((b, dtype, shape, op))
            if not ra or not rb:
                continue
            med_a, med_b = median_of(ra, "median_us"), median_of(rb, "median_us")
            ratio = med_b / med_a
            goal_text = "-" if goal is None else f"{goal:.2f}"
            if b == "transpose/copy" and dtype == "float32" and shape == "8192x8192":
                goal_text = "0.97 (H100), 0.95 (H200)"
            case = " ".join(part for part in (dtype, op, shape) if part)
            if len(ra) > 1 or len(rb) > 1:
                by_rep_b = {r["repetition"]: float(r["median_us"]) for r in rb}
                each = [by_rep_b[r["repetition"]] / float(r["median_us"])
                        for r in ra if r["repetition"] in by_rep_b]
                if each:
                    case += f" ({len(each)} repetitions: {min(each):.3f}-{max(each):.3f})"
            lines.append(f"| {a} vs {b} {case} | {med_a:g} ({median_of(ra, 'batch_us'):g}) "
                         f"| {med_b:g} ({median_of(rb, 'batch_us'):g}) | {ratio:.3f} "
                         f"| {goal_text} |")
        reduce_vs_copy = []
        for (plugin, dtype, shape, op), case_rows in sorted(cases.items()):
            goal_size = shape in ("67108864", "268435456")
            if plugin == "reduce/fast" and case_rows[0].get("peak") == "copy" and goal_size:
                fraction = median_of(case_rows, "fraction_of_peak")
                reduce_vs_copy.append(f"{dtype} {op} {shape}: {fraction:.3f}")
        if not lines:
            continue
        print(f"\n### {gpu}, run {run}\n")
        print("| goal: A vs B | A median (batch_us) | B median (batch_us) | B / A | goal |")
        print("|---|---:|---:|---:|---|")
        print("\n".join(lines))
        if reduce_vs_copy:
            print("\nreduce/fast against the copy bandwidth (fraction_of_peak): "
                  + "; ".join(reduce_vs_copy))


if __name__ == "__main__":
    main()
