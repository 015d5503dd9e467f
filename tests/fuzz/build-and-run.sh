#!/usr/bin/env bash
# Builds the libFuzzer targets with clang-14 (-fsanitize=fuzzer,address,undefined)
# and runs each for a bounded time. Standalone: no CMake needed.
#
#   tests/fuzz/build-and-run.sh            # 60 s per target
#   tests/fuzz/build-and-run.sh 600        # 10 minutes per target
#   FUZZ_TARGETS="idx checkpoint" tests/fuzz/build-and-run.sh 30
#
# Targets:
#   idx         IDX reader (parse_idx_images / parse_idx_labels / gzip)      torch-free
#   checkpoint  checkpoint reader (parse_checkpoint_body / verify_checkpoint_bytes)  torch-free
#   cli         savepoint::run_cli argument parser (links LibTorch through the
#               engine library of a normal build: ENGINE_BUILD, default build/
#               then /tmp/build-rel; skipped with a message if none is built)
#
# Seeds: tests/fuzz/corpus/<target>/ (read-only; new inputs go to $FUZZ_OUT/corpus-<target>).
# A crash leaves $FUZZ_OUT/crash-<target>-*: copy it into tests/fuzz/regressions/<target>/
# and it becomes part of test_fuzz_regressions (ctest) and of every later run here.
# Exit status: 0 if no target crashed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.."
SECS=${1:-${FUZZ_SECONDS:-60}}
OUT=${FUZZ_OUT:-/tmp/savepoint-fuzz}
TARGETS=${FUZZ_TARGETS:-idx checkpoint cli}
CXX=${FUZZ_CXX:-clang++-14}
mkdir -p "$OUT"
SAN="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
COMMON="-std=c++17 -g -O1 -Iengine -D_GLIBCXX_USE_CXX11_ABI=1"
# A negative control (run-negative-controls.sh) plants a bug: compile the planted bugs in.
[[ -n ${SAVEPOINT_PLANT_BUG:-} ]] && COMMON+=" -DSAVEPOINT_PLANTED_BUGS"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The torch-free targets are built from the engine layers the savepoint_formats
# library is made of (engine/CMakeLists.txt): platform, storage and formats.
# startup_heap.cpp is no part of them (an executable's preinit, platform/CMakeLists.txt).
formats_sources() { ls engine/platform/*.cpp engine/storage/*.cpp engine/formats/*.cpp | grep -v startup_heap; }

# The engine's layer libraries of a normal build, top layer first, as a linker wants them.
# A layer added to engine/CMakeLists.txt must be added here too; the check below says so.
ENGINE_LAYERS="remote training distributed checkpoint registry model data formats storage cuda platform"
engine_libraries() {
  local l
  for l in $ENGINE_LAYERS; do echo "$1/engine/$l/libsavepoint_$l.a"; done
}
unlisted_layers() {
  local a l
  for a in "$1"/engine/*/libsavepoint_*.a; do
    l=$(basename "$a" .a); l=${l#libsavepoint_}
    [[ " $ENGINE_LAYERS " == *" $l "* ]] || echo "$l"
  done
}

build() {
  local t=$1
  case $t in
    idx|checkpoint)
      # shellcheck disable=SC2046 # the list is words
      $CXX $COMMON $SAN tests/fuzz/fuzz_$t.cpp $(formats_sources) -lz -lcrypto -lpthread -o "$OUT/fuzz_$t" ;;
    cli)
      local eb=""
      for d in "${ENGINE_BUILD:-}" build /tmp/build-rel; do
        [[ -n "$d" && -f "$d/engine/training/libsavepoint_training.a" ]] && { eb=$d; break; }
      done
      if [[ -z "$eb" ]]; then echo "fuzz cli: SKIPPED (no built engine library; build savepoint_engine first or set ENGINE_BUILD)"; return 2; fi
      local missing; missing=$(unlisted_layers "$eb")
      if [[ -n "$missing" ]]; then echo "fuzz cli: engine layer(s) $missing not in ENGINE_LAYERS of $0"; return 1; fi
      local TI="-isystem /usr/include/torch/csrc/api/include -Iapp/cli"
      # The CLI's own code is instrumented; the engine library and LibTorch are not (they are linked as built).
      # Every source of app/cli/ (the savepoint_cli library; the executable's main lives one level up).
      local objs=() f
      for f in app/cli/*.cpp; do
        f=$(basename "$f" .cpp)
        $CXX $COMMON $TI -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
          -c "app/cli/$f.cpp" -o "$OUT/$f.o" || return 1
        objs+=("$OUT/$f.o")
      done
      $CXX $COMMON $TI $SAN tests/fuzz/fuzz_cli.cpp "${objs[@]}" \
        $(engine_libraries "$eb") -ltorch -ltorch_cpu -lc10 -lsqlite3 -lcurl -lcrypto -lz -lpthread \
        -o "$OUT/fuzz_cli" ;;
  esac
}

status=0
for t in $TARGETS; do
  echo "== fuzz $t: building"
  build "$t"; rc=$?
  if [[ $rc == 2 ]]; then continue; fi
  if [[ $rc != 0 ]]; then echo "fuzz $t: BUILD FAILED"; status=1; continue; fi
  mkdir -p "$OUT/corpus-$t"
  # Known crashes first: they must all pass now.
  if compgen -G "tests/fuzz/regressions/$t/*" >/dev/null; then
    "$OUT/fuzz_$t" -runs=0 tests/fuzz/regressions/$t/* >"$OUT/regressions-$t.log" 2>&1 \
      || { echo "fuzz $t: a regression input crashes again (see $OUT/regressions-$t.log)"; status=1; }
  fi
  echo "== fuzz $t: running ${SECS}s"
  extra=""
  [[ $t == cli ]] && extra="-rss_limit_mb=4096 -timeout=20"
  if "$OUT/fuzz_$t" -max_total_time="$SECS" -max_len=4096 -print_final_stats=1 $extra \
       -artifact_prefix="$OUT/crash-$t-" "$OUT/corpus-$t" "tests/fuzz/corpus/$t" >"$OUT/fuzz-$t.log" 2>&1; then
    echo "fuzz $t: OK ($(grep -E 'stat::number_of_executed_units' "$OUT/fuzz-$t.log" | awk '{print $2}') runs, corpus $(ls "$OUT/corpus-$t" | wc -l))"
  else
    echo "fuzz $t: CRASH, see $OUT/fuzz-$t.log and $OUT/crash-$t-*"
    tail -40 "$OUT/fuzz-$t.log"
    status=1
  fi
done
exit $status
