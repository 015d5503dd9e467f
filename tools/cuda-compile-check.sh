#!/usr/bin/env bash
# Compile-checks the code only a CUDA build compiles (docs/CUDA.md, the compile check): every file of
# engine/cuda/ and every .cpp/.h of engine/, app/, ui/ and tests/ that includes a CUDA-only header,
# with ../shared/cuda-build/compile-check.sh (PyTorch 2.11's CUDA LibTorch headers, CUDA 13's; about
# 40 s a file, so in parallel) and the macros a CUDA build defines. The CPU build never sees this code,
# so without this it could stop compiling unnoticed. Exit 0: all compiled; 1: names each that did not.
#   tools/cuda-compile-check.sh [--list | --self-test]
#     --list       print the files it would check, and stop
#     --self-test  the negative control: a checked file with a syntax error planted must fail
#   COMPILE_CHECK=PATH  the checker (default ../shared/cuda-build/compile-check.sh); JOBS=N (default nproc)
set -euo pipefail
cd "$(dirname "$0")/.."
checker=${COMPILE_CHECK:-../shared/cuda-build/compile-check.sh}
jobs=${JOBS:-$(nproc)}
# What a CUDA build's CMake defines (engine/cuda, engine/distributed).
defines=(-DSAVEPOINT_HAVE_CUDA -DUSE_C10D_NCCL -DSAVEPOINT_HAVE_NCCL)
# Headers a CPU-only LibTorch or system lacks. <torch/cuda.h> is not one: CPU LibTorch has it.
cuda_include='^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](ATen/cuda/|ATen/cudnn/|ATen/native/cuda/|c10/cuda/|torch/csrc/cuda/|cuda_runtime|cuda\.h|cuda_fp16|cudnn|cublas|cusparse|curand|cufft|nccl\.h|nvml\.h|nvrtc|torch/csrc/distributed/c10d/ProcessGroupNCCL\.hpp)'

[ -f "$checker" ] || { echo "cuda-compile-check: expected the compile checker at $checker (set COMPILE_CHECK)" >&2; exit 2; }

# The files, one a line, sorted. A header that a listed .cpp includes is checked through it.
list_files() {
  local cuda_dir=() others=() f
  if [ -d engine/cuda ]; then
    mapfile -t cuda_dir < <(find engine/cuda -type f \( -name '*.cpp' -o -name '*.cc' -o -name '*.h' -o -name '*.hpp' \) | sort)
  fi
  mapfile -t others < <(grep -rlE --include='*.cpp' --include='*.h' "$cuda_include" engine app ui tests 2>/dev/null | sort)
  local all=() sources=()
  mapfile -t all < <(printf '%s\n' "${cuda_dir[@]}" "${others[@]}" | sed '/^$/d' | sort -u)
  for f in "${all[@]}"; do [[ $f == *.h || $f == *.hpp ]] || sources+=("$f"); done
  for f in "${all[@]}"; do
    if [[ $f == *.h || $f == *.hpp ]]; then
      local inc=${f#engine/}  # engine's includes name the folder: "cuda/device_probe.h"
      if ((${#sources[@]})) && grep -qF "\"$inc\"" "${sources[@]}"; then continue; fi
    fi
    echo "$f"
  done
}

# Include folders beyond engine/'s (which the checker adds): the CLI's, the tests', Qt's for a test.
extra=(-I app/cli -I tests/support -xc++)
for d in /usr/include/x86_64-linux-gnu/qt6 /usr/include/x86_64-linux-gnu/qt6/QtCore /usr/include/x86_64-linux-gnu/qt6/QtTest; do
  [ -d "$d" ] && extra+=(-I "$d")
done
extra+=(-DQT_NO_KEYWORDS)

# One file ($1), its compiler output in $2/: a line "ok  FILE" or "ERR FILE". Run by xargs, so a string.
# shellcheck disable=SC2016  # expanded by the bash that xargs starts
one='f=$1; log=$2/$(echo "$f" | tr / _).log
# shellcheck disable=SC2086  # the flags are words, none with a space
if bash "$checker" $defs $extras "$f" >"$log" 2>&1; then echo "ok  $f"; else echo "ERR $f"; fi'
export checker defs="${defines[*]}" extras="${extra[*]}"

if [ "${1:-}" = --list ]; then list_files; exit 0; fi

if [ "${1:-}" = --self-test ]; then
  first=$(list_files | awk '/\.(cpp|cc)$/ && !f {f = $0} END {print f}')
  [ -n "$first" ] || { echo "cuda-compile-check --self-test: found no .cpp to plant a bug in" >&2; exit 1; }
  dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
  planted=$dir/planted_$(basename "$first")
  { cat "$first"; echo 'static int planted_syntax_error = ;'; } >"$planted"
  # Its own folder on the path, so that its includes resolve as they do for the original.
  if bash "$checker" "${defines[@]}" "${extra[@]}" -I "$(dirname "$first")" "$planted" >"$dir/log" 2>&1; then
    echo "cuda-compile-check --self-test: FAIL: a copy of $first with a syntax error appended compiled" >&2; exit 1
  fi
  grep -q 'planted_syntax_error' "$dir/log" || { echo "cuda-compile-check --self-test: FAIL: the checker failed, but not on the planted line:" >&2; tail -5 "$dir/log" >&2; exit 1; }
  echo "cuda-compile-check --self-test: ok: the checker rejects a planted syntax error in a copy of $first"
  exit 0
fi
[ $# -eq 0 ] || { echo "cuda-compile-check: unknown argument '$1' (expected --list or --self-test)" >&2; exit 2; }

mapfile -t files < <(list_files)
# Zero files means a refactor moved the CUDA code out of sight, not that there is none.
if [ ${#files[@]} -eq 0 ]; then
  echo "cuda-compile-check: found no file to check (expected engine/cuda/ or a file including a CUDA header)" >&2; exit 1
fi
for f in engine/cuda/*.cu; do [ -e "$f" ] && echo "cuda-compile-check: warning: $f is CUDA C++ (.cu), which this g++ check does not cover" >&2; done

start=$(date +%s)
logs=$(mktemp -d); trap 'rm -rf "$logs"' EXIT
results=
# compile-check.sh unpacks the headers on first use, which parallel first uses would race: one alone first.
if [ ! -f "${XDG_CACHE_HOME:-$HOME/.cache}/savepoint-torch-2.11-include/.done" ]; then
  results=$(bash -c "$one" _ "${files[0]}" "$logs")
  files_left=("${files[@]:1}")
else
  files_left=("${files[@]}")
fi
if ((${#files_left[@]})); then
  results+=$'\n'$(printf '%s\n' "${files_left[@]}" | xargs -P "$jobs" -I{} bash -c "$one" _ {} "$logs")
fi
results=$(sed '/^$/d' <<<"$results" | sort -b -k2)
echo "$results"
failed=$(awk '$1 == "ERR" {print $2}' <<<"$results")
secs=$(($(date +%s) - start))
if [ -n "$failed" ]; then
  for f in $failed; do
    log=$logs/$(echo "$f" | tr / _).log
    echo "--- $f:"; grep -m8 -A3 'error' "$log" || tail -8 "$log"
  done
  echo "cuda-compile-check: $(wc -w <<<"$failed") of ${#files[@]} files do not compile against the CUDA LibTorch: $(tr '\n' ' ' <<<"$failed")(${secs} s)" >&2
  exit 1
fi
echo "cuda-compile-check: ${#files[@]} files compile against PyTorch 2.11's CUDA LibTorch (${secs} s, $jobs jobs)"
