#!/usr/bin/env python3
"""The code that ran, from a CSV written by `scripts/gpu-check.sh generations` (it reruns on the
CSV alone).

  generations-check.py CSV [NATIVE_RUN PTX_RUN SECOND_NATIVE_RUN]

Per run, the rows by the code they say ran (the `code` column: `sm_90`, `ptx-jit compute_80`...;
none for a plugin without kernels of its own); the GPU rows of the PTX run that did not run PTX
compiled by the driver (the sm_90a matmuls, built for that alone), and the native runs' that did
not run machine code; then the same ok cases' medians, the PTX run over the first native
run beside the second native run over the first (the run-to-run noise), and the cases that differ
by more than 3%.
"""
import csv
import statistics
import sys
from collections import Counter, defaultdict

THRESHOLD = 0.03


def key(r):
    return (r["plugin"], r["dtype"], r["op"], r["shape"], r["block"], r["params"])


def code_class(code):
    return code.split(" (")[0] if code else "(none)"


def main(path, native="native-1", ptx="ptx80", native_again="native-2"):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["run_id"] in (native, ptx, native_again)]
    medians = defaultdict(dict)
    for run in (native, ptx, native_again):
        mine = [r for r in rows if r["run_id"] == run]
        print(f"{run}: {len(mine)} rows, status {dict(Counter(r['status'] for r in mine))}")
        print(f"  code: {dict(Counter(code_class(r.get('code', '')) for r in mine if r['gpu_name']))}")
        for r in mine:
            if r["status"] == "ok" and r["gpu_name"]:
                medians[run][key(r)] = (float(r["median_us"]), r.get("code", ""))
    # A plugin without kernels of its own (a cuBLAS call, a cudaMemcpy) says no code: not counted.
    unexpected = [(r["run_id"], r["plugin"], r["code"]) for r in rows
                  if r["gpu_name"] and r["status"] == "ok" and r.get("code") and
                  (r["code"].startswith("ptx-jit") != (r["run_id"] == ptx))]
    print(f"ok GPU rows whose code is not the run's kind: {len(unexpected)}")
    for run, plugin, code in sorted(set(unexpected)):
        print(f"  {run} {plugin}: {code or '(none)'}")

    def ratios(run):
        both = sorted(set(medians[native]) & set(medians[run]))
        return {k: medians[run][k][0] / medians[native][k][0] for k in both}

    for run, what in ((ptx, "PTX over native"), (native_again, "native again over native")):
        r = ratios(run)
        if not r:
            print(f"{what}: no case in both runs")
            continue
        values = sorted(r.values())
        beyond = [k for k, v in r.items() if abs(v - 1) > THRESHOLD]
        print(f"{what}: {len(values)} cases, median ratio {statistics.median(values):.4f}, "
              f"range {values[0]:.3f}-{values[-1]:.3f}, {len(beyond)} beyond {THRESHOLD:.0%}")
        if run == ptx:
            noise = ratios(native_again)
            for k in sorted(beyond, key=lambda k: -abs(r[k] - 1))[:20]:
                again = f"{noise[k]:.3f}" if k in noise else "-"
                print(f"  {r[k]:.3f} (native again {again}) {' '.join(x for x in k if x)}: "
                      f"{medians[ptx][k][1]} against {medians[native][k][1]}")


if __name__ == "__main__":
    if len(sys.argv) not in (2, 5):
        sys.exit(__doc__)
    main(*sys.argv[1:])
