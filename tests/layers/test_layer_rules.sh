#!/usr/bin/env bash
# tools/check-layers.sh must pass on the tree and catch each kind of broken rule:
# a copy of the tree's sources gets one planted violation at a time, and the
# script must fail naming the file. Without these, a check that always passed
# would look the same as one that works.
#   tests/layers/test_layer_rules.sh [SOURCE_DIR]
set -uo pipefail
src=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
check=$src/tools/check-layers.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=0
expect() {  # expect <0|1> <description> <tree> <text the output must contain>
  local want=$1 what=$2 tree=$3 needle=$4 out rc
  out=$("$check" "$tree" 2>&1); rc=$?
  if [[ $rc -ne $want ]]; then
    echo "FAIL $what: exit $rc, expected $want"; echo "$out" | sed 's/^/    /'; failures=$((failures + 1))
  elif [[ -n "$needle" && "$out" != *"$needle"* ]]; then
    echo "FAIL $what: output does not name '$needle'"; echo "$out" | sed 's/^/    /'; failures=$((failures + 1))
  else
    echo "ok   $what"
  fi
}

expect 0 "the tree keeps every rule" "$src" "layer rules hold"

fresh() {  # a copy of the sources the script reads
  rm -rf "$tmp/t" && mkdir -p "$tmp/t" && cp -r "$src/engine" "$src/ui" "$src/app" "$tmp/t/"
  echo "$tmp/t"
}
plant() {  # plant <file relative to the copy> <line>
  printf '%s\n' "$2" >>"$tmp/t/$1"
}

t=$(fresh); plant engine/storage/durable_io.h '#include "training/trainer.h"'
expect 1 "a lower layer including a higher one" "$t" "engine/storage/durable_io.h"
t=$(fresh); plant engine/model/models.h '#include "registry/registry.h"'
expect 1 "a layer including a sibling it does not stand on" "$t" "engine/model/models.h"
t=$(fresh); plant engine/formats/idx_reader.cpp '#include <torch/torch.h>'
expect 1 "LibTorch in a torch-free layer" "$t" "engine/formats/idx_reader.cpp"
t=$(fresh); plant engine/platform/errors.h '#include <QString>'
expect 1 "Qt in the engine" "$t" "engine/platform/errors.h"
t=$(fresh); f=$(cd "$t" && find ui -name '*.cpp' | sort | head -1); plant "$f" '#include "registry/sqlite_stmt.h"'
expect 1 "the registry's private header outside it" "$t" "$f"
t=$(fresh); f=$(cd "$t" && find app -name '*.cpp' | sort | head -1); plant "$f" '#include <sqlite3.h>'
expect 1 "SQLite in a front end" "$t" "$f"
t=$(fresh); f=$(cd "$t" && find ui/bridge -name '*.cpp' | sort | head -1); plant "$f" '#include "window/main_window.h"'
expect 1 "the window's bridge including the window" "$t" "$f"
t=$(fresh); mkdir -p "$t/engine/newroom"; echo '#pragma once' >"$t/engine/newroom/x.h"
expect 1 "a folder the rules do not name" "$t" "engine/newroom"

if ((failures)); then echo "$failures failed"; exit 1; fi
echo "all layer-rule checks passed"
