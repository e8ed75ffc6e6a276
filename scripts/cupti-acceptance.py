#!/usr/bin/env python3
"""CUPTI's acceptance figures from the files `scripts/gpu-check.sh cupti` leaves in its OUT
folder (each part is left out, with a line saying so, where its file is missing):

  cupti-dram.csv     transpose/copy 8192^2 float32 with --metrics memory (kbench's DRAM throughput)
  ncu-dram.md        scripts/ncu-compare.sh --dram's table for the same case (Nsight Compute's)
  cupti-banks.csv    transpose/shared and shared_padded 8192^2 float32 32x32 with --metrics shared
  cupti-private.csv  plugins whose kernel runs on a private stream (header_only/own_stream, the
                     red-team's transpose/cheat_private_stream)
  cupti-sweep.csv    the default sweep three times: run ids cupti-clock (as kbench runs by
                     default), cupti-off (--no-cupti) and cupti-metrics (--metrics memory)
  cupti-clock.md, cupti-off.md, cupti-metrics.md   those runs' standard output (their `time:` line)

  cupti-acceptance.py OUT_DIR

Prints one numbered line per acceptance item (as docs/measurement.md's "The fourth clock on an
H100" and results/notes/cupti.md take them), with the rows behind a miss after it.
"""
import csv
import os
import re
import sys

SWEEP_RUNS = {"clock": "cupti-clock", "off": "cupti-off", "metrics": "cupti-metrics"}


def read_rows(path):
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def counters(row):
    """The `counters` cell as a dictionary of floats (device/counters.hpp's name=value;...)."""
    out = {}
    for item in (row.get("counters") or "").split(";"):
        name, _, value = item.partition("=")
        try:
            out[name] = float(value)
        except ValueError:
            pass
    return out


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def case_text(r):
    parts = [r["plugin"], r["dtype"], r.get("op", ""), r["shape"], r["block"], r.get("params", "")]
    return " ".join(p for p in parts if p)


def missing(item, what):
    print(f"{item}. (not measured: {what} is missing)")


def dram(out):
    rows = read_rows(os.path.join(out, "cupti-dram.csv"))
    copy = [r for r in rows or [] if r["plugin"] == "transpose/copy"]
    if not copy:
        missing(1, "cupti-dram.csv")
        return
    r = copy[-1]
    c = counters(r)
    pct = c.get("dram_throughput")
    ncu = None
    table = os.path.join(out, "ncu-dram.md")
    if os.path.exists(table):
        for line in open(table):
            cells = [x.strip() for x in line.strip().strip("|").split("|")]
            if cells and cells[0].startswith("transpose/copy float32 8192"):
                ncu = number(cells[2]) if len(cells) > 2 else None
    if pct is None:
        print(f"1. transpose/copy 8192^2 float32: no dram_throughput counter ({r['status']}; "
              f"counters '{r.get('counters', '')}')")
        return
    moved = (c.get("dram_read_bytes", 0) + c.get("dram_write_bytes", 0)) / 2 ** 20
    line = (f"1. transpose/copy 8192^2 float32: DRAM throughput {pct:.2f}% of peak (at least 80%: "
            f"{'yes' if pct >= 80 else 'NO'}), {moved:.0f} MiB moved, median {r['median_us']} us")
    if ncu is None:
        line += "; Nsight Compute: not measured (ncu-dram.md has no figure: is ncu on the PATH?)"
    else:
        line += (f"; Nsight Compute dram__throughput.avg.pct_of_peak_sustained_elapsed {ncu:.2f}%, "
                 f"difference {pct - ncu:+.2f} points (within 2: "
                 f"{'yes' if abs(pct - ncu) <= 2 else 'NO'})")
    print(line)


def banks(out):
    rows = read_rows(os.path.join(out, "cupti-banks.csv"))
    if not rows:
        missing(2, "cupti-banks.csv")
        return
    found = {}
    for r in rows:
        c = counters(r)
        if "shared_load_bank_conflicts" in c or "shared_store_bank_conflicts" in c:
            found[r["plugin"]] = (c.get("shared_load_bank_conflicts", 0),
                                  c.get("shared_store_bank_conflicts", 0), r["median_us"])
    parts = []
    for plugin in ("transpose/shared", "transpose/shared_padded"):
        if plugin in found:
            load, store, median = found[plugin]
            parts.append(f"{plugin} {load + store:.0f} (load {load:.0f}, store {store:.0f}; "
                         f"{median} us)")
        else:
            parts.append(f"{plugin} no counters")
    verdict = ""
    if len(found) == 2:
        plain = sum(found["transpose/shared"][:2])
        padded = sum(found["transpose/shared_padded"][:2])
        verdict = (f": the padding removes {100 * (1 - padded / plain):.1f}% of them"
                   if plain > 0 else ": no conflicts without the padding either")
    print("2. bank conflicts, transpose 8192^2 float32 32x32: " + ", ".join(parts) + verdict)


def agreement(rows):
    clock = [r for r in rows if r["run_id"] == SWEEP_RUNS["clock"] and r["status"] == "ok"
             and number(r["cupti_us"]) is not None and (number(r["median_us"]) or 0) >= 20]
    if not clock:
        print("3. default sweep: no ok row of 20 us or more with cupti_us (was CUPTI loaded?)")
        return
    ratio = lambda r: number(r["cupti_us"]) / number(r["median_us"])
    strict = [r for r in clock if abs(ratio(r) - 1) <= 0.03]
    # A launch of several kernels: the held median holds the gap between them (about 1 us each),
    # which the kernels' own durations do not.
    gaps = lambda r: max(0.0, (number(r["cupti_kernels"]) or 1) - 1)
    loose = [r for r in clock if abs(number(r["cupti_us"]) - number(r["median_us"]))
             <= 0.03 * number(r["median_us"]) + gaps(r)]
    held = [r for r in clock if r["timing"] == "held"]
    held_strict = [r for r in held if abs(ratio(r) - 1) <= 0.03]
    print(f"3. default sweep, ok rows of 20 us or more: cupti_us within 3% of median_us in "
          f"{len(strict)} of {len(clock)} ({100 * len(strict) / len(clock):.1f}%); with 1 us per "
          f"extra kernel {len(loose)} ({100 * len(loose) / len(clock):.1f}%); held rows within 3%: "
          f"{len(held_strict)} of {len(held)}")
    off = sorted((r for r in clock if r not in loose), key=lambda r: -abs(ratio(r) - 1))
    for r in off[:15]:
        print(f"   {case_text(r)} ({r['timing']}): cupti {r['cupti_us']} us, median "
              f"{r['median_us']} us ({ratio(r):.3f}), {r['cupti_kernels']} kernels")
    noted = [r for r in rows if r["run_id"] == SWEEP_RUNS["clock"] and "CUPTI" in r["message"]]
    print(f"   rows with a CUPTI note or check: {len(noted)}")
    for r in noted[:15]:
        print(f"   {case_text(r)} {r['status']}: {r['message'][:200]}")


def private(out):
    rows = read_rows(os.path.join(out, "cupti-private.csv"))
    if not rows:
        missing(4, "cupti-private.csv")
        return
    parts = []
    for r in rows:
        caught = "CUPTI stream check" in r["message"]
        parts.append(f"{r['plugin']} {r['shape']}: {r['status']}, "
                     f"{'caught by CUPTI' if caught else 'NOT named by CUPTI'} "
                     f"({r['cupti_kernels'] or '-'} kernels traced)")
    print("4. a kernel on a private stream: " + "; ".join(parts))
    for r in rows:
        print(f"   {r['plugin']} {r['shape']}: {r['message'][:240]}")


# run_progress.cpp's closing line: "time: 84.4 s; summed over the lanes: 39 worker starts 5.8 s,
# setup 25.2 s, timing 60.6 s, verify 22.4 s (of the timing: CUPTI clock 1.20 s, counters 9.50 s)".
TIME = re.compile(r"^time: ([0-9.]+) s; summed over the lanes: .*, timing ([0-9.]+) s, verify "
                  r"[0-9.]+ s(?: \(of the timing: CUPTI clock ([0-9.]+) s(?:, counters ([0-9.]+) s)?\))?")


def time_of(out, how):
    path = os.path.join(out, f"cupti-{how}.md")
    if not os.path.exists(path):
        return None
    for line in open(path):
        m = TIME.match(line)
        if m:
            wall, timing, clock, counted = (float(g) if g else 0.0 for g in m.groups())
            return {"wall": wall, "timing": timing, "clock": clock, "counters": counted,
                    "line": line.strip()}
    return None


def key(r):
    return (r["plugin"], r["dtype"], r.get("op", ""), r["shape"], r["block"], r.get("params", ""))


def medians_moved(rows):
    """Whether tracing a batch after a case's samples moves the next cases' medians: the same GPU
    cases in the clock's sweep and in --no-cupti's."""
    if rows is None:
        return ""
    by_run = {how: {key(r): number(r["median_us"]) for r in rows
                    if r["run_id"] == run and r["status"] == "ok" and r["timing"] != "host"
                    and number(r["median_us"])}
              for how, run in SWEEP_RUNS.items()}
    ratios = sorted(by_run["clock"][k] / by_run["off"][k] for k in by_run["clock"]
                    if k in by_run["off"])
    if not ratios:
        return ""
    mid = ratios[len(ratios) // 2]
    beyond = sum(1 for x in ratios if abs(x - 1) > 0.03)
    return (f"; GPU medians with the clock against --no-cupti: median ratio {mid:.4f} over "
            f"{len(ratios)} cases, {beyond} beyond 3%")


def cost(out, rows):
    t = {how: time_of(out, how) for how in SWEEP_RUNS}
    if not t["clock"] or not t["off"]:
        missing(5, "the time: line of cupti-clock.md or cupti-off.md")
        return
    clock, off = t["clock"], t["off"]
    line = (f"5. default sweep wall time: with the clock {clock['wall']:.1f} s, --no-cupti "
            f"{off['wall']:.1f} s ({100 * (clock['wall'] / off['wall'] - 1):+.1f}%); the clock's "
            f"own time summed over the lanes {clock['clock']:.2f} s "
            f"({100 * clock['clock'] / clock['wall']:.1f}% of the wall time: at most 3%: "
            f"{'yes' if clock['clock'] <= 0.03 * clock['wall'] else 'NO'})" + medians_moved(rows))
    if t["metrics"]:
        m = t["metrics"]
        line += (f"; --metrics memory {m['wall']:.1f} s ({100 * (m['wall'] / off['wall'] - 1):+.1f}%"
                 f" over --no-cupti, +{m['wall'] - off['wall']:.1f} s; counters "
                 f"{m['counters']:.1f} s summed over the lanes)")
    else:
        line += "; --metrics memory: not measured"
    print(line)
    for how in SWEEP_RUNS:
        if t[how]:
            print(f"   {how}: {t[how]['line']}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    print("The fourth clock's acceptance (docs/measurement.md, results/notes/cupti.md)")
    dram(out)
    banks(out)
    sweep = read_rows(os.path.join(out, "cupti-sweep.csv"))
    if sweep is None:
        missing(3, "cupti-sweep.csv")
    else:
        agreement(sweep)
    private(out)
    cost(out, sweep)


if __name__ == "__main__":
    main()
