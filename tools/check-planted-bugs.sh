#!/usr/bin/env bash
# The planted bugs (engine/platform/planted_bugs.h) against what describes and runs them:
#   tools/check-planted-bugs.sh SRC                 every bug in docs/RELIABILITY.md's table and in
#                                                   tests/reliability/run-negative-controls.sh, and
#                                                   nothing there that the header does not list
#   tools/check-planted-bugs.sh SRC --absent BIN... no bug's name in these binaries (a build
#                                                   without SAVEPOINT_PLANTED_BUGS)
#   tools/check-planted-bugs.sh SRC --self-test     each check fails on a planted mismatch
# Exit 0 when all hold, 1 naming each one that does not.
set -uo pipefail
SRC=${1:?usage: check-planted-bugs.sh SRC [--absent BIN...|--self-test]}
shift

names() { grep -oE '^ *X\([A-Za-z0-9]+, "[a-z0-9-]+"\)' "$1/engine/platform/planted_bugs.h" | sed -E 's/.*"(.*)".*/\1/'; }

check_lists() {  # SRC [RELIABILITY.md] [run-negative-controls.sh]
  local src=$1 doc=${2:-$1/docs/RELIABILITY.md} script=${3:-$1/tests/reliability/run-negative-controls.sh}
  local bad=0 n listed
  listed=$(names "$src")
  [[ -n $listed ]] || { echo "check-planted-bugs: no X(..., \"name\") entries in $src/engine/platform/planted_bugs.h"; return 1; }
  for n in $listed; do
    grep -q "^| \`$n\` |" "$doc" || { echo "check-planted-bugs: $n (planted_bugs.h) has no row in $doc's negative controls table"; bad=1; }
    grep -qE "(run|bug in|PLANT_BUG=)[^#]*\\b$n\\b" "$script" || { echo "check-planted-bugs: $n (planted_bugs.h) is not run by $script"; bad=1; }
  done
  for n in $(grep -oE '^\| `[a-z0-9-]+` \|' "$doc" | sed -E 's/^\| `(.*)` \|/\1/'); do
    grep -qx "$n" <<<"$listed" || { echo "check-planted-bugs: $doc lists $n, which planted_bugs.h does not"; bad=1; }
  done
  return $bad
}

check_absent() {
  local bad=0 b n
  for b in "$@"; do
    [[ -f $b ]] || { echo "check-planted-bugs: no binary $b"; bad=1; continue; }
    for n in $(names "$SRC"); do
      if grep -qaF -- "$n" "$b"; then echo "check-planted-bugs: $b contains the planted bug name '$n' (built with SAVEPOINT_PLANTED_BUGS?)"; bad=1; fi
    done
  done
  ((bad == 0)) && echo "check-planted-bugs: none of the $(names "$SRC" | wc -l) planted bug names in $*"
  return $bad
}

case ${1:-} in
  --absent) shift; check_absent "$@" ;;
  --self-test)
    t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
    first=$(names "$SRC" | head -1)
    sed "/^| \`$first\` |/d" "$SRC/docs/RELIABILITY.md" >"$t/RELIABILITY.md"
    if check_lists "$SRC" "$t/RELIABILITY.md" >/dev/null; then echo "self-test: a bug missing from the table passed"; exit 1; fi
    printf 'binary\0%s\0' "$first" >"$t/bin"
    if check_absent "$t/bin" >/dev/null; then echo "self-test: a binary holding '$first' passed"; exit 1; fi
    echo "self-test: ok: a bug missing from RELIABILITY.md's table and a binary holding its name both fail" ;;
  *) check_lists "$SRC" && echo "check-planted-bugs: $(names "$SRC" | wc -l) planted bugs, each in docs/RELIABILITY.md and run-negative-controls.sh" ;;
esac
