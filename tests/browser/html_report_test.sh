#!/usr/bin/env bash
# `kbench report --html` in a real browser (ctest label host), Debian's headless Chromium driven
# by check_page.mjs over the DevTools protocol:
#   - installs chromium (and nodejs) with apt-get where missing, as scripts/install-deps.sh does;
#     exit 77 (ctest: skipped) with one line when they cannot be had;
#   - the report of the committed CSVs (results/h100.csv, results/h200.csv): loads, draws every
#     chart, no console error, nothing requested from outside the file;
#   - the history of results/h100.csv and of a synthetic history of 100 nights x 250 cases x 2 GPU
#     models (synthetic_history): the regressions the page lists and rings are exactly the cases
#     `kbench compare` fails as slower on each pair of consecutive nights (with --fail-slower 3 for
#     the synthetic one); the synthetic page is at most 5 MB and renders in under 2 s.
#
# Usage: html_report_test.sh KBENCH_EXE SYNTHETIC_HISTORY_EXE SOURCE_DIR
#        (KBENCH_HTML_KEEP=DIR keeps the pages, screenshots and summaries in DIR)
set -euo pipefail
kbench=$(realpath "$1")
synthetic=$(realpath "$2")
source_dir=$(realpath "$3")
here=$source_dir/tests/browser

skip() { echo "SKIP: the browser test cannot run here: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
missing=()
[ -x "$CHROMIUM" ] || installed chromium || missing+=(chromium)
command -v node >/dev/null || missing+=(nodejs)
if ((${#missing[@]})); then
  [ "$(id -u)" -eq 0 ] || skip "${missing[*]} missing, and only root installs them"
  echo "installing ${missing[*]}"
  log=$(mktemp)
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1 ||
    skip "apt-get could not install ${missing[*]}: $(tail -n 1 "$log")"
  rm -f "$log"
fi
[ -x "$CHROMIUM" ] || skip "no $CHROMIUM after installing chromium"

work=${KBENCH_HTML_KEEP:-$(mktemp -d /tmp/kbench-html.XXXXXX)}
mkdir -p "$work"
[ -n "${KBENCH_HTML_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
cd "$source_dir"

# Once more when a load fails: a Chromium that hangs at its start (seen once here) is not the
# page's fault; a page at fault fails twice.
check() {
  node "$here/check_page.mjs" "$@" && return
  echo "once more, the first load failed (above)"
  node "$here/check_page.mjs" "$@" || fail "check_page.mjs $*"
}

# The gate's verdicts on each run of a history against the one before, as RUN.json in $2: the
# runs in the order the history took them (history.md's table of runs, oldest first).
# gate_outputs HISTORY_MD DIR COMPARE_ARGS...: each pair given by --baseline-run/--run.
gate_outputs() {
  local md=$1 dir=$2
  shift 2
  mkdir -p "$dir"
  mapfile -t runs < <(awk '/^\| run +\| started/ {t = 1; next} t && /^\|--/ {next}
                           t && /^\|/ {gsub(/ /, "", $2); print $2; next} t {exit}' FS='|' "$md")
  ((${#runs[@]} > 1)) || fail "no runs read from $md"
  for ((k = 1; k < ${#runs[@]}; k++)); do
    local code=0
    "$kbench" compare "$@" --baseline-run "${runs[k - 1]}" --run "${runs[k]}" --format json \
      >"$dir/${runs[k]}.json" || code=$?
    ((code <= 1)) || fail "kbench compare ${runs[k - 1]} -> ${runs[k]} exited $code"
  done
}

echo "--- the report of the committed CSVs"
"$kbench" report results/h100.csv results/h200.csv -o "$work/report" --html "$work/report.html"
check --page "$work/report.html" --screenshot "$work/report.png" --full-page \
  --summary "$work/report.json"

echo "--- the history of results/h100.csv"
"$kbench" report results/h100.csv --history -o "$work/history" --html "$work/history.html" 2>/dev/null
gate_outputs "$work/history/history.md" "$work/history-gate" results/h100.csv
check --page "$work/history.html" --screenshot "$work/history.png" --full-page \
  --gate "$work/history-gate" --summary "$work/history.json"

echo "--- a synthetic history: 100 nights x 250 cases x 2 GPU models"
mkdir -p "$work/nights"
"$synthetic" "$work/nights" 100 250
nights=("$work"/nights/night-*.csv)
"$kbench" report "${nights[@]}" --history --fail-slower 3 -o "$work/synthetic" \
  --html "$work/synthetic.html" 2>/dev/null
# Here each night is its own file: `compare BASELINE.csv CANDIDATE.csv` reads two of them.
mkdir -p "$work/synthetic-gate"
for ((k = 1; k < ${#nights[@]}; k++)); do
  code=0
  run=$(printf 'nightly-%03d' $((k + 1)))
  "$kbench" compare "${nights[k - 1]}" "${nights[k]}" --fail-slower 3 --format json \
    >"$work/synthetic-gate/$run.json" || code=$?
  ((code <= 1)) || fail "kbench compare night $k -> $((k + 1)) exited $code"
done
bytes=$(stat -c %s "$work/synthetic.html")
((bytes <= 5 * 1024 * 1024)) || fail "the synthetic page is $bytes bytes, more than 5 MB"
# Render time is the page's own clock: from navigation to every chart drawn.
check --page "$work/synthetic.html" --screenshot "$work/synthetic.png" --full-page \
  --gate "$work/synthetic-gate" --max-render-ms 2000 --summary "$work/synthetic.json" >/dev/null
node -e '
  const s = require(process.argv[1]);
  console.log(`synthetic page: ${(s.bytes / 1048576).toFixed(2)} MB, rendered in ${s.render_ms} ms ` +
              `(${s.charts} charts); regressions: ${s.listed} listed, ${s.rings_drawn} ringed, ` +
              `${s.gate_regressions} failed by kbench compare --fail-slower 3`);' "$work/synthetic.json"
echo "PASS"
