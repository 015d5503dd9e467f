#!/usr/bin/env bash
# Data-parallel training's cost and speed: one savepoint-cli process against a
# 2-worker torchrun job (Gloo, loopback), mlp and cnn at batch 32 and 128, same data:
#  - samples/s: steps x batch x workers / seconds computing steps (rank 0's
#    sessions.train_seconds in the registry: process start and torchrun's rendezvous left out);
#  - the gradient all-reduce's share of that time (rank 0's "gradient all-reduce:" line);
#  - what one checkpoint holds training up, a job-wide one against a single process's
#    (the "checkpoints:" line's mean: the job's includes gathering every rank's RNG state).
# The single process runs with 1 and with 2 threads: 2 workers of 1 thread each use the
# same two cores as one process of 2 threads.
#
#   tests/benchmarks/data_parallel_speed.sh [STEPS]     (default 400 steps a run, a save every 50)
set -euo pipefail
cd "$(dirname "$0")/../.."
steps=${1:-400}
cli=$PWD/build/app/savepoint-cli
[[ -x $cli ]] || { echo "data_parallel_speed: build $cli first" >&2; exit 2; }
torchrun=$(command -v torchrun) || { echo "data_parallel_speed: torchrun not on PATH (apt install python3-torch)" >&2; exit 2; }
data=synthetic
[[ -f /usr/share/datasets/fashion-mnist/train-images-idx3-ubyte.gz || -d ${SAVEPOINT_FASHION_MNIST_DIR:-/nonexistent} ]] && data=fashion-mnist
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work  # torchrun's own files

# train_seconds/steps of the run's last session, from the registry.
session_of() { /usr/bin/python3 -c "import sqlite3,sys; r=sqlite3.connect(sys.argv[1]).execute('select train_seconds, steps_computed from sessions order by id desc limit 1').fetchone(); print(r[0], r[1])" "$1/registry.sqlite"; }
ckpt_ms() { grep -o 'checkpoints: .*(\([0-9.]*\) ms each' "$1" | head -1 | sed 's/.*(\([0-9.]*\) ms each/\1/'; }
allreduce_pct() { grep -o '\[default0\]:gradient all-reduce: [0-9.]* ms a step, [0-9.]* %' "$1" | sed 's/.*step, \([0-9.]*\) %/\1/'; }

# run MODEL BATCH WORKERS THREADS -> "samples/s|all-reduce share|checkpoint hold-up"
run() {
  local model=$1 batch=$2 workers=$3 threads=$4 home="$work/h-$RANDOM" log="$work/log-$RANDOM"
  local args=(train --home "$home" --run b --data "$data" --model "$model" --epochs 1 --steps-per-epoch "$steps"
    --batch "$batch" --save-freq 50 --threads "$threads" --seed 1)
  if ((workers == 1)); then
    "$cli" "${args[@]}" >"$log" 2>&1
  else
    "$torchrun" --nnodes 1 --nproc_per_node "$workers" --rdzv_backend c10d \
      --rdzv_endpoint "127.0.0.1:$((20000 + RANDOM % 20000))" --redirects 1 --tee 1 --no_python \
      "$cli" "${args[@]}" >"$log" 2>&1
  fi || { echo "data_parallel_speed: the run failed:" >&2; tail -5 "$log" >&2; exit 1; }
  read -r secs done < <(session_of "$home")
  awk -v s="$secs" -v n="$done" -v b="$batch" -v w="$workers" -v p="$(allreduce_pct "$log")" -v c="$(ckpt_ms "$log")" \
    'BEGIN { printf "%.0f|%s|%s\n", n * b * w / s, (p == "" ? "-" : p " %"), (c == "" ? "-" : c " ms") }'
}

echo "data-parallel speed: $data, $steps steps a run, a checkpoint every 50; $(date -u '+%F %H:%M') UTC"
echo "$(getconf _NPROCESSORS_ONLN) CPUs, load $(cut -d' ' -f1 /proc/loadavg): $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '%-5s %5s  %-24s %12s %12s %16s\n' model batch setup samples/s all-reduce "checkpoint hold"
for model in mlp cnn; do
  for batch in 32 128; do
    for setup in "1 1" "1 2" "2 1"; do
      read -r w t <<<"$setup"
      IFS='|' read -r sps pct ms < <(run "$model" "$batch" "$w" "$t")
      label="$w process(es) x $t thread(s)"
      ((w > 1)) && label="$w workers x $t thread (job)"
      printf '%-5s %5s  %-24s %12s %12s %16s\n' "$model" "$batch" "$label" "$sps" "$pct" "$ms"
    done
  done
done
echo "(samples/s counts every worker's samples: the job's global batch is workers x batch)"
