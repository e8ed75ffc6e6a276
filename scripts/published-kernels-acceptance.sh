#!/usr/bin/env bash
# Published kernels on a GPU machine (about three minutes on an H100):
#
#   1. nvcc against NVRTC: every device-only kernel of examples/kernels/ and the process tests'
#      transpose, each in one run compiled by nvcc (KBENCH_KERNEL_COMPILER=nvcc) and one by NVRTC,
#      and the two medians of each case side by side: the acceptance asks for 2%.
#   2. The two-pass reduction as published (examples/kernels/reduce_two_pass.cu, host code and
#      all: nvcc only) at 2^24 and 2^26, float32 and int32, beside reduce/cub: every row `ok`.
#   3. The tutorial-style SGEMM (examples/kernels/sgemm_tiled.cu) at 1024 and 4096 beside
#      matmul/cublas: its rows and medians, for the record; and the same file with C zeroed
#      inside each launch ("zero": "launch") beside it zeroed outside the timed region
#      ("untimed", as published): what the memset cost the median.
#
# Usage: scripts/published-kernels-acceptance.sh [BUILD_DIR]  (default: build-device,
#        .device/build-device or build); OUT=DIR keeps the CSV and logs (default: under /tmp).
# Exit 0 when every row is ok and every nvcc/NVRTC pair is within 2%.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-}
if [ -z "$build" ]; then
  for candidate in build-device .device/build-device build; do
    if [ -x "$root/$candidate/bin/kbench" ]; then build=$root/$candidate && break; fi
  done
fi
build=$(cd "${build:-$root/build}" && pwd) || { echo "no build folder '${1:-build}'" >&2; exit 2; }
kbench=$build/bin/kbench
examples=$root/examples/kernels
out=${OUT:-$(mktemp -d /tmp/published-kernels.XXXXXX)}
mkdir -p "$out"
csv=$out/published.csv
export KBENCH_CACHE_DIR=$out/cache
command -v python3 >/dev/null || { echo "python3 is needed for the tables" >&2; exit 2; }

# The process tests' transpose (tests/process/kernel_file_test.cpp), as a file.
cat >"$out/test_transpose.cu" <<'KERNEL'
/* kbench
{ "family": "transpose", "entry": "k", "dtypes": ["float32"],
  "params": ["input:0", "output:0", "rows", "cols"],
  "block": ["bx", "by"], "grid": ["cdiv(cols, bx)", "cdiv(rows, by)"] }
*/
extern "C" __global__ void k(const T* in, T* out, int rows, int cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[static_cast<long long>(c) * rows + r] = in[static_cast<long long>(r) * cols + c];
}
KERNEL

both() {  # one case list, run by each compiler
  for compiler in nvcc nvrtc; do
    KBENCH_KERNEL_COMPILER=$compiler "$kbench" run "$@" --run-id "$compiler" --output "$csv" \
      --max-time 0.5 2>&1 | tee -a "$out/run.log" | grep -E "^kbench: |error" || true
  done
}
both --kernel "$examples/transpose_tile.cu" --sizes 2048,8192 --blocks 32x32 --dtypes float32
both --kernel "$examples/transpose_tiled.cu" --sizes 2048,8192 --dtypes float32
both --kernel "$examples/reduce_last_block.cu" --sizes 2^24,2^26 --blocks 256 --dtypes float32,int32
both --kernel "$examples/reduce_partials_in_output.cu" --sizes 2^24,2^26 --dtypes float32,float64
both --kernel "$out/test_transpose.cu" --sizes 2048,8192 --blocks 32x8 --dtypes float32
"$kbench" run --kernel "$examples/reduce_two_pass.cu" --plugin reduce/cub --sizes 2^24,2^26 \
  --dtypes float32,int32 --ops sum --run-id published --output "$csv" 2>&1 | tee -a "$out/run.log" | grep -E "^kbench: |error"
"$kbench" run --kernel "$examples/sgemm_tiled.cu" --plugin matmul/cublas --sizes 1024,4096 \
  --dtypes float32 --run-id published --output "$csv" 2>&1 | tee -a "$out/run.log" | grep -E "^kbench: |error"
sed 's/"zero": "untimed"/"zero": "launch"/' "$examples/sgemm_tiled.cu" >"$out/sgemm_tiled.cu"
"$kbench" run --kernel "$out/sgemm_tiled.cu" --sizes 1024,4096 --dtypes float32 \
  --run-id zeroed-inside --output "$csv" 2>&1 | tee -a "$out/run.log" | grep -E "^kbench: |error"

[ -s "$csv" ] || { echo "no rows in $csv (no CUDA device here?)"; exit 1; }
python3 - "$csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
failed = [r for r in rows if r["status"] != "ok"]
key = lambda r: (r["plugin"], r["dtype"], r["shape"], r["block"], r["op"], r["params"])
by = {}
for r in rows:
    if r["run_id"] in ("nvcc", "nvrtc") and r["status"] == "ok":
        by.setdefault(key(r), {})[r["run_id"]] = float(r["median_us"])
print("## nvcc against NVRTC (the same source)\n")
print("| case | nvcc us | nvrtc us | nvrtc/nvcc |\n|---|---:|---:|---:|")
worst = 0.0
for k, m in sorted(by.items()):
    if len(m) < 2:
        print(f"| {' '.join(x for x in k if x)} | {m.get('nvcc', '-')} | {m.get('nvrtc', '-')} | missing |")
        worst = float("inf")
        continue
    ratio = m["nvrtc"] / m["nvcc"]
    worst = max(worst, abs(ratio - 1))
    print(f"| {' '.join(x for x in k if x)} | {m['nvcc']:.2f} | {m['nvrtc']:.2f} | {ratio:.4f} |")
print(f"\nlargest difference: {100 * worst:.2f}% (the acceptance asks for at most 2%)\n")
print("## Published kernels beside the vendor libraries\n")
print("| plugin | dtype | shape | status | median us | kernel_compiler |\n|---|---|---|---|---:|---|")
for r in rows:
    if r["run_id"] == "published":
        print(f"| {r['plugin']} | {r['dtype']} | {r['shape']} | {r['status']} | {r['median_us']} | "
              f"{r['kernel_compiler'][:60]} |")
inside = {(r["plugin"], r["shape"]): r for r in rows if r["run_id"] == "zeroed-inside"}
print("\n## The SGEMM's C zeroed outside the timed region, and inside each launch\n")
print("| plugin | shape | untimed us (launches per sample) | inside us (launches) | inside/untimed |")
print("|---|---|---:|---:|---:|")
for r in rows:
    other = inside.get((r["plugin"], r["shape"]))
    if r["run_id"] != "published" or other is None or "ok" != r["status"] or "ok" != other["status"]:
        continue
    ratio = float(other["median_us"]) / float(r["median_us"])
    print(f"| {r['plugin']} | {r['shape']} | {r['median_us']} ({r['sample_launches']}) | "
          f"{other['median_us']} ({other['sample_launches']}) | {ratio:.4f} |")
for r in failed:
    print(f"NOT OK: {r['run_id']} {r['plugin']} {r['dtype']} {r['shape']}: {r['status']} {r['message']}")
two_pass = [r for r in rows if r["plugin"] == "reduce/reduce_two_pass"]
print(f"\ntwo-pass reduction: {sum(r['status'] == 'ok' for r in two_pass)} of 4 rows ok "
      "(2^24 and 2^26, float32 and int32)")
sys.exit(0 if not failed and worst <= 0.02 and len(two_pass) == 4 else 1)
PY
