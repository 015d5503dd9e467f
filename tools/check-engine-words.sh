#!/usr/bin/env bash
# The engine words outcomes as data; the front ends word them for their users (the CLI with
# its flags, the window with its controls). This check finds command-line flag text ("--lr",
# "savepoint-cli resume ...") inside string literals under engine/, comments aside.
#   tools/check-engine-words.sh SRC               fails on a file with more than
#                                                 tools/engine-flag-text.expected allows, or fewer
#                                                 (then lower its count: the list only shrinks)
#   tools/check-engine-words.sh SRC --self-test   a planted flag in a copy must fail
# Exit 0 when it holds, 1 naming each file that does not.
set -uo pipefail
SRC=${1:?usage: check-engine-words.sh SRC [--self-test]}
EXPECTED=${EXPECTED:-$SRC/tools/engine-flag-text.expected}

# How many string literals of a file (comments stripped first; "s3://" is no comment) hold a flag or a CLI command.
flag_lines() {
  sed -E 's:(^|[[:space:]])//.*$::' "$1" | grep -oE '"([^"\\]|\\.)*"' | grep -cE -- '(^|[^a-z0-9-])--[a-z][a-z_-]+|savepoint-cli [a-z]'
}

check() {  # root expected
  local root=$1 expected=$2 bad=0 f n allowed total=0
  while IFS= read -r f; do
    n=$(flag_lines "$root/$f")
    ((n == 0)) && { grep -q "^$f " "$expected" && { echo "check-engine-words: $f has no flag text now: delete its line from $expected"; bad=1; }; continue; }
    allowed=$(awk -v f="$f" '$1 == f {print $2}' "$expected")
    total=$((total + n))
    if [[ -z $allowed ]]; then echo "check-engine-words: $f: $n string(s) with command-line flag text; word the outcome as data (platform/errors.h) and let the front end name the flag"; bad=1
    elif ((n > allowed)); then echo "check-engine-words: $f: $n string(s) with flag text, $expected allows $allowed"; bad=1
    elif ((n < allowed)); then echo "check-engine-words: $f: $n string(s) with flag text, fewer than the $allowed listed: lower its count in $expected"; bad=1
    fi
  done < <(cd "$root" && find engine -name '*.cpp' -o -name '*.h' | sort)
  ((bad == 0)) && echo "check-engine-words: $total engine string(s) with flag text, none beyond $expected"
  return $bad
}

if [[ ${2:-} == --self-test ]]; then
  t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
  mkdir -p "$t/engine/x"; printf '// "--in-a-comment" is fine\nconst char* s = "fine";\n' >"$t/engine/x/a.cpp"
  : >"$t/expected"
  check "$t" "$t/expected" >/dev/null || { echo "self-test: a clean file failed"; exit 1; }
  printf 'const char* s = "use --lr X";\n' >>"$t/engine/x/a.cpp"
  if check "$t" "$t/expected" >/dev/null; then echo "self-test: a planted \"--lr\" string passed"; exit 1; fi
  echo "self-test: ok: a comment passes, a planted \"--lr\" in a string fails"
  exit 0
fi
check "$SRC" "$EXPECTED"
