#!/usr/bin/env python3
"""Times kbench's reading commands on a long nightly history, made from the committed rows.

    scripts/history-bench.py KBENCH ROWS [ROWS...] [--folder DIR] [--keep]

For each size, a results file of that many rows: the committed H100 and H200 default sweeps
(results/h100.csv, results/h200.csv, one run each), night after night, one run id a night, the
medians jittered by 1% (a fixed seed: the same file every time). Then each reading command runs
once on it, and a table gives its seconds and peak resident memory, and both per million rows:
`compare --by gpu --family transpose`, the gate between two nights, `report -o DIR --html`,
`report --history --html`, and a `run --resume` that finds its one case already in the file.
CI runs it at a small size as a smoke test; a command that fails is exit 1.
"""
import argparse
import csv
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def night_rows():
    """The rows of one night: a default sweep of each committed GPU model."""
    rows = []
    for name in ("h100.csv", "h200.csv"):
        with open(os.path.join(ROOT, "results", name), newline="") as f:
            reader = csv.DictReader(f)
            header = reader.fieldnames
            by_run = {}
            for row in reader:
                by_run.setdefault(row["run_id"], []).append(row)
        # The largest run of the file: its default sweep.
        rows += max(by_run.values(), key=len)
    return header, rows


def make_history(path, count):
    header, night = night_rows()
    jitter = random.Random(20261201)
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
        writer.writeheader()
        written, n = 0, 0
        while written < count:
            n += 1
            run_id = f"nightly-{n:05d}"
            day = f"2026-{1 + (n // 28) % 12:02d}-{1 + n % 28:02d}T02:00:00Z"
            for row in night:
                if written == count:
                    break
                out = dict(row)
                out["run_id"] = run_id
                out["timestamp_utc"] = day
                for column in ("median_us", "min_us", "mean_us"):
                    try:
                        out[column] = f"{float(row[column]) * (1 + jitter.uniform(-0.01, 0.01)):.6g}"
                    except ValueError:
                        pass
                writer.writerow(out)
                written += 1
    return n


def timed(command, log):
    """Runs a command; its wall seconds, peak resident MB and exit code."""
    start = time.monotonic()
    with open(log, "w") as out:
        child = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(child.pid, 0)
    seconds = time.monotonic() - start
    return seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kbench")
    parser.add_argument("rows", type=int, nargs="+")
    parser.add_argument("--folder", help="where the files go (default: a temporary folder)")
    parser.add_argument("--keep", action="store_true", help="keep the files")
    args = parser.parse_args()
    folder = args.folder or tempfile.mkdtemp(prefix="kbench-history-")
    os.makedirs(folder, exist_ok=True)
    failed = False
    print("| rows | command | seconds | peak MB | s per 1M rows | MB per 1M rows | exit |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    try:
        for count in args.rows:
            csv_path = os.path.join(folder, f"history-{count}.csv")
            nights = make_history(csv_path, count)
            last, before = f"nightly-{nights - 1:05d}", f"nightly-{max(nights - 2, 1):05d}"
            out = os.path.join(folder, f"report-{count}")
            commands = {
                "compare --by gpu --family transpose":
                    ["compare", csv_path, "--by", "gpu", "--family", "transpose"],
                "gate (two nights)":
                    ["compare", csv_path, "--baseline-run", before, "--run", last,
                     "--fail-slower", "1000"],
                "report --html":
                    ["report", csv_path, "-o", out, "--html", out + ".html"],
                "report --history --html":
                    ["report", csv_path, "--history", "-o", out + "-history", "--html",
                     out + "-history.html"],
                "run --resume (one case, in the file)":
                    ["run", "--plugin", "transpose/cpu", "--sizes", "64", "--dtypes", "float32",
                     "--output", csv_path, "--run-id", "nightly-00001", "--resume"],
            }
            for name, arguments in commands.items():
                log = os.path.join(folder, f"{name.split()[0]}-{count}.log")
                seconds, mb, code = timed([args.kbench] + arguments, log)
                # The gate may find a case slower (exit 1); anything else is a failure.
                ok = code == 0 or (code == 1 and name.startswith("gate"))
                failed |= not ok
                per = 1e6 / count
                print(f"| {count} | `{name}` | {seconds:.2f} | {mb:.0f} | {seconds * per:.2f} | "
                      f"{mb * per:.0f} | {code}{'' if ok else ' FAILED: ' + log} |", flush=True)
            if not args.keep:
                os.remove(csv_path)
    finally:
        if not args.keep and not args.folder:
            shutil.rmtree(folder, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
