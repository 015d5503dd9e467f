#!/usr/bin/env bash
# The NCCL path on a machine with two or more GPUs (the CPU suite cannot run it):
# after ../shared/cuda-build's build-cuda.sh, from the project root,
#   tests/distributed/gpu_check.sh BUILD/app/savepoint-cli [OUT_DIR]
# 1. a 2-worker CUDA job (one GPU a worker, NCCL) twice: both ranks and both runs end
#    with the same params_sha256;
# 2. kill -9 of rank 1 mid-run under --max_restarts 1: torchrun restarts the job, it
#    resumes from its last checkpoint and ends with the uninterrupted run's parameters.
# Exit 0 all pass, 1 a failure, 77 fewer than two GPUs or no torchrun.
set -uo pipefail
CLI=${1:?usage: gpu_check.sh PATH/TO/savepoint-cli [OUT_DIR]}
OUT=${2:-$(mktemp -d)}
mkdir -p "$OUT"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
((gpus >= 2)) || { echo "SKIP: the NCCL check needs two GPUs, found ${gpus:-0}"; exit 77; }
if command -v torchrun >/dev/null; then TORCHRUN=(torchrun); else TORCHRUN=(python3 -m torch.distributed.run); fi
export TMPDIR=$OUT
fails=0
pass() { echo "PASS  $*"; }
fail() { echo "FAIL  $*"; fails=$((fails + 1)); }
data=synthetic
[[ -d .gpu-kit/data ]] && data=.gpu-kit/data
ARGS=(--run dp --data "$data" --model mlp --device cuda --epochs 2 --steps-per-epoch 1500 --batch 64 --save-freq 100 --seed 7)
job() {  # LOG HOME [torchrun flags...]
  local log=$1 home=$2; shift 2
  "${TORCHRUN[@]}" --nnodes 1 --nproc_per_node 2 --rdzv_backend c10d --rdzv_endpoint "127.0.0.1:$((20000 + RANDOM % 20000))" \
    --monitor_interval 0.2 "$@" --no_python "$CLI" train --home "$home" "${ARGS[@]}" >"$log" 2>&1
}
sha_of() { grep -o "\[default$2\]:params_sha256 [0-9a-f]*" "$1" | tail -1 | cut -d' ' -f2; }
tee_flags=(--redirects 1 --tee 1)  # each worker's stdout in the log, prefixed [defaultN]:

job "$OUT/a.log" "$OUT/a" "${tee_flags[@]}"; rc_a=$?
job "$OUT/b.log" "$OUT/b" "${tee_flags[@]}"; rc_b=$?
a0=$(sha_of "$OUT/a.log" 0) a1=$(sha_of "$OUT/a.log" 1) b0=$(sha_of "$OUT/b.log" 0)
if ((rc_a == 0 && rc_b == 0)) && [[ -n $a0 && $a0 == "$a1" && $a0 == "$b0" ]]; then
  pass "2 GPUs, NCCL, twice: params_sha256 $a0 on both ranks and both runs; $(grep -o '\[default0\]:gradient all-reduce: .*' "$OUT/a.log")"
else
  fail "2 GPUs twice: exit $rc_a/$rc_b, rank 0 $a0, rank 1 $a1, run 2 $b0 ($OUT/a.log)"
  head -30 "$OUT/a.log"
fi

job "$OUT/k.log" "$OUT/k" "${tee_flags[@]}" --max_restarts 1 &
jobpid=$!
killed=0
for _ in $(seq 600); do
  if grep -q "\[default0\]:saved checkpoint #" "$OUT/k.log" 2>/dev/null; then
    for p in $(pgrep -f "savepoint-cli train --home $OUT/k"); do
      tr '\0' '\n' </proc/$p/environ 2>/dev/null | grep -qx RANK=1 && kill -9 "$p" && killed=1
    done
    ((killed)) && break
  fi
  sleep 0.1
done
wait $jobpid; rc_k=$?
k0=$(sha_of "$OUT/k.log" 0)
if ((killed && rc_k == 0)) && [[ $k0 == "$a0" ]]; then
  pass "kill -9 of rank 1: torchrun restarted the job, it resumed and ended with the uninterrupted run's parameters"
else
  fail "kill -9 of rank 1: killed $killed, exit $rc_k, final $k0 vs $a0 ($OUT/k.log)"
  grep -E "resum|restart|rror" "$OUT/k.log" | head -20
fi
echo "$fails failure(s)"
exit $((fails > 0))
