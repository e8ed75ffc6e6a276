#!/usr/bin/env bash
# check-layers.sh [ROOT]: fails, naming file, line and rule, on an include against the direction
# README.md's layout gives. Each layer of core/lib may include the layers listed for it (and
# itself); runner/ may include every layer, but only its child processes (runner/child/) the
# timing loop and the referee's, and the parent and the children nothing of each other;
# plugin code (core/include, core/sdk, plugins/) includes nothing of the runner's library; a
# family's header is included by that family alone; README.md's table of the layers says the
# same, and its table of the folders names folders that exist.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

declare -A may_include=(
  [util]=""
  [device]="util"
  [case]="util"
  [plugin]="util case"
  [kernel]="util device case plugin"
  [protocol]="util case plugin"
  [referee]="util device case plugin protocol"
  [measure]="util device case plugin protocol referee"
  [plan]="util device case plugin protocol"
  [store]="util case"
  [judge]="util device case plugin plan store"
  [analysis]="util device case store"
  [report]="util device case plugin store analysis"
  [tune]="util device case plugin plan store analysis"
)
layers=" ${!may_include[*]} "
status=0
# What a line's #include "..." names (bash alone: a process per line would take minutes).
quoted_include() {
  if [[ $1 =~ \#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]]; then echo "${BASH_REMATCH[1]}"; fi
}
refuse() {
  echo "check-layers: $1: $2" >&2
  status=1
}

# Every folder of core/lib is a layer with a rule.
for dir in core/lib/*/; do
  layer=$(basename "$dir")
  [[ -v "may_include[$layer]" ]] || refuse "$dir" "a folder that is no layer (add it to the rules)"
done

while IFS=: read -r file line text; do
  target=$(quoted_include "$text")
  [[ $target == */* ]] || continue
  to=${target%%/*}
  [[ $layers == *" $to "* ]] || continue
  case $file in
    core/lib/*)
      from=${file#core/lib/}
      from=${from%%/*}
      allowed=" $from ${may_include[$from]:-} "
      [[ $allowed == *" $to "* ]] ||
        refuse "$file:$line" "layer '$from' may not include '$target' (it may include:${allowed% })"
      ;;
    runner/child/*) ;;
    runner/*)
      if [[ $target == measure/case_timer.hpp || $target == referee/referee_service.hpp ]]; then
        refuse "$file:$line" "the parent never times nor judges: only runner/child/ includes $target"
      fi
      ;;
    core/include/* | core/sdk/* | plugins/* | examples/*)
      refuse "$file:$line" "plugin code may not include the runner's library ($target)"
      ;;
  esac
done < <(grep -rnE '^\s*#\s*include "[^"]+"' core runner plugins examples \
           --include='*.hpp' --include='*.cpp' --include='*.cu' --include='*.cuh' --include='*.h' \
           2>/dev/null || true)

# The child processes (runner/child/) and the parent (the rest of runner/) share only the layers:
# the parent starts a child by its mode (main.cpp alone includes child/child_commands.hpp), and a
# child includes nothing of the parent.
while IFS=: read -r file line text; do
  target=$(quoted_include "$text")
  case $file in
    runner/child/*)
      if [[ $target != child/* && -f runner/$target ]]; then
        refuse "$file:$line" "a child includes nothing of the parent ($target)"
      fi
      ;;
    runner/main.cpp) ;;
    runner/*)
      if [[ $target == child/* ]]; then
        refuse "$file:$line" "the parent starts a child, never includes it ($target)"
      fi
      ;;
  esac
done < <(grep -rnE '^\s*#\s*include "[^"]+"' runner --include='*.hpp' --include='*.cpp' 2>/dev/null || true)

# Includes name their folder: a bare "x.hpp" of the library from outside its folder is refused.
while IFS=: read -r file line text; do
  target=$(quoted_include "$text")
  [[ $target == */* ]] && continue
  if compgen -G "core/lib/*/$target" >/dev/null; then
    refuse "$file:$line" "include '$target' by its folder ($(ls core/lib/*/"$target" | cut -d/ -f3-))"
  fi
done < <(grep -rnE '^\s*#\s*include "[^"/]+"' core/lib runner tests --include='*.hpp' \
           --include='*.cpp' --include='*.cu' 2>/dev/null || true)

# A family's header is for its own strategies and referee: the author's SDK serves every family
# and includes none, a family includes only its own, and the runner knows families only through
# their libraries.
while IFS=: read -r file line text; do
  header=
  if [[ $text =~ \<kbench/families/([^\>]+)\> ]]; then header=${BASH_REMATCH[1]}; fi
  case $file in
    core/include/* | core/sdk/*)
      refuse "$file:$line" "the SDK serves every family and includes none (kbench/families/$header)"
      ;;
    core/lib/* | runner/*)
      refuse "$file:$line" "the runner knows a family through its library, never its header (kbench/families/$header)"
      ;;
    plugins/*/*)
      family=${file#plugins/}
      family=${family%%/*}
      [[ $header == "$family.hpp" || $header == "${family}"_* ]] ||
        refuse "$file:$line" "the family '$family' includes only its own header, not kbench/families/$header"
      ;;
  esac
done < <(grep -rnE '^\s*#\s*include <kbench/families/[^>]+>' core runner plugins \
           --include='*.hpp' --include='*.cpp' --include='*.cu' --include='*.cuh' --include='*.h' \
           --include='*.in' 2>/dev/null || true)

# README.md's table of the folders names folders that exist (a <placeholder> stands for any name).
if [ -f README.md ]; then
  while read -r folder; do
    pattern=$(sed -E 's/<[^>]+>/*/g' <<<"$folder")
    # shellcheck disable=SC2086 # the pattern is a glob
    ls -d $pattern >/dev/null 2>&1 || refuse README.md "the table of the folders names '$folder', which is no folder"
  done < <(sed -n '/^| folder | what |$/,/^$/p' README.md | sed -nE 's/^\| `([^`]+\/)` \|.*/\1/p')
fi

# README.md's table of the layers says what these rules say: a row per layer, and its last cell
# (what the layer may include) the same layers.
if [ -f README.md ]; then
  for layer in "${!may_include[@]}"; do
    row=$(grep -E "^\| \`$layer/\` \|" README.md || true)
    if [ -z "$row" ]; then
      refuse README.md "no row for the layer '$layer' in the table of the layers"
      continue
    fi
    said=$(awk -F'|' '{ print $(NF - 1) }' <<<"$row" | tr ',' '\n' | tr -d ' ' | grep -v '^—$' |
      grep . | sort | paste -sd ' ' || true)
    rule=$(tr ' ' '\n' <<<"${may_include[$layer]}" | grep . | sort | paste -sd ' ' || true)
    [ "$said" = "$rule" ] ||
      refuse README.md "the row of '$layer' says it may include '${said}'; the rule says '${rule}'"
  done
fi

if ((status == 0)); then echo "check-layers: every include goes the allowed way"; fi
exit $status
