#!/usr/bin/env bash
# The long reliability suites, run by .ci/run after the README's test command
# (which already built ./build and ran the quick `reliability` harnesses).
#
#   tests/reliability/run-long.sh
#
# Steps, each timed:
#   1. ctest -L long: kill storm (SAVEPOINT_KILLS, default 200) and power loss
#      (SAVEPOINT_POWER_TRIALS, default 50; needs root, skips otherwise)
#   2. ctest -L reliability: crash-point sweep, disk full, corruption, two
#      processes, registry upgrades, bad-input catalogue, fuzz regressions
#      (again, so this script alone proves everything; SAVEPOINT_LONG_QUICK=0 skips)
#   3. bounded fuzzing: tests/fuzz/build-and-run.sh ${FUZZ_SECONDS:-60} per target
#   4. sanitizers: tests/reliability/run-sanitizers.sh asan tsan (the tsan build
#      overlaps the asan tests) if the time left in LONG_BUDGET_S (default 2700 s)
#      covers SANITIZER_EST_S per preset (default 1500 s); SAVEPOINT_SANITIZERS=0
#      skips, =1 forces (CI). With CI_STARTED and CI_BUDGET_S set (.ci/run), even
#      forced sanitizers fit what is left of that budget: both presets when
#      ~CI_SANITIZERS_BOTH_S (default 3000 s) are left, ASan+UBSan alone when
#      ~CI_SANITIZER_ASAN_S (default 1700 s) are, otherwise none; the summary says so.
#      SANITIZER_GUI=OFF (CI) builds and tests them without the GUI.
# Build dir: BUILD_DIR (default build). Exit 1 if any step failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD_DIR:-build}
BUDGET=${LONG_BUDGET_S:-2700}
EST=${SANITIZER_EST_S:-1500}
start=$(date +%s)
status=0
summary=()
step() {  # name, command...
  local name=$1; shift
  local t0=$(date +%s)
  echo "=== run-long: $name"
  if "$@"; then r=ok; else r=FAILED; status=1; fi
  summary+=("$(printf '%-32s %-7s %5d s' "$name" "$r" $(( $(date +%s) - t0 )))")
}
restore_vm() {  # the power-loss test restores these itself; this is the belt to its braces
  [[ -n "${wb:-}" ]] && echo "$wb" >/proc/sys/vm/dirty_writeback_centisecs 2>/dev/null
  [[ -n "${ex:-}" ]] && echo "$ex" >/proc/sys/vm/dirty_expire_centisecs 2>/dev/null
}
wb=$(cat /proc/sys/vm/dirty_writeback_centisecs 2>/dev/null || true)
ex=$(cat /proc/sys/vm/dirty_expire_centisecs 2>/dev/null || true)
trap restore_vm EXIT

cmake --build "$BUILD" -j2 --target test_kill_storm test_power_loss >/dev/null 2>&1 || true
step "kill storm + power loss" ctest --test-dir "$BUILD" --output-on-failure -L long
if [[ ${SAVEPOINT_LONG_QUICK:-1} != 0 ]]; then
  step "quick reliability harnesses" ctest --test-dir "$BUILD" --output-on-failure -j2 -L reliability
fi
step "fuzzing (${FUZZ_SECONDS:-60} s/target)" env ENGINE_BUILD="$BUILD" tests/fuzz/build-and-run.sh "${FUZZ_SECONDS:-60}"
left=$(( BUDGET - ($(date +%s) - start) ))
if [[ ${SAVEPOINT_SANITIZERS:-auto} == 0 ]]; then
  summary+=("$(printf '%-32s %-7s' "sanitizers asan + tsan" skipped) (SAVEPOINT_SANITIZERS=0)")
elif [[ ${SAVEPOINT_SANITIZERS:-auto} != 1 && $left -lt $((2 * EST)) ]]; then
  summary+=("$(printf '%-32s %-7s' "sanitizers asan + tsan" skipped) (${left} s left < $((2 * EST)) s estimated)")
elif [[ -n ${CI_STARTED:-} && -n ${CI_BUDGET_S:-} ]]; then
  ci_left=$(( CI_STARTED + CI_BUDGET_S - $(date +%s) ))
  gui=""; [[ ${SANITIZER_GUI:-ON} == OFF ]] && gui=" (GUI off)"
  if (( ci_left >= ${CI_SANITIZERS_BOTH_S:-3000} )); then
    step "sanitizers asan + tsan$gui" tests/reliability/run-sanitizers.sh asan tsan
  elif (( ci_left >= ${CI_SANITIZER_ASAN_S:-1700} )); then
    step "sanitizers asan$gui" tests/reliability/run-sanitizers.sh asan
    summary+=("$(printf '%-32s %-7s' "sanitizer tsan" skipped) (${ci_left} s of CI's ${CI_BUDGET_S} s were left)")
  else
    summary+=("$(printf '%-32s %-7s' "sanitizers asan + tsan" skipped) (${ci_left} s of CI's ${CI_BUDGET_S} s were left)")
  fi
else
  step "sanitizers asan + tsan" tests/reliability/run-sanitizers.sh asan tsan
fi
echo "=== run-long summary ($(( $(date +%s) - start )) s)"
printf '%s\n' "${summary[@]}"
exit $status
