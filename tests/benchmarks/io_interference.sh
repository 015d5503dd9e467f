#!/usr/bin/env bash
# What a save's work costs the training core when another core does it: a
# training run that never checkpoints (savepoint-cli train --save-freq epoch,
# one thread, pinned to CPU 0) beside io_load pinned to CPU 1 doing, every
# PERIOD ms, nothing, or one part of a save (io_load.cpp: disk, copy, hash,
# save), and beside nothing but a run that really saves every SAVE_EVERY steps.
# The modes alternate round by round; each is compared with the round's
# "none" run, so the host's drift between rounds cancels.
#
#   tests/benchmarks/io_interference.sh [ROUNDS=8] [PERIOD_MS=20] [SAVE_EVERY=30]
#
# 20 ms is the interval between saves every 30 steps at batch 32 here. ~4 min
# with the defaults. Needs a build in ./build and two CPUs.
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-8} period=${2:-20} every=${3:-30}
[[ $(nproc) -ge 2 ]] || { echo "io_interference: needs two CPUs, found $(nproc)" >&2; exit 1; }
cmake --build build --target io_load savepoint-cli -j"$(nproc)" >/dev/null
home=$(mktemp -d) data=$(mktemp)
trap 'rm -rf "$home" "$data"; [[ -n ${load:-} ]] && kill "$load" 2>/dev/null || true' EXIT
steps=6000
rate() {  # steps/s of one run: $1 = --save-freq, then the command's prefix
  local freq=$1
  shift
  rm -rf "$home/h"
  "$@" build/app/savepoint-cli train --run r --home "$home/h" --epochs 1 --steps-per-epoch $steps \
    --save-freq "$freq" --threads 1 2>&1 | grep -o '[0-9.]* steps/s' | tail -1 | cut -d' ' -f1
}
modes="none disk copy hash save every$every"
results=$(mktemp)
for r in $(seq "$rounds"); do
  for m in $modes; do
    load=
    if [[ $m != none && $m != every* ]]; then
      taskset -c 1 build/tests/benchmarks/io_load "$data" "$period" "$m" & load=$!
      sleep 0.2
    fi
    # A saving run places its own threads (its I/O thread on the disk's interrupt
    # CPU, training kept off it, io_affinity.h): pinning the process would change that.
    if [[ $m == every* ]]; then v=$(rate "$every" env); else v=$(rate epoch taskset -c 0); fi
    [[ -n $load ]] && { kill "$load"; wait "$load" 2>/dev/null || true; load=; }
    echo "$r $m $v" >>"$results"
  done
done
python3 - "$results" "$period" "$every" <<'PY'
import collections, statistics, sys
rounds = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    r, m, v = line.split()
    rounds[r][m] = float(v)
print(f"training slowdown against the same round's run beside an idle CPU 1 ({len(rounds)} rounds, "
      f"io_load every {sys.argv[2]} ms):")
for m in ["disk", "copy", "hash", "save", f"every{sys.argv[3]}"]:
    s = [100 * (1 - x[m] / x["none"]) for x in rounds.values()]
    what = f"savepoint-cli saving every {sys.argv[3]} steps (no io_load)" if m.startswith("every") else f"io_load {m}"
    print(f"  {what:48} mean {statistics.mean(s):+5.2f} %  median {statistics.median(s):+5.2f} %  "
          f"(from {min(s):+.1f} to {max(s):+.1f})")
PY
rm -f "$results"
