#!/usr/bin/env bash
# Checks the engine's layer rules (docs/ARCHITECTURE.md) over every #include:
# - a folder of engine/ includes only itself and the folders it stands on;
# - platform, storage, formats and registry include no LibTorch, and no engine
#   file includes Qt;
# - registry/sqlite_stmt.h and registry_rows.h are registry's own: nothing outside engine/registry/
#   includes it, and ui/ and app/ include no <sqlite3.h> (they reach the
#   registry through its API).
# - in ui/, bridge/ <- models/ <- window/ and plot/ <- window/.
#   tools/check-layers.sh [ROOT]     exit 0 when every rule holds, 1 otherwise
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2

# What each folder may include besides itself. The order is strict: no cycles.
declare -A allowed=(
  [platform]=""
  [storage]="platform"
  [formats]="platform storage"
  [data]="platform storage formats"
  [model]="platform storage"
  [cuda]="platform"
  [registry]="platform storage"
  [checkpoint]="platform storage formats data model registry"
  [distributed]="platform storage formats data model registry checkpoint"
  [training]="platform storage formats data model registry checkpoint distributed cuda"
  [remote]="platform storage formats registry"
)
torch_free="platform storage formats registry remote"

bad=0
complain() { echo "$1: $2"; bad=1; }

for dir in engine/*/; do
  layer=$(basename "$dir")
  [[ -v "allowed[$layer]" ]] || { complain "$dir" "a folder the layer rules do not name (add it to tools/check-layers.sh and docs/ARCHITECTURE.md)"; continue; }
  while IFS=: read -r file line text; do
    # A bash match, not a sed per line: a thousand forks took ~25 s on a busy machine.
    [[ "$text" =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*[\<\"]([^\>\"]*)[\>\"] ]] || continue
    inc=${BASH_REMATCH[1]}
    case "$inc" in
      torch/* | ATen/* | c10/*)
        [[ " $torch_free " == *" $layer "* ]] && complain "$file:$line" "$layer/ includes no LibTorch, found <$inc>" ;;
      Q* | qcustomplot.h)
        complain "$file:$line" "the engine includes no Qt, found <$inc>" ;;
      */*)
        target=${inc%%/*}
        if [[ -d engine/$target && "$target" != "$layer" && " ${allowed[$layer]} " != *" $target "* ]]; then
          complain "$file:$line" "$layer/ may include only ${allowed[$layer]:-nothing of the engine}, found \"$inc\""
        fi ;;
    esac
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include' "$dir"*.h "$dir"*.cpp 2>/dev/null)
done

for private in sqlite_stmt.h registry_rows.h; do
  while IFS=: read -r file line _; do
    [[ "$file" == engine/registry/* ]] || complain "$file:$line" "registry/$private is private to engine/registry/; use the Registry API"
  done < <(grep -rn --include='*.h' --include='*.cpp' "#include \"registry/$private\"" engine ui app tests 2>/dev/null)
done

while IFS=: read -r file line _; do
  complain "$file:$line" "the front ends reach the registry through the engine's API, not SQLite"
done < <(grep -rn --include='*.h' --include='*.cpp' '#include <sqlite3.h>' ui app 2>/dev/null)

# ui/ has its own order: bridge/ (the Qt adapter around the engine) <- models/
# <- window/, and plot/ <- window/. Nothing below window/ includes it.
declare -A ui_allowed=(
  [bridge]=""
  [models]="bridge"
  [plot]=""
  [window]="bridge models plot"
)
for dir in ui/*/; do
  layer=$(basename "$dir")
  [[ -v "ui_allowed[$layer]" ]] || { complain "$dir" "a ui folder the layer rules do not name (add it to tools/check-layers.sh)"; continue; }
  while IFS=: read -r file line text; do
    inc=""
    [[ "$text" =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]*)\" ]] && inc=${BASH_REMATCH[1]}
    target=${inc%%/*}
    if [[ "$inc" == */* && -v "ui_allowed[$target]" && "$target" != "$layer" && " ${ui_allowed[$layer]} " != *" $target "* ]]; then
      complain "$file:$line" "ui/$layer/ may include ${ui_allowed[$layer]:+only }${ui_allowed[$layer]:-no other ui folder}, found \"$inc\""
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include' "$dir"*.h "$dir"*.cpp 2>/dev/null)
done

if ((bad)); then
  echo "layer rules broken (docs/ARCHITECTURE.md says what each folder may include)"
  exit 1
fi
echo "layer rules hold: $(ls -d engine/*/ | wc -l) engine folders, $(ls -d ui/*/ | wc -l) ui folders, every #include checked"
