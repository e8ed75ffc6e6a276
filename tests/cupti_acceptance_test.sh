#!/usr/bin/env bash
# scripts/cupti-acceptance.py, the summary `scripts/gpu-check.sh cupti` ends with, on files shaped
# as that run leaves them: rows in the header this kbench writes (taken from a real host run, so a
# renamed column fails here, not on the GPU machine) and closing lines as run_progress prints them.
set -euo pipefail
kbench=$1
source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$kbench" run --plugin transpose/cpu --sizes 64 --dtypes float32 --max-time 0.01 \
  --output "$work/header.csv" >/dev/null 2>&1
python3 - "$work" <<'PY'
import csv, os, sys
work = sys.argv[1]
header = next(csv.reader(open(os.path.join(work, "header.csv"))))

def write(name, rows):
    with open(os.path.join(work, name), "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header, extrasaction="raise", restval="")
        if f.tell() == 0:
            w.writeheader()
        for r in rows:
            w.writerow(r)

def row(plugin, shape, median, **cells):
    r = {"plugin": plugin, "dtype": "float32", "shape": shape, "block": "-", "status": "ok",
         "median_us": median, "timing": "held", "run_id": "cupti-clock"}
    r.update(cells)
    return r

write("cupti-dram.csv", [row("transpose/copy", "8192x8192", "187.2", run_id="cupti-dram",
      counters="dram_throughput=91.2;dram_read_bytes=268435456;dram_write_bytes=268435456")])
write("cupti-banks.csv", [
    row("transpose/shared", "8192x8192", "420", block="32x32", run_id="cupti-banks",
        counters="shared_load_bank_conflicts=62914560;shared_store_bank_conflicts=0;l1_hit_rate=0"),
    row("transpose/shared_padded", "8192x8192", "260", block="32x32", run_id="cupti-banks",
        counters="shared_load_bank_conflicts=120;shared_store_bank_conflicts=0;l1_hit_rate=0")])
write("cupti-private.csv", [
    row("header_only/own_stream", "65536", "2.1", status="implausible", cupti_kernels="1",
        run_id="cupti-private",
        message="CUPTI stream check: the 1 kernels, copies and memsets of a launch ran on another stream"),
    row("transpose/cheat_private_stream", "2048x2048", "3.0", status="implausible",
        cupti_kernels="1", run_id="cupti-private", message="stream check: no work on the stream")])
sweep = [row("transpose/fast", "8192x8192", "190.0", cupti_us="189.1", cupti_kernels="1"),
         row("reduce/cub", "67108864", "100.0", cupti_us="97.5", cupti_kernels="2"),
         row("matmul/tiled", "1024x1024x1024", "500.0", cupti_us="450.0", cupti_kernels="1"),
         row("transpose/fast", "1024x1024", "5.0", cupti_us="4.0", cupti_kernels="1"),
         row("transpose/cpu", "8192x8192", "90000", timing="host")]
off = [dict(r, run_id="cupti-off", cupti_us="", cupti_kernels="") for r in sweep]
off[2]["median_us"] = "480.0"  # matmul/tiled: 4% faster without the clock
sweep += off
write("cupti-sweep.csv", sweep)
PY
line() { printf 'time: %s s; summed over the lanes: 39 worker starts 5.8 s, setup 25.2 s, timing 60.6 s, verify 22.4 s%s\n' "$1" "$2"; }
line 84.4 " (of the timing: CUPTI clock 1.20 s)" >"$work/cupti-clock.md"
line 83.9 "" >"$work/cupti-off.md"
line 150.2 " (of the timing: CUPTI clock 1.31 s, counters 61.50 s)" >"$work/cupti-metrics.md"
printf '| case | kbench dram_throughput %% | ncu dram__throughput %% | difference (points) | within 2 | kbench DRAM bytes | ncu DRAM bytes |\n|---|---:|---:|---:|:-:|---:|---:|\n| transpose/copy float32 8192 | 91.20 | 90.70 | 0.50 | yes | 536870912 | 536870912 |\n' \
  >"$work/ncu-dram.md"

python3 "$source_dir/scripts/cupti-acceptance.py" "$work" | tee "$work/summary.md"
expect() { grep -qF -- "$1" "$work/summary.md" || { echo "FAIL: no line with: $1" >&2; exit 1; }; }
expect "1. transpose/copy 8192^2 float32: DRAM throughput 91.20% of peak (at least 80%: yes), 512 MiB moved, median 187.2 us; Nsight Compute dram__throughput.avg.pct_of_peak_sustained_elapsed 90.70%, difference +0.50 points (within 2: yes)"
expect "2. bank conflicts, transpose 8192^2 float32 32x32: transpose/shared 62914560 (load 62914560, store 0; 420 us), transpose/shared_padded 120 (load 120, store 0; 260 us): the padding removes 100.0% of them"
expect "3. default sweep, ok rows of 20 us or more: cupti_us within 3% of median_us in 2 of 3 (66.7%); with 1 us per extra kernel 2 (66.7%); held rows within 3%: 2 of 3"
expect "   matmul/tiled float32 1024x1024x1024 - (held): cupti 450.0 us, median 500.0 us (0.900), 1 kernels"
expect "4. a kernel on a private stream: header_only/own_stream 65536: implausible, caught by CUPTI (1 kernels traced); transpose/cheat_private_stream 2048x2048: implausible, NOT named by CUPTI (1 kernels traced)"
expect "5. default sweep wall time: with the clock 84.4 s, --no-cupti 83.9 s (+0.6%); the clock's own time summed over the lanes 1.20 s (1.4% of the wall time: at most 3%: yes); GPU medians with the clock against --no-cupti: median ratio 1.0000 over 4 cases, 1 beyond 3%; --metrics memory 150.2 s (+79.0% over --no-cupti, +66.3 s; counters 61.5 s summed over the lanes)"

# A part not measured is said, and the rest still printed.
rm "$work/ncu-dram.md" "$work/cupti-banks.csv" "$work/cupti-metrics.md"
python3 "$source_dir/scripts/cupti-acceptance.py" "$work" >"$work/summary.md"
expect "Nsight Compute: not measured"
expect "2. (not measured: cupti-banks.csv is missing)"
expect "--metrics memory: not measured"
echo "cupti acceptance summary: ok"
