#!/usr/bin/env bash
# Code that runs in a plugin's process (the families, the support helpers, the in-tree strategies
# and examples) makes no file outside the process's own temporary folder: the worker's sandbox
# refuses every other place. std::tmpfile(), tmpnam() and tempnam() open in /tmp or P_tmpdir
# whatever TMPDIR says, and a literal /tmp names the shared folder itself. memfd_create() or a file
# beneath $TMPDIR is what works there (tests/unit/sandboxed_files_test.cpp runs one in the sandbox).
set -euo pipefail
source_dir=$1
cd "$source_dir"
found=$(grep -rnE '\b(tmpfile|tmpfile64|tmpnam|tmpnam_r|tempnam)[[:space:]]*\(|P_tmpdir|"/(var/)?tmp\b' \
          --include='*.c' --include='*.cpp' --include='*.cu' --include='*.h' --include='*.hpp' \
          --include='*.cuh' core/sdk core/include plugins examples |
        grep -vE '^[^:]+:[0-9]+:[[:space:]]*(//|\*|/\*)' || true)
if [ -n "$found" ]; then
  echo "plugin-side code making files outside its own temporary folder (use memfd_create or \$TMPDIR):" >&2
  echo "$found" >&2
  exit 1
fi
echo "temporary files: ok"
