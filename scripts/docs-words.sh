#!/usr/bin/env bash
# docs-words.sh [ROOT]: the words of reference a reader faces (README.md, docs/ and the families'
# pages, not docs/architecture.md, which is for developers) against the budget of about 20,000,
# the largest pages first. It prints; it does not fail: the budget is a goal the docs are held to
# in review, and the figure is in every CI log.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"
budget=20000
pages=(README.md docs/*.md docs/families/*.md)
total=0
declare -a lines=()
for page in "${pages[@]}"; do
  [ "$page" = docs/architecture.md ] && continue
  words=$(wc -w <"$page")
  total=$((total + words))
  lines+=("$words $page")
done
echo "docs: $total words of reference (budget $budget), $(wc -w <docs/architecture.md) in docs/architecture.md; the largest pages:"
printf '%s\n' "${lines[@]}" | sort -rn | head -5 | awk '{ printf "  %6d  %s\n", $1, $2 }'
