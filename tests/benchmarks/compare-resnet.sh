#!/usr/bin/env bash
# The residual convnet of examples/ (your own TorchScript model and data file):
# Savepoint (savepoint-cli train --model resnet.pt --data fashion.pt) against
# the same network in a plain PyTorch loop (resnet_loop.py), same machine,
# same threads, samples/s side by side at batch 32 and 128.
#
#   tests/benchmarks/compare-resnet.sh [STEPS]      (default 60 timed steps a row; ROUNDS=3 rounds, median)
#
# Savepoint's rate is differential: two runs of one epoch that differ only in
# their steps per epoch (WARM and WARM+STEPS), so process start, loading the
# model and the data, the validation pass and the epoch's checkpoint, the same
# in both, cancel: rate = STEPS * batch / (t_long - t_short). The loop times
# STEPS steps after WARM of warm-up. Needs python3-torch and build/app/savepoint-cli.
set -euo pipefail
cd "$(dirname "$0")/../.."
steps=${1:-60}
warm=20
rounds=${ROUNDS:-3}
threads=${THREADS:-1}
py=/usr/bin/python3
cli=build/app/savepoint-cli
[[ -x $cli ]] || { echo "compare-resnet: build $cli first (cmake --build build --target savepoint-cli)" >&2; exit 2; }
# As run-comparison.sh does, for both sides: glibc keeps freed memory instead of
# faulting pages in afresh every step (what a PyTorch user tuning for speed does).
export GLIBC_TUNABLES=glibc.malloc.mmap_threshold=67108864:glibc.malloc.trim_threshold=268435456
export OMP_NUM_THREADS=$threads

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
$py examples/make_resnet.py --out "$work/resnet.pt" >/dev/null
# Enough training samples for the longest run at batch 128 without wrapping; a small test split.
$py examples/make_data.py --out "$work" --train $(((warm + steps) * 128)) --test 1000 >/dev/null

seconds_of_train() {  # batch, steps per epoch -> wall seconds of one epoch's run
  local run="r$1-$2-$RANDOM" s e
  s=$(date +%s.%N)
  "$cli" train --home "$work/home" --run "$run" --model "$work/resnet.pt" --data "$work/fashion.pt" \
    --epochs 1 --steps-per-epoch "$2" --batch "$1" --save-freq epoch --threads "$threads" --device cpu >"$work/$run.log" 2>&1 ||
    { echo "compare-resnet: savepoint-cli train failed:" >&2; tail -5 "$work/$run.log" >&2; exit 1; }
  e=$(date +%s.%N)
  awk "BEGIN{print $e - $s}"
}

echo "residual convnet (examples/make_resnet.py), Fashion-MNIST, $threads thread(s), $steps timed steps a row; $(date -u '+%F %H:%M') UTC"
echo "torch $($py -c 'import torch; print(torch.__version__)'), $(getconf _NPROCESSORS_ONLN) CPUs, load $(cut -d" " -f1 /proc/loadavg): $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
median() { sort -g | awk '{v[NR]=$1} END{print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
loop_rate() {  # batch, extra flag -> samples/s of the plain PyTorch loop
  $py tests/benchmarks/resnet_loop.py --data "$work/fashion.pt" --batch "$1" --threads "$threads" \
    --steps "$steps" --warmup "$warm" ${2:-} --json "$work/pt.json" >/dev/null &&
    $py -c "import json; print(json.load(open('$work/pt.json'))['samples_per_second'])"
}
echo "(each figure: the median of $rounds rounds, the two sides taking turns, so that a burst of other work on the machine hits both)"
printf '%6s %16s %16s %16s %8s\n' batch savepoint pytorch pytorch-jit ratio
for b in 32 128; do
  sps=() pts=() jits=()
  for ((r = 0; r < rounds; r++)); do
    short=$(seconds_of_train "$b" "$warm")
    long=$(seconds_of_train "$b" $((warm + steps)))
    sps+=("$(awk "BEGIN{print $steps * $b / ($long - $short)}")")
    pts+=("$(loop_rate "$b")")
    jits+=("$(loop_rate "$b" --scripted)")
  done
  sp=$(printf '%s\n' "${sps[@]}" | median) pt=$(printf '%s\n' "${pts[@]}" | median) jit=$(printf '%s\n' "${jits[@]}" | median)
  awk -v b="$b" -v sp="$sp" -v pt="$pt" -v jit="$jit" \
    'BEGIN{printf "%6d %12.0f s/s %12.0f s/s %12.0f s/s %8.2f\n", b, sp, pt, jit, sp / pt}'
done
echo "(s/s: samples per second; ratio: Savepoint / the plain eager PyTorch loop)"
