#!/usr/bin/env bash
# What syncing every checkpoint to S3-compatible storage costs training: the same run with and
# without --remote, interleaved (A B A B ...), against Swift on loopback (tests/remote/s3_server_start.sh,
# started here if no server is up), then the client's raw upload and download throughput.
#   tests/benchmarks/remote_overhead.sh [PAIRS]      # BUILD_DIR=build; figures go to docs/REMOTE.md
set -uo pipefail
cd "$(dirname "$0")/../.."
B=${BUILD_DIR:-build}
pairs=${1:-3}
S3DIR=${SAVEPOINT_S3_DIR:-/tmp/savepoint-s3-$(id -u)}
[[ -f $S3DIR/env ]] || tests/remote/s3_server_start.sh || exit 1
[[ -f $S3DIR/env ]] || { echo "no S3 server (is Swift installed?)"; exit 77; }
. "$S3DIR/env"
T=$(mktemp -d /tmp/savepoint-remote-bench-XXXXXX)
trap 'rm -rf "$T"' EXIT
# mlp on synthetic data, a 4.9 MB checkpoint every 50 steps: 24 uploads in 1200 steps.
ARGS=(--data synthetic --model mlp --epochs 3 --steps-per-epoch 400 --batch 32 --save-freq 50 --threads 1 --seed 3)
row() {  # log -> "wall_s steps_per_s stall_ms"
  local log=$1
  echo "$(grep -o '[0-9.]* steps/s' "$log" | tail -1 | cut -d' ' -f1) $(grep -o 'held training up [0-9.]* ms' "$log" | grep -o '[0-9.]*')"
}
# cpu_s: the CLI's own user+system time. On one machine the loopback server (Python) competes with
# training for the same cores, so steps/s mixes the server's cost in; cpu_s is the client's alone.
printf "%-6s %-9s %10s %10s %12s %8s\n" pair remote wall_s steps/s stall_ms cpu_s
for i in $(seq 1 "$pairs"); do
  for mode in local remote; do
    extra=()
    [[ $mode == remote ]] && extra=(--remote "s3://$SAVEPOINT_S3_BUCKET/bench-$$-$i")
    t0=$(date +%s.%N)
    /usr/bin/time -f "%U %S" -o "$T/$mode-$i.time" \
      "$B/app/savepoint-cli" train --home "$T/$mode-$i" --run b "${ARGS[@]}" "${extra[@]}" >"$T/$mode-$i.log" 2>&1
    t1=$(date +%s.%N)
    read -r sps stall <<<"$(row "$T/$mode-$i.log")"
    cpu=$(awk '{print $1 + $2}' "$T/$mode-$i.time")
    printf "%-6s %-9s %10.2f %10s %12s %8s\n" "$i" "$mode" "$(echo "$t1 - $t0" | bc)" "$sps" "$stall" "$cpu"
    [[ $mode == remote ]] && grep -c '^uploaded checkpoint' "$T/$mode-$i.log" | sed 's/^/         uploads: /'
  done
done
"$B/tests/benchmarks/bench_s3" "${BENCH_S3_MIB:-64}" 3
