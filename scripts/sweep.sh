#!/usr/bin/env bash
# Installs what is missing, builds the runner and the plugins (not the tests: scripts/test.sh),
# and runs the default sweep of every family, appending to results/results.csv. Arguments go to
# `kbench run` (e.g. --family transpose --dtypes float64).
set -euo pipefail
cd "$(dirname "$0")/.."
KBENCH_BUILD_TARGET=kbench_sweep scripts/build.sh
exec "${KBENCH_BUILD_DIR:-build}/bin/kbench" run --output results/results.csv "$@"
