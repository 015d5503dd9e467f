#!/usr/bin/env bash
# Builds the project under each sanitizer preset (CMakePresets.json: asan =
# ASan+UBSan, tsan = ThreadSanitizer) and runs the test suite under it.
#
#   tests/reliability/run-sanitizers.sh                 # asan and tsan, suite without -L long
#                                                       # (tsan also without -L reliability)
#   tests/reliability/run-sanitizers.sh asan            # one preset
#   SANITIZER_TESTS='reliability|unit' tests/reliability/run-sanitizers.sh asan   # a label subset
#   SANITIZER_GUI=OFF ...                               # skip the GUI (and its tests)
#
# Only our code is instrumented: LibTorch, Qt and SQLite are Debian's builds.
# ASan still sees our heap errors (and LibTorch writing past our buffers);
# leaks allocated inside those libraries and TSan reports inside their own
# threads are suppressed (tests/reliability/sanitizers/*.supp), never ours.
# Child savepoint-cli processes run instrumented too (same build tree).
# Prints the build and test time of each preset. Exit 1 if anything failed.
# Measured on this 2-core machine (unity builds, no ccache): see docs/RELIABILITY.md.
set -uo pipefail
cd "$(dirname "$0")/../.."
presets=("${@:-asan tsan}")
[[ $# -eq 0 ]] && presets=(asan tsan)
JOBS=${SANITIZER_JOBS:-2}
LABELS=${SANITIZER_TESTS:-}
status=0
build() {  # preset -> 0 when built; logs in /tmp/savepoint-<preset>-*.log
  local p=$1 t0=$(date +%s)
  if ! cmake --preset "$p" -DSAVEPOINT_BUILD_GUI="${SANITIZER_GUI:-ON}" >/tmp/savepoint-$p-configure.log 2>&1; then
    echo "$p: CONFIGURE FAILED (/tmp/savepoint-$p-configure.log)"; return 1
  fi
  if ! cmake --build --preset "$p" -j"$JOBS" >/tmp/savepoint-$p-build.log 2>&1; then
    echo "$p: BUILD FAILED"; tail -30 /tmp/savepoint-$p-build.log; return 1
  fi
  echo "== $p: built in $(( $(date +%s) - t0 )) s"
}
run_tests() {  # preset
  local p=$1 t1=$(date +%s) r
  local args=(--preset "$p")
  [[ -n "$LABELS" ]] && args+=(-L "$LABELS")
  # The kill storm and power loss run in run-long.sh on the plain build. The crash-point
  # sweep gives each k one of its three faults here (SAVEPOINT_SWEEP_ONE_MODE): every
  # instrumented process start costs seconds, and the plain build runs all three.
  # Which labels each preset leaves out is in CMakePresets.json (tsan: also `reliability`).
  if SAVEPOINT_SWEEP_ONE_MODE=1 ctest "${args[@]}" --timeout 1800; then r=passed; else r=FAILED; status=1; fi
  echo "== $p: tests $r in $(( $(date +%s) - t1 )) s"
}
# With more than one preset, the next one builds (niced) while the previous one's tests
# run: the tests spend much of their time in process start-up, fsync and waits, so the
# two overlap well on 2 cores. SANITIZER_OVERLAP=0 runs them strictly one after another.
pending=""
for i in "${!presets[@]}"; do
  p=${presets[$i]}
  if [[ -n "$pending" ]]; then
    wait "$pending"; built=$?; pending=""
  else
    echo "== $p: configure + build"; build "$p"; built=$?
  fi
  next=${presets[$((i + 1))]:-}
  if [[ -n "$next" && ${SANITIZER_OVERLAP:-1} != 0 ]]; then
    echo "== $next: configure + build (alongside $p's tests)"
    nice -n 10 bash -c "$(declare -f build); JOBS=$JOBS; build $next" &
    pending=$!
  fi
  if [[ $built -ne 0 ]]; then status=1; continue; fi
  echo "== $p: testing"
  run_tests "$p"
done
exit $status
