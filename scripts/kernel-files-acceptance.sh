#!/usr/bin/env bash
# Kernel files' acceptance on a GPU machine (written for an H100; about a minute and a half):
#
#   1. The seeds' 32x32 padded transpose tile four ways in ONE `kbench run`: (a) the in-tree
#      version 3 plugin transpose/shared_padded, (b) examples/kernels/transpose_tile.cu through
#      --kernel (NVRTC), (c) its PTX and (d) its cubin (both built by nvcc into
#      BUILD/examples/kernels), at 2048x2048 and 8192x8192 float32, block 32x32, each case REPS
#      times (default 3, each time in a fresh worker). Prints every row's status and a table of
#      the medians (the median over the repetitions) with each one's ratio to (a).
#   2. A brand-new .cu (the tile with a fresh comment: a content hash no cache holds, in an empty
#      KBENCH_CACHE_DIR) from nothing to its first verified row: the wall time of that one command,
#      compile included, then of the same command again (its code from the cache).
#   With SDK=1, also the SDK path for the same idea, timed command by command: install, new-plugin,
#   configure, build, validate, run (needs cmake and the toolkit's nvcc on the machine).
#
# Usage: scripts/kernel-files-acceptance.sh [BUILD_DIR]   (default: build-device, .device/build-device or build)
#        OUT=DIR keeps the CSVs and logs there (default: a new folder under /tmp); REPS=N.
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
examples=$build/examples/kernels
source_cu=$root/examples/kernels/transpose_tile.cu
reps=${REPS:-3}
out=${OUT:-$(mktemp -d /tmp/kernel-files-acceptance.XXXXXX)}
mkdir -p "$out"
for needed in "$kbench" "$source_cu" "$examples/transpose_tile.ptx" "$examples/transpose_tile.ptx.json" \
              "$examples/transpose_tile.cubin" "$examples/transpose_tile.cubin.json"; do
  [ -e "$needed" ] || { echo "missing: $needed (build the tree first)" >&2; exit 2; }
done
command -v python3 >/dev/null || { echo "python3 is needed for the tables" >&2; exit 2; }
stamp=$(date -u +%Y%m%dT%H%M%SZ)
now() { date +%s.%N; }
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv,noheader
echo "kbench: $kbench   files: $out"

# ---- 1. four forms of one kernel in one run ------------------------------------------------------
echo
echo "## 1. transpose/shared_padded (a) beside the same tile as .cu (b), PTX (c), cubin (d): one run"
export KBENCH_CACHE_DIR=$out/cache-four
run_id=kernel-files-four-$stamp
"$kbench" run --plugin transpose/shared_padded --kernel "$source_cu" \
  --kernel "$examples/transpose_tile.ptx" --kernel "$examples/transpose_tile.cubin" \
  --sizes 2048,8192 --blocks 32x32 --dtypes float32 --repetitions "$reps" \
  --output "$out/four.csv" --run-id "$run_id" >"$out/four.md" 2>"$out/four.log"
echo "kbench run: exit $? (log: $out/four.log)"
grep -E '^kbench: (transpose/|error|no CUDA)' "$out/four.log" | sed 's/^/    /'

python3 - "$out/four.csv" "$run_id" <<'PY'
import csv, statistics, sys
path, run_id = sys.argv[1], sys.argv[2]
try:
    rows = [r for r in csv.DictReader(open(path, newline="")) if r["run_id"] == run_id]
except FileNotFoundError:
    rows = []
forms = [("(a) plugin", "transpose/shared_padded"), ("(b) .cu", "transpose/transpose_tile"),
         ("(c) PTX", "transpose/transpose_tile_ptx"), ("(d) cubin", "transpose/transpose_tile_cubin")]
if not rows:
    print("no rows: nothing ran (no GPU here?)")
    sys.exit(0)
bad = [r for r in rows if r["status"] != "ok"]
print(f"{len(rows)} rows, {len(rows) - len(bad)} ok" +
      "".join(f"\n  NOT OK: {r['plugin']} {r['shape']} {r['status']}: {r['message']}" for r in bad))
for label, plugin in forms[1:]:
    compiler = next((r["kernel_compiler"] for r in rows if r["plugin"] == plugin), "")
    sha = next((r["kernel_sha256"][:12] for r in rows if r["plugin"] == plugin), "")
    print(f"  {label}: sha256 {sha}  {compiler}")
print()
print("| shape | " + " | ".join(f"{label} us" for label, _ in forms) + " | worst ratio to (a) |")
print("|---|" + "---:|" * (len(forms) + 1))
worst_all = 0.0
for shape in sorted({r["shape"] for r in rows}, key=lambda s: int(s.split("x")[0])):
    med = {}
    for _, plugin in forms:
        values = [float(r["median_us"]) for r in rows
                  if r["plugin"] == plugin and r["shape"] == shape and r["status"] == "ok"]
        med[plugin] = statistics.median(values) if values else None
    base = med[forms[0][1]]
    cells, worst = [], 0.0
    for i, (_, plugin) in enumerate(forms):
        m = med[plugin]
        if m is None:
            cells.append("-")
        elif i == 0 or base is None:
            cells.append(f"{m:.2f}")
        else:
            ratio = m / base
            worst = max(worst, abs(ratio - 1))
            cells.append(f"{m:.2f} ({ratio:.3f})")
    worst_all = max(worst_all, worst)
    print(f"| {shape} | " + " | ".join(cells) + f" | {100 * worst:.2f}% |")
complete = all(r["status"] == "ok" for r in rows) and len(rows) == 8 * len({r["repetition"] for r in rows})
print()
print(f"every case ok and present: {'yes' if complete else 'NO'}; "
      f"(b)-(d) within 2% of (a): {'yes' if complete and worst_all <= 0.02 else 'NO'} "
      f"(worst {100 * worst_all:.2f}%; each cell the median over {len({r['repetition'] for r in rows})} repetitions)")
PY

# ---- 2. a new .cu: first run (compiled) and second run (cached) ---------------------------------
echo
echo "## 2. a new .cu to its first verified row: one command, timed"
mkdir -p "$out/new"
new_cu=$out/new/my_tile.cu
cp "$source_cu" "$new_cu"
echo "// a new kernel: $stamp $$ $RANDOM" >>"$new_cu"
export KBENCH_CACHE_DIR=$out/cache-new-$stamp
rm -rf "$KBENCH_CACHE_DIR"
command_line=("$kbench" run --kernel "$new_cu" --sizes 8192 --blocks 32x32 --dtypes float32)
echo "    ${command_line[*]}"
for pass in first second; do
  start=$(now)
  "${command_line[@]}" --output "$out/new.csv" --run-id "new-$pass-$stamp" >"$out/new-$pass.md" \
    2>"$out/new-$pass.log"
  rc=$?
  seconds=$(python3 -c "print(f'{$(now) - $start:.2f}')")
  built=$(grep -E '^kbench: transpose/my_tile: ' "$out/new-$pass.log" | sed 's/^kbench: //')
  row=$(python3 - "$out/new.csv" "new-$pass-$stamp" <<'PY'
import csv, sys
try:
    rows = [r for r in csv.DictReader(open(sys.argv[1], newline="")) if r["run_id"] == sys.argv[2]]
except FileNotFoundError:
    rows = []
print("; ".join(f"{r['status']} {r['median_us']} us" for r in rows) or "none")
PY
)
  echo "  $pass run: ${seconds} s wall, exit $rc, row: $row"
  echo "      $built"
done

# ---- (SDK=1) the SDK path for the same idea -------------------------------------------------------
if [ "${SDK:-0}" = 1 ]; then
  echo
  echo "## the SDK path: six commands, timed"
  work=$out/sdk
  rm -rf "$work" && mkdir -p "$work"
  # cmake --install reads the absolute paths of the machine that configured the build (as
  # scripts/gpu-check.sh does, point them here when the build travelled).
  built_in=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
  if [ -n "$built_in" ] && [ "$built_in" != "$root" ] && [ ! -e "$built_in" ]; then
    mkdir -p "$(dirname "$built_in")" && ln -s "$root" "$built_in"
  fi
  step() {
    local name=$1; shift
    local start rc
    start=$(now)
    "$@" >>"$work/sdk.log" 2>&1
    rc=$?
    printf '  %-10s %6.2f s  exit %d\n' "$name" "$(python3 -c "print($(now) - $start)")" "$rc"
    return $rc
  }
  total_start=$(now)
  step install cmake --install "$build" --prefix "$work/prefix" &&
    step new-plugin "$work/prefix/bin/kbench" new-plugin mytile --family transpose -o "$work/mytile" &&
    step configure cmake -S "$work/mytile" -B "$work/mytile/build" -DCMAKE_PREFIX_PATH="$work/prefix" \
      -DCMAKE_CUDA_ARCHITECTURES=90 &&
    step build cmake --build "$work/mytile/build" -j"$(nproc)" &&
    step validate "$work/prefix/bin/kbench" validate "$work/mytile/build/mytile.so" &&
    step run "$work/prefix/bin/kbench" run --plugins "$work/mytile/build" --plugin transpose/mytile \
      --sizes 8192 --blocks 32x32 --dtypes float32 --output "$work/sdk.csv"
  echo "  total: $(python3 -c "print(f'{$(now) - $total_start:.2f}')") s (log: $work/sdk.log)"
fi
