#!/usr/bin/env bash
# One call on a GPU machine: environment check, every test (the `gpu` label included), then the
# benchmark sweeps, with the CSV and logs under $OUT (or ./gpu-out) and a short table last.
#
#   scripts/gpu-check.sh [lease|tests|sweep|fair|lazy|energy|ncu|repeat|gate|tune|cupti|counters|hello|seeds|multi|split|abi|against|medians|pace|kernels|generations|all] [extra kbench run args...]
# `pace` (not in `all`; about five minutes with an earlier build staged): how long the GPU waits
# for kbench, beside the earlier build (the figures are listed where the mode is).
# `kernels` (not in `all`; about three minutes): published kernels — each example kernel through
# nvcc and through NVRTC (medians within 2%), the published two-pass reduction at 2^24 and 2^26
# in float32 and int32, the tutorial SGEMM beside cuBLAS (scripts/published-kernels-acceptance.sh).
# `lease` (not in `all`; about eight minutes on an H200): what a short lease must prove, most
# telling first, every log under $OUT as it goes: seed 000's hello cases with --show, the default
# sweep's statuses per family, then the `gpu` label's tests (host tests run in CI), and last the
# record line and the sweep's counts.
# `tests` ends with one record line (also $OUT/gpu-tests.record): the commit, the GPU, the counts of
# the `gpu` label's tests and of all of them; quote it in the closing note of any change to the
# worker, the referee, the sandbox, a family or a strategy.
# `fair`: the default sweep and how each row was timed, then `lazy`: lazily vs eagerly loaded
# modules, a plugin from plugin.h alone in two runs (scripts/timing-check.py prints the figures). `energy`: five
# energy windows of matmul/cublas 4096^3 beside the board's power limit. `abi2`: 16- and 8-bit
# types, transpose/fast's tile_bytes swept, the scan family from outside (scripts/device-prepare.sh
# builds it into .device/scan). `gate` (not in `all`; about 4 minutes):
# `kbench compare`'s verdicts on two identical runs of the transpose goals and on the slowdown test
# plugin with and without KBT_SLOWDOWN=1.03, each with --repetitions 5; prints the two figures
# the gate's acceptance asks for.
# `tune` (not in `all`; a minute or two): the tile shapes of transpose/fast (tile_bytes x tile_height) and
# transpose/tiled_coarse (blocks 32xY) measured into space.csv, a greedy tune of the same problems
# and `run --best` on its best configurations (tuned medians beside run --best's: the goal is
# 2%), and `tune --simulate space.csv`: the evaluations each strategy needs to come within 5%.
# `against` (not in `all`; about three minutes on an H200): an earlier build (KBENCH_BASELINE,
# default .device/against, staged by `scripts/device-prepare.sh against=COMMIT`) and this one,
# sweep by sweep in turns: the default sweep, the goal presets and the seeds' presets, their walls
# side by side and scripts/compare-builds.py on their statuses and medians.
# `medians` (not in `all`; about six minutes on an H100): the earlier build of `against` and this
# one, the default sweep's CUDA strategies only (host rows move 1.2-2x between runs of one build),
# KBENCH_MEDIAN_RUNS runs each (default 3) in turns A B B A A B; scripts/compare-builds.py --pooled
# then sets the builds' medians of their runs' medians side by side, beside each build's own spread;
# last, where a strided transpose's time comes from: after other sizes in its worker, and alone on
# the GPU against beside another process's context (scripts/probes/operand-placement.cu).
# `abi` (not in `all`): a baseline build (KBENCH_BASELINE, default .device/v2) and this one back to
# back: the goal presets, the transpose preset with --repetitions 3 and the default sweep, timed.
# `cupti` (not in `all`; about 8 minutes on an H100, most of it three default sweeps): CUPTI's
# acceptance. The CUPTI GPU tests; transpose/copy 8192^2 float32's DRAM throughput (--metrics
# memory) beside Nsight Compute's dram__throughput.avg.pct_of_peak_sustained_elapsed for the same
# launch (scripts/ncu-compare.sh --dram); transpose/shared against shared_padded's bank conflicts;
# two plugins with a kernel on a private stream; the default sweep with the fourth clock, without
# it (--no-cupti) and with --metrics memory. scripts/cupti-acceptance.py then prints the five
# figures, numbered (also in $OUT/cupti-acceptance.md; it reruns on the folder alone): they go to
# results/notes/cupti.md and docs/measurement.md's "The fourth clock on an H100".
# `counters` (not in `all`; several minutes): the families' ladders as hardware counters
# (scripts/family-counters.sh all), for the ⟨H100⟩ cells of docs/families/*.md's "Why, in
# counters", and --metrics against Nsight Compute along the transpose ladder.
# `multi` (not part of `all`) times the goal sweeps on one device, on every device, and split over
# them, on a machine with several GPUs; `split` times the split alone.
# `generations` (not in `all`; about 4 minutes on an H100, three default sweeps): the generations
# acceptance. The default sweep natively, from the plugins built as compute_80 PTX alone
# (scripts/device-prepare.sh generations stages them), natively again; scripts/generations-check.py
# then counts each run's rows by the code they say ran and sets the PTX run's medians beside the
# native ones (the second native run gives the noise); then one test plugin as sm_80 machine code
# alone (unsupported), as compute_80 PTX alone and as sm_90a, and the GPU tests that hold the
# code reader's choice to the driver's.
#
# The build comes from this machine's build-device/ (scripts/device-prepare.sh builds it where
# Boost and GoogleTest are installed and stages a slim copy in .device/); on a machine with the
# dependencies, `KBENCH_BUILD_DIR=build-device scripts/build.sh -DKBENCH_BUILD_TESTS=ON` works too.
set -uo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
shift || true
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"

# CTest files hold the absolute paths of the machine that built them.
if [ -d .device/build-device ] && [ ! -e build-device ]; then ln -s .device/build-device build-device; fi
built_in=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' build-device/CMakeCache.txt)
if [ -n "$built_in" ] && [ "$built_in" != "$PWD" ] && [ ! -e "$built_in" ]; then
  mkdir -p "$(dirname "$built_in")" && ln -s "$PWD" "$built_in"
fi
kbench=$PWD/build-device/bin/kbench
# Nsight Compute (`ncu`, `cupti`, `counters`): the toolkit's, where the PATH lacks it.
command -v ncu >/dev/null || { [ -x /usr/local/cuda/bin/ncu ] && PATH=$PATH:/usr/local/cuda/bin; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader
missing=$(ldd "$kbench" build-device/lib/kbench/plugins/*.so | grep "not found" | sort -u)
[ -z "$missing" ] || { echo "missing libraries: $missing"; exit 1; }

if [ "$mode" = kernels ]; then
  OUT="$out/kernels" scripts/published-kernels-acceptance.sh "$PWD/build-device" 2>&1 | tee "$out/kernels.log"
  exit "${PIPESTATUS[0]}"
fi

if [ "$mode" = lease ]; then
  "$0" hello >"$out/hello.md" 2>&1
  tail -n 12 "$out/hello.md"
  start=$(date +%s)
  "$kbench" run --output "$out/default.csv" --run-id default "$@" >"$out/default.md" \
    2>"$out/default.log"
  echo "default sweep: exit $?, $(($(date +%s) - start)) s" >"$out/sweep-status.md"
  python3 - "$out/default.csv" >>"$out/sweep-status.md" <<'PY'
import collections, csv, sys
counts = collections.defaultdict(collections.Counter)
for r in csv.DictReader(open(sys.argv[1], newline="")):
    counts[r["family"]][r["status"]] += 1
    if r["status"] not in ("ok", "unsupported"):
        print(f"  {r['plugin']} {r['dtype']} {r['shape']} {r['block']}: {r['status']}: {r['message'][:160]}")
for family, c in sorted(counts.items()):
    print(f"{family}: " + ", ".join(f"{n} {s}" for s, n in sorted(c.items())))
PY
  KBENCH_GPU_ONLY=1 "$0" tests
  grep -E "^\[|time:" "$out/default.md" | tail -n 2
  cat "$out/sweep-status.md"
  exit 0
fi

if [ "$mode" = tests ] || [ "$mode" = all ]; then
  # Every test there is, the `gpu` label included; -LE slurm: the GPU machine reaches no package
  # registry to install the scheduler from. Then one line to quote in a closing note: the commit
  # the build came from (scripts/device-prepare.sh wrote it), the GPU, and the counts.
  ctest --test-dir build-device -L gpu --output-on-failure --timeout 900 >"$out/ctest-gpu.log" 2>&1
  # KBENCH_GPU_ONLY=1: the `gpu` label alone, when the host tests ran elsewhere (CI) and the
  # device's time is short.
  if [ "${KBENCH_GPU_ONLY:-0}" = 1 ]; then
    echo "host tests not run here (KBENCH_GPU_ONLY=1)" >"$out/ctest-host.log"
  else
    ctest --test-dir build-device -j4 -LE 'gpu|slurm' --output-on-failure --timeout 900 \
      >"$out/ctest-host.log" 2>&1
  fi
  cat "$out/ctest-gpu.log" "$out/ctest-host.log" >"$out/ctest.log"
  grep -hE "tests passed|tests failed|\*\*\*Failed|Failed  |Timeout|Not Run" "$out/ctest-gpu.log" \
    "$out/ctest-host.log"
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
  # "96% tests passed, 3 tests failed out of 70", or with none failed "100% tests passed out of 70".
  count() {
    sed -n -e 's/.*tests passed, \([0-9]*\) tests failed out of \([0-9]*\).*/\1 \2/p' \
      -e 's/.*100% tests passed out of \([0-9]*\).*/0 \1/p' "$1" | tail -1
  }
  read -r gpu_failed gpu_total <<<"$(count "$out/ctest-gpu.log")"
  read -r host_failed host_total <<<"$(count "$out/ctest-host.log")"
  host="host $((${host_total:-0} - ${host_failed:-0})) passed, ${host_failed:-?} failed (of ${host_total:-?})"
  [ "${KBENCH_GPU_ONLY:-0}" = 1 ] && host="host tests not run here (CI runs them)"
  printf 'gpu-check tests: commit %s, %s: gpu label %s passed, %s failed (of %s); %s; %s\n' \
    "$(cat .device/commit 2>/dev/null || echo unknown)" "$gpu" \
    "$((${gpu_total:-0} - ${gpu_failed:-0}))" "${gpu_failed:-?}" "${gpu_total:-?}" "$host" \
    "$(date -u +%Y-%m-%dT%H:%MZ)" | tee "$out/gpu-tests.record"
fi

if [ "$mode" = sweep ] || [ "$mode" = all ]; then
  csv="$out/sweep.csv"
  run_id="gpu-check-$(date -u +%Y%m%dT%H%M%SZ)"  # one run: scripts/goal-ratios.py tables it whole
  for preset in presets/gpu-check-*.ini; do
    "$kbench" run --config "$preset" --output "$csv" --run-id "$run_id" \
      --energy-window 1 "$@" >"$out/table.md" 2>>/tmp/kbench-sweep.log
    echo "== $preset (exit $?)" | tee -a "$out/sweeps.md"
    grep -E "^\| |cases:" "$out/table.md" >>"$out/sweeps.md"
    grep -E "cases:|(fast|copy|cublas|cub|regblock|tensor|tiled_coarse) " "$out/table.md"
  done
  rm -f "$out/table.md"
  python3 scripts/goal-ratios.py "$csv" --run "$run_id" | tee "$out/goal-ratios.md"
fi

if [ "$mode" = fair ] || [ "$mode" = all ]; then
  echo "== the default sweep (kbench run, no options): how each row was timed"
  "$kbench" run --output "$out/default.csv" --run-id default "$@" >"$out/default.md" 2>"$out/default.log"
  echo "exit $?; $(grep -E "cases:" "$out/default.md")"
  python3 scripts/timing-check.py sweep "$out/default.csv" | tee "$out/fair.md"
fi

if [ "$mode" = fair ] || [ "$mode" = lazy ] || [ "$mode" = all ]; then
  echo "== lazily and eagerly loaded modules; a plugin from plugin.h alone in two separate runs"
  header_only=(--plugins build-device/tests/plugins/header_only --plugin header_only/none
               --sizes 2^20,2^24,2^26)
  for run in LAZY-1 EAGER-1 LAZY-2 EAGER-2 LAZY-3 EAGER-3; do
    CUDA_MODULE_LOADING=${run%-*} "$kbench" run --plugin transpose/cublas --plugin transpose/fast \
      --plugin transpose/copy --sizes 2048,8192 --dtypes float32 --output "$out/fair.csv" \
      --run-id "vendor-$run" "$@" >/dev/null 2>&1
    CUDA_MODULE_LOADING=${run%-*} "$kbench" run "${header_only[@]}" --dtypes float32 \
      --output "$out/fair.csv" --run-id "header-only-$run" "$@" >/dev/null 2>&1
  done
  for pair in "vendor-LAZY vendor-EAGER" "header-only-LAZY header-only-EAGER"; do
    # shellcheck disable=SC2086
    python3 scripts/timing-check.py groups "$out/fair.csv" $pair | tee -a "$out/fair.md"
  done
  python3 scripts/timing-check.py pair "$out/fair.csv" header-only-LAZY-1 header-only-LAZY-2 |
    tee -a "$out/fair.md"
  "$kbench" run --plugins build-device/tests/plugins/header_only --family header_only \
    --sizes 2^26 --dtypes float32 --output "$out/fair.csv" --run-id faults 2>&1 | grep "^| header_only"
fi

if [ "$mode" = energy ] || [ "$mode" = all ]; then
  echo "== board energy: matmul/cublas 4096^3 five times with a 1 s window, five with 3 s"
  nvidia-smi --query-gpu=power.draw,power.limit,enforced.power.limit --format=csv
  for window in 1 3; do
    for i in 1 2 3 4 5; do
      "$kbench" run --plugin matmul/cublas --sizes 4096 --dtypes float32 --energy-window $window \
        --output "$out/energy.csv" --run-id "energy-${window}s-$i" "$@" >/dev/null 2>&1
    done
  done
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { printf "%s: %s us, %s W, %s J per launch, %s GFLOP/J (%s)\n", $c["run_id"], $c["median_us"],
      $c["power_w"], $c["energy_j"], $c["gflop_per_j"], $c["message"] }' "$out/energy.csv"
fi

if [ "$mode" = abi2 ] || [ "$mode" = all ]; then
  echo "== 16- and 8-bit types: transpose/copy and the naive transpose"
  "$kbench" run --plugin transpose/copy --plugin transpose/naive_row --blocks 32x8 \
    --sizes 2048,8192 --dtypes float32,float16,bfloat16,int8 --output "$out/abi2.csv" \
    --run-id small-types "$@" 2>/dev/null | grep -E "^\| transpose/|cases:"
  echo "== 16- and 8-bit types: reduce/fast and reduce/cub (accumulating in float32, int64)"
  "$kbench" run --plugin reduce/fast --plugin reduce/cub --sizes 2^26,2^28 --ops sum \
    --dtypes float32,float16,bfloat16,int8 --output "$out/abi2.csv" --run-id small-types-reduce \
    "$@" 2>/dev/null | grep -E "^\| reduce/|cases:"
  echo "== transpose/fast's tile_bytes swept; the best per size (compare --by plugin)"
  "$kbench" run --plugin transpose/fast --plugin transpose/copy --param tile_bytes=128,256,512 \
    --sizes 2048,8192,8192x4096 --dtypes float32,float64 --output "$out/abi2.csv" \
    --run-id fast-tiles "$@" 2>/dev/null | grep "cases:"
  "$kbench" compare "$out/abi2.csv" --by run --plugin transpose/fast --family transpose | head -40
  "$kbench" report "$out/abi2.csv" -o "$out/abi2-report" >/dev/null && \
    sed -n '/^## transpose/,/^!\[/p' "$out/abi2-report/report.md" | head -30
  echo "== the scan family from outside (.device/scan), its CUB baseline and blocked's items"
  "$kbench" run --plugins .device/scan --family scan --param items=1,2,4,8 \
    --output "$out/abi2.csv" --run-id scan "$@" 2>/dev/null | grep -E "^\| scan/|cases:"
  "$kbench" compare "$out/abi2.csv" --by plugin --family scan --baseline cub --metric gbps
fi

if [ "$mode" = ncu ] || [ "$mode" = all ]; then
  echo "== kbench median vs Nsight Compute"
  KBENCH=$kbench scripts/ncu-compare.sh \
    "transpose/naive_row float32 4096 32x8" "transpose/naive_row float32 8192 32x8" \
    "transpose/fast float32 8192" "transpose/fast float32 16384" \
    "matmul/tiled float32 1024 16x16" "matmul/tiled float32 2048 16x16" | tee "$out/ncu.md"
fi

if [ "$mode" = repeat ] || [ "$mode" = all ]; then
  echo "== the same sweep twice: per-case median differences"
  for i in 1 2; do
    "$kbench" run --config presets/gpu-check-transpose.ini --output "$out/repeat.csv" \
      --run-id "repeat-$i" >/dev/null 2>&1
  done
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["status"] == "ok" {
      key = $c["plugin"] " " $c["dtype"] " " $c["shape"] " " $c["block"]
      t[$c["run_id"], key] = $c["median_us"]; keys[key] = 1
    }
    END {
      for (k in keys) {
        a = t["repeat-1", k]; b = t["repeat-2", k]
        if (a > 50 && b > 0) printf "%.5f %s\n", (a > b ? a - b : b - a) / a, k
      }
    }' "$out/repeat.csv" | sort -n >/tmp/kbench-repeat-diffs.txt
  n=$(wc -l </tmp/kbench-repeat-diffs.txt)
  echo "cases over 50 us: $n; median difference: $(sed -n "$(((n + 1) / 2))p" /tmp/kbench-repeat-diffs.txt);" \
       "worst: $(tail -n 1 /tmp/kbench-repeat-diffs.txt)" | tee "$out/repeat.md"
fi

if [ "$mode" = gate ]; then
  echo "== verdicts (kbench compare): identical runs, and a known 3% slowdown, 5 repetitions each"
  csv="$out/gate.csv"
  # The transpose goals take about 20 s per repetition on an H100, much of it host work (inputs,
  # references, worker starts); --max-time 0.2 instead of the preset's 0.5 trims the timing.
  for run in identical-A identical-B; do
    "$kbench" run --config presets/gpu-check-transpose.ini --max-time 0.2 --repetitions 5 \
      --output "$csv" --run-id "gate-$run" "$@" >/dev/null 2>>"$out/gate.log"
  done
  slowdown=(--plugins build-device/tests/plugins/slowdown --plugin slowdown/lcg --dtypes int32
            --sizes 1000,1500,2000,3000,4000,6000,8000,12000,16000,24000 --max-time 0.2
            --repetitions 5 --output "$csv")
  "$kbench" run "${slowdown[@]}" --run-id gate-slowdown-1.00 "$@" >/dev/null 2>>"$out/gate.log"
  KBT_SLOWDOWN=1.03 "$kbench" run "${slowdown[@]}" --run-id gate-slowdown-1.03 "$@" \
    >/dev/null 2>>"$out/gate.log"
  for pair in "identical-A identical-B" "slowdown-1.00 slowdown-1.03"; do
    read -r base cand <<<"$pair"
    "$kbench" compare "$csv" --baseline-run "gate-$base" --run "gate-$cand" \
      --junit "$out/gate-$cand.xml" >"$out/gate-$cand.md"
    echo "compare gate-$base -> gate-$cand: exit $? ($out/gate-$cand.md)"
    "$kbench" compare "$csv" --baseline-run "gate-$base" --run "gate-$cand" --format json \
      >"$out/gate-$cand.json"
    python3 - "$out/gate-$cand.json" <<'PY'
import json, sys
gate = json.load(open(sys.argv[1]))
v = gate["verdicts"]
timed = v["slower"] + v["faster"] + v["same"] + v["unsure"]
different = v["slower"] + v["faster"]
print(f"  {gate['candidate']} vs {gate['baseline']}: {timed} timed cases; called different "
      f"{different} ({100 * different / max(timed, 1):.1f}%): slower {v['slower']} "
      f"({100 * v['slower'] / max(timed, 1):.1f}%), faster {v['faster']}, unsure {v['unsure']}, "
      f"same {v['same']}; broken {v['broken']}, missing {v['missing']}")
PY
  done
fi

if [ "$mode" = tune ]; then
  echo "== kbench tune: the measured space, a greedy tune, run --best, and the strategies replayed"
  # fast's tile order and kernel stay auto: its tile shapes (12) and tiled_coarse's blocks (6).
  space=(--plugin transpose/fast --plugin transpose/tiled_coarse --sizes 8192,8192x4096
         --dtypes float32,float64 --blocks 32x1,32x2,32x4,32x8,32x16,32x32 --max-time 0.3
         --param tile_order=auto --param kernel=auto)
  "$kbench" tune "${space[@]}" --strategy exhaustive --output "$out/space.csv" \
    --best "$out/space-best.json" --run-id tune-space "$@" >"$out/tune-space.md" 2>>"$out/tune.log"
  echo "space (exhaustive): exit $?"; grep -E "^\| |cases:" "$out/tune-space.md"
  "$kbench" tune "${space[@]}" --strategy greedy --budget 3 --seed 1 --output "$out/tune.csv" \
    --best "$out/best.json" --run-id tune-greedy "$@" >"$out/tune-greedy.md" 2>>"$out/tune.log"
  echo "tune (greedy, 3 evaluations a problem): exit $?"; grep -E "^\| |cases:" "$out/tune-greedy.md"
  "$kbench" run --plugin transpose/fast --plugin transpose/tiled_coarse --best "$out/best.json" \
    --max-time 0.3 --output "$out/best-run.csv" --run-id tune-best "$@" >/dev/null 2>>"$out/tune.log"
  echo "run --best: exit $?"
  python3 - "$out/best.json" "$out/best-run.csv" <<'PY' | tee "$out/tune-best.md"
import csv, json, sys
best = json.load(open(sys.argv[1]))["configurations"]
rows = {(r["plugin"], r["dtype"], r["shape"]): r for r in csv.DictReader(open(sys.argv[2]))}
print("| problem | configuration | tuned us | run --best us | run/tuned |\n|---|---|---:|---:|---:|")
worst = 0
for e in best:
    r = rows.get((e["plugin"], e["dtype"], e["shape"]))
    if r is None or r["status"] != "ok":
        print(f"| {e['plugin']} {e['dtype']} {e['shape']} | missing or failed | | | |")
        continue
    ratio = float(r["median_us"]) / e["median_us"]
    worst = max(worst, abs(ratio - 1))
    print(f"| {e['plugin']} {e['dtype']} {e['shape']} | {e['block']} {e['params']} | "
          f"{e['median_us']:.2f} | {float(r['median_us']):.2f} | {ratio:.4f} |")
print(f"largest difference: {100 * worst:.2f}% (the goal: at most 2%)")
PY
  "$kbench" tune --simulate "$out/space.csv" --seeds 20 | tee "$out/tune-simulate.md"
fi

if [ "$mode" = cupti ]; then
  echo "== CUPTI: where it is, and its GPU tests"
  ls -l /usr/local/cuda/lib64/libcupti.so* /usr/local/cuda/extras/CUPTI/lib64/libcupti.so* 2>/dev/null
  ldconfig -p | grep -E "libcupti|libnvperf" || echo "(not in the ld.so cache: kbench looks in /usr/local/cuda)"
  build-device/bin/gpu_tests --gtest_filter='CuptiGpu*' 2>&1 | tee "$out/cupti-tests.log" |
    grep -E "^\[  (PASSED|FAILED) |^\[ +(OK|FAILED|SKIPPED) \]|Failure|Expected|Which is"
  rm -f "$out"/cupti-*.csv "$out"/cupti-{clock,off,metrics}.md "$out/ncu-dram.md"
  echo "== transpose/copy 8192^2 float32: --metrics memory, and Nsight Compute on the same launch"
  "$kbench" run --plugin transpose/copy --sizes 8192 --dtypes float32 --metrics memory \
    --output "$out/cupti-dram.csv" --run-id cupti-dram "$@" 2>&1 | grep -E "^\| transpose|^kbench: (no CUPTI|--metrics)"
  if command -v ncu >/dev/null; then
    KBENCH=$kbench scripts/ncu-compare.sh --dram "transpose/copy float32 8192" | tee "$out/ncu-dram.md"
  else
    echo "ncu (Nsight Compute) is not on the PATH nor in /usr/local/cuda/bin: no comparison"
  fi
  echo "== transpose/shared and shared_padded 8192^2 float32 32x32: --metrics shared"
  "$kbench" run --plugin transpose/shared --plugin transpose/shared_padded --sizes 8192 \
    --dtypes float32 --blocks 32x32 --metrics shared --output "$out/cupti-banks.csv" \
    --run-id cupti-banks "$@" 2>&1 | grep -E "^\| transpose|^kbench: (no CUPTI|--metrics)"
  echo "== kernels on a private stream (expected: implausible, the CUPTI stream check named)"
  "$kbench" run --plugins build-device/tests/plugins/header_only --plugin header_only/own_stream \
    --sizes 2^16,2^26 --dtypes float32 --output "$out/cupti-private.csv" --run-id cupti-private \
    "$@" 2>&1 | grep -E "^\| header_only|^kbench: no CUPTI"
  "$kbench" run --plugins build-device/tests/plugins/cheats/private_stream \
    --plugin transpose/cheat_private_stream --sizes 2048 --dtypes float32 \
    --output "$out/cupti-private.csv" --run-id cupti-private "$@" 2>&1 | grep -E "^\| transpose|^kbench: no CUPTI"
  # The clock's run first: whatever the first sweep pays (files not yet in the page cache) weighs
  # against the clock, not for it.
  echo "== the default sweep: with the fourth clock, without it (--no-cupti), and with --metrics memory"
  for how in clock off metrics; do
    case $how in clock) flags=() ;; off) flags=(--no-cupti) ;; metrics) flags=(--metrics memory) ;; esac
    "$kbench" run "${flags[@]}" --output "$out/cupti-sweep.csv" --run-id "cupti-$how" "$@" \
      >"$out/cupti-$how.md" 2>"$out/cupti-$how.log"
    echo "$how (exit $?): $(grep -E "cases:" "$out/cupti-$how.md")"
    grep -E "^kbench: (no CUPTI|--metrics)" "$out/cupti-$how.log"
  done
  echo
  python3 scripts/cupti-acceptance.py "$out" | tee "$out/cupti-acceptance.md"
fi

if [ "$mode" = counters ]; then
  echo "== --metrics' DRAM throughput against Nsight Compute's, the same launch"
  KBENCH=$kbench scripts/ncu-compare.sh --dram "transpose/copy float32 8192" \
    "transpose/fast float32 8192" "transpose/naive_row float32 8192 32x8" \
    "transpose/tiled_coarse float32 8192 32x8" | tee "$out/ncu-dram-ladder.md"
  echo "== the ladders as counters"
  KBENCH=$kbench OUT=$out scripts/family-counters.sh all "$@" | tee "$out/family-counters.md"
fi

if [ "$mode" = hello ] || [ "$mode" = all ]; then
  echo "== seed 000's question, answered by hello/record"
  "$kbench" run --case "hello/record none 5 2x2" --case "hello/record none 32 32x32" \
    --case "hello/record none 1024 8x8" --case "hello/printf none 5 2x2" --show \
    --output "$out/hello.csv" --max-time 0.2 2>&1 | grep -vE "^\[|^kbench: run" | tail -30
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print $c["plugin"] "," $c["shape"] "," $c["block"] "," $c["status"] "," $c["metrics"] }' "$out/hello.csv"
fi

if [ "$mode" = seeds ] || [ "$mode" = all ]; then
  echo "== the seeds' experiments that fit a short lease"
  for preset in presets/seed003-reduce.ini presets/seed004-transpose.ini presets/seed003-matmul.ini \
                presets/seed000-hello.ini; do
    "$kbench" run --config "$preset" --output "$out/seeds.csv" --max-time 0.3 >/dev/null 2>&1
    echo "$preset: exit $?"
  done
fi

if [ "$mode" = abi ]; then
  # A baseline build (KBENCH_BASELINE, default .device/v2: bin/ and lib/ of an earlier commit) and
  # this build, back to back in one call: their plugins share names, so they cannot share a run,
  # and their schemas may differ, so each writes its own files.
  base=${KBENCH_BASELINE:-.device/v2}
  [ -x "$base/bin/kbench" ] || { echo "no baseline build in $base"; exit 1; }
  stamp=$(date -u +%Y%m%dT%H%MZ)
  for build in "baseline:$base/bin/kbench" "this:$kbench"; do
    name=${build%%:*}; exe=${build#*:}
    for preset in presets/gpu-check-*.ini; do
      "$exe" run --config "$preset" --output "$out/abi-$name.csv" --run-id "$name-goals-$stamp" "$@" \
        2>>/tmp/kbench-abi.log | sed -n "s|^time: |$name $(basename "$preset" .ini): |p"
    done
    "$exe" run --config presets/gpu-check-transpose.ini --repetitions 3 --output "$out/abi-$name-rep3.csv" \
      --run-id "$name-transpose-rep3-$stamp" "$@" 2>>/tmp/kbench-abi.log |
      sed -n "s|^time: |$name transpose --repetitions 3: |p"
    start=$(date +%s.%N)
    "$exe" run --output "$out/abi-$name.csv" --run-id "$name-default-$stamp" "$@" \
      2>>/tmp/kbench-abi.log | sed -n "s|^time: |$name default: |p"
    end=$(date +%s.%N)
    echo "$name default wall: $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s"
  done
fi

if [ "$mode" = medians ]; then
  base=${KBENCH_BASELINE:-.device/against}
  [ -x "$base/bin/kbench" ] || { echo "no earlier build in $base"; exit 1; }
  cuda_plugins() { "$1" list | awk -F' [|] ' '$2 == "cuda" { sub(/^[|] /, "", $1); print $1 }' | sort; }
  mapfile -t plugins < <(comm -12 <(cuda_plugins "$base/bin/kbench") <(cuda_plugins "$kbench"))
  selection=(); for p in "${plugins[@]}"; do selection+=(--plugin "$p"); done
  echo "== ${#plugins[@]} CUDA strategies both builds have, ${KBENCH_MEDIAN_RUNS:-3} runs each"
  for run in $(seq 1 "${KBENCH_MEDIAN_RUNS:-3}"); do
    order=("against:$base/bin/kbench" "this:$kbench")
    [ $((run % 2)) = 0 ] && order=("this:$kbench" "against:$base/bin/kbench")
    for build in "${order[@]}"; do
      who=${build%%:*}; exe=${build#*:}
      "$exe" run "${selection[@]}" --output "$out/medians-$who.csv" --run-id "r$run" "$@" \
        >"$out/medians-$who-r$run.md" 2>>"$out/medians.log"
      echo "$who r$run (exit $?): $(grep -E '^time:' "$out/medians-$who-r$run.md")"
    done
  done
  python3 scripts/compare-builds.py "$out/medians-against.csv" "$out/medians-this.csv" --pooled |
    tee "$out/medians-compare.md"
  # Whether a strided kernel's median follows where its operands lie: the same case after other
  # sizes in the same worker (whose operands were allocated and freed before it), in both builds.
  echo "== transpose/naive_row float64 8192x8192 32x8 after other sizes in its worker"
  for build in "against:$base/bin/kbench" "this:$kbench"; do
    who=${build%%:*}; exe=${build#*:}
    line="$who:"
    for sizes in 8192 2048,8192 4096,8192 8192x4096,8192 1024,4096,8192x4096,8192; do
      id="after-${sizes//,/+}"
      "$exe" run --plugin transpose/naive_row --dtypes float64 --blocks 32x8 --sizes "$sizes" \
        --output "$out/placement-$who.csv" --run-id "$id" >/dev/null 2>>"$out/medians.log"
      line+=" $(python3 -c 'import csv, sys
print(*[r["median_us"] for r in csv.DictReader(open(sys.argv[1]))
        if r["run_id"] == sys.argv[2] and r["shape"] == "8192x8192"])' "$out/placement-$who.csv" "$id")"
    done
    echo "$line us (after: none, 2048, 4096, 8192x4096, 1024+4096+8192x4096)"
  done
  # The same kernels alone on the GPU, beside another process's idle context (the referee's
  # place), and on that process's allocations opened by IPC (the referee's operands).
  echo "== scripts/probes/operand-placement.cu"
  nvcc -O3 -arch=sm_90 -std=c++17 -o /tmp/kbench-placement scripts/probes/operand-placement.cu &&
    /tmp/kbench-placement | tee "$out/placement-probe.txt"
fi

if [ "$mode" = against ]; then
  # An earlier build (KBENCH_BASELINE, default .device/against: what `scripts/device-prepare.sh
  # against=COMMIT` stages) and this one in one call, sweep by sweep: the default sweep, the goal
  # presets and the seeds' presets of `seeds`, each under its own run id in each build's CSV, the
  # two builds taking turns to go first. Last: each sweep's wall time beside the other build's, and
  # scripts/compare-builds.py on the statuses and medians.
  base=${KBENCH_BASELINE:-.device/against}
  [ -x "$base/bin/kbench" ] || { echo "no earlier build in $base"; exit 1; }
  builds=("against:$base/bin/kbench" "this:$kbench")
  turn=0
  : >"$out/against-walls.md"; : >/tmp/against-times.md
  for sweep in default presets/gpu-check-*.ini presets/seed003-reduce.ini \
      presets/seed004-transpose.ini presets/seed003-matmul.ini presets/seed000-hello.ini; do
    config=(); [ "$sweep" = default ] || config=(--config "$sweep" --max-time 0.3)
    [[ $sweep == presets/gpu-check-* ]] && config=(--config "$sweep")
    name=$(basename "$sweep" .ini)
    order=("${builds[@]}"); [ $((turn++ % 2)) = 1 ] && order=("${builds[1]}" "${builds[0]}")
    line="$name:"
    for build in "${order[@]}"; do
      who=${build%%:*}; exe=${build#*:}
      start=$(date +%s.%N)
      "$exe" run "${config[@]}" --output "$out/against-$who.csv" --run-id "$name" "$@" \
        >"/tmp/against-$who-$name.md" 2>>/tmp/kbench-against.log
      status=$?
      sed -n "s|^time: |  $who $name time: |p" "/tmp/against-$who-$name.md" >>/tmp/against-times.md
      wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
      line+=" $who $wall s (exit $status)"
    done
    echo "$line" | tee -a "$out/against-walls.md"
  done
  cat /tmp/against-times.md >>"$out/against-walls.md"
  python3 scripts/compare-builds.py "$out/against-against.csv" "$out/against-this.csv" --by-run |
    tee "$out/against-compare.md"
fi

if [ "$mode" = pace ]; then
  # How long the GPU waits for kbench, this build beside an earlier one where one is staged
  # (KBENCH_BASELINE, default .device/against), each figure's two builds in turns: the transpose
  # goal preset's timing share of its wall, the default sweep's wall and lanes, nine cases (copies
  # of 2^16, 2^20, 2^24 and 2^28 floats, a padded-tile transpose at 2048^2 and 8192^2, a naive
  # SGEMM at 1024^3 and 2048^3, an int32 sum of 2^26) settled at 0.5% noise, and, with several
  # GPUs, the goal presets split over them against one.
  base=${KBENCH_BASELINE:-.device/against}
  builds=("this:$kbench"); [ -x "$base/bin/kbench" ] && builds+=("against:$base/bin/kbench")
  : >"$out/pace.md"
  timed() {  # timed NAME EXE ARGS...: runs, prints NAME's wall and its time: line
    local name=$1 exe=$2; shift 2
    local start; start=$(date +%s.%N)
    "$exe" run --output "$out/pace-$name.csv" "$@" >"$out/pace-$name.md" 2>>"$out/pace.log"
    local wall; wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    echo "$name: wall $wall s; $(sed -n 's/^time: //p' "$out/pace-$name.md")" | tee -a "$out/pace.md"
  }
  nine() {  # nine WHO EXE: the nine cases as three runs
    # transpose/copy and reduce/cub choose their own launch shapes (a --blocks is refused), and
    # shared_padded's tile is 32x32; no --repetitions, so no hidden shapes beside them.
    local who=$1 exe=$2 common=(--max-noise 0.005)
    timed "nine-copy-$who" "$exe" "${common[@]}" --plugin transpose/copy --sizes 256,1024,4096,16384 \
      --dtypes float32
    timed "nine-padded-$who" "$exe" "${common[@]}" --plugin transpose/shared_padded --sizes 2048,8192 \
      --blocks 32x32 --dtypes float32
    timed "nine-sgemm-$who" "$exe" "${common[@]}" --plugin matmul/naive --sizes 1024,2048 \
      --blocks 16x16 --dtypes float32
    timed "nine-reduce-$who" "$exe" "${common[@]}" --plugin reduce/cub --sizes 2^26 --dtypes int32 \
      --ops sum
  }
  for turn in 0 1; do
    order=("${builds[@]}"); [ "$turn" = 1 ] && [ ${#builds[@]} = 2 ] && order=("${builds[1]}" "${builds[0]}")
    for build in "${order[@]}"; do
      who=${build%%:*}; exe=${build#*:}
      timed "transpose-goal-$who-$turn" "$exe" --config presets/gpu-check-transpose.ini
      timed "default-$who-$turn" "$exe"
      nine "$who-$turn" "$exe"
      if [ "$(nvidia-smi -L | wc -l)" -gt 1 ]; then
        for preset in presets/gpu-check-*.ini; do
          timed "$(basename "$preset" .ini)-one-$who-$turn" "$exe" --config "$preset"
          timed "$(basename "$preset" .ini)-split-$who-$turn" "$exe" --config "$preset" --devices all --split
        done
      fi
    done
  done
  python3 - "$out" <<'PY'
import csv, glob, os, re, sys
out = sys.argv[1]
lines = open(os.path.join(out, "pace.md")).read().splitlines()
wall = {l.split(":")[0]: float(re.search(r"wall ([0-9.]+) s", l).group(1)) for l in lines}
def timing(name):
    m = re.search(r"timing ([0-9.]+) s", next(l for l in lines if l.startswith(name + ":")))
    return float(m.group(1)) if m else float("nan")
print("| figure | build | turn 0 | turn 1 |\n|---|---|---:|---:|")
for who in ("this", "against"):
    if f"default-{who}-0" not in wall: continue
    share = [timing(f"transpose-goal-{who}-{t}") / wall[f"transpose-goal-{who}-{t}"] for t in (0, 1)]
    print(f"| transpose goal preset: timing / wall | {who} | {share[0]:.2f} | {share[1]:.2f} |")
    print(f"| default sweep wall (s) | {who} | {wall[f'default-{who}-0']:.1f} | {wall[f'default-{who}-1']:.1f} |")
    nine = [sum(v for k, v in wall.items() if k.startswith("nine-") and k.endswith(f"-{who}-{t}")) for t in (0, 1)]
    noise = [max((float(r["noise"] or "nan") for f in glob.glob(os.path.join(out, f"pace-nine-*-{who}-{t}.csv"))
                  for r in csv.DictReader(open(f)) if r["status"] == "ok"), default=float("nan"))
             for t in (0, 1)]
    print(f"| nine cases: wall of the four runs (s), largest noise | {who} | {nine[0]:.1f}, {noise[0]:.4f} | {nine[1]:.1f}, {noise[1]:.4f} |")
    if any("-split-" in k for k in wall):
        cells = []
        for t in (0, 1):
            one = sum(v for k, v in wall.items() if "-one-" in k and k.endswith(f"-{who}-{t}"))
            split = sum(v for k, v in wall.items() if "-split-" in k and k.endswith(f"-{who}-{t}"))
            cells.append(f"{split:.1f} / {one:.1f} = {split / one:.2f}")
        print(f"| goal presets split over the GPUs / on one (s) | {who} | {cells[0]} | {cells[1]} |")
PY
fi

if [ "$mode" = multi ] || [ "$mode" = split ]; then
  echo "== several GPUs: the goal sweeps on device 0, on all devices, and split over them"
  hows=("--devices 0" "--devices all" "--devices all --split")
  [ "$mode" = split ] && hows=("--devices all --split")
  for how in "${hows[@]}"; do
    run_id="multi ${how}${*:+ $*}"
    start=$(date +%s.%N)
    for preset in presets/gpu-check-*.ini; do
      # shellcheck disable=SC2086
      "$kbench" run --config "$preset" $how "$@" --output "$out/multi.csv" --run-id "$run_id" \
        2>>/tmp/kbench-multi.log | sed -n "s|^time: |  $preset: |p"
    done
    end=$(date +%s.%N)
    rows=$(grep -c ",$run_id," "$out/multi.csv")
    echo "$run_id: $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }') s, $rows rows" |
      tee -a "$out/multi.md"
  done
fi


if [ "$mode" = generations ]; then
  # The plugins as compute_80 PTX alone (scripts/device-prepare.sh generations stages them in
  # .device/build-ptx80), run by a copy of this runner beside them (a symlink would find this
  # build's plugins): every strategy's kernels compiled by the driver at load.
  ptx=.device/build-ptx80
  [ -d "$ptx/lib/kbench/plugins" ] || { echo "no $ptx: scripts/device-prepare.sh generations"; exit 1; }
  mkdir -p "$ptx/bin" && cp "$kbench" "$ptx/bin/kbench"
  csv="$out/generations.csv"
  echo "== the default sweep natively (sm_90), from compute_80 PTX (JIT), natively again"
  for run in native-1 ptx80 native-2; do
    exe=$kbench
    [ "$run" = ptx80 ] && exe=$PWD/$ptx/bin/kbench
    start=$(date +%s)
    "$exe" run --output "$csv" --run-id "$run" "$@" >"$out/$run.md" 2>"$out/$run.log"
    echo "$run: exit $?, $(($(date +%s) - start)) s, $(grep -E "cases:" "$out/$run.md")"
  done
  python3 scripts/generations-check.py "$csv" | tee "$out/generations.md"
  "$kbench" compare "$csv" --by run --baseline native-1 \
    >"$out/generations-compare.md" 2>&1
  echo "== one plugin as sm_80 machine code alone, as compute_80 PTX alone, as sm_90a alone"
  "$kbench" run --plugins build-device/tests/plugins/faulty_cuda --plugins \
    build-device/tests/plugins/device_code --plugin 'gpu_testing/none' --plugin \
    'gpu_testing/wrong_arch' --plugin 'code_testing/*' --sizes 1000 --dtypes int32 \
    --output "$out/code-variants.csv" --run-id code-variants "$@" >/dev/null 2>&1
  python3 - "$out/code-variants.csv" <<'PY' | tee -a "$out/generations.md"
import csv, sys
for r in csv.DictReader(open(sys.argv[1], newline="")):
    print(f"{r['plugin']}: {r['status']}, code '{r['code']}'" + (f", {r['message']}" if r['message'] else ""))
PY
  ctest --test-dir build-device -R 'CodeGpu|IsolationGpu' --output-on-failure 2>&1 |
    grep -E "tests passed|tests failed|Failed|Passed"
fi
