#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test with ctest. Without a GPU the tests
# labelled `gpu` skip with a reason; the host tests must pass. Before them, the docs' word count
# against its budget (scripts/docs-words.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh -DKBENCH_BUILD_TESTS=ON
scripts/docs-words.sh
ctest --test-dir "${KBENCH_BUILD_DIR:-build}" --output-on-failure -j"$(nproc)" --timeout 1200
