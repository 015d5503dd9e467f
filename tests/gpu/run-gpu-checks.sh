#!/usr/bin/env bash
# The GPU check (docs/CUDA.md, the GPU check; tests/gpu/README.md): on a machine with an NVIDIA GPU and PyTorch,
# from the project root with .gpu-kit/ carried in, builds the engine and CLI (packaging/build-cuda.sh),
# then checks that mlp, dnn, cnn and a TorchScript model resume bit-identically on CUDA (two runs,
# a crash, a preemption, a rollback), that every checkpoint names the GPU, that telemetry has real
# NVML samples, and measures bench_train beside tests/benchmarks/pytorch_cuda_loop.py. Under 8 minutes
# on one H100. Each result is printed, and appended to OUTDIR/report.md and OUTDIR/summary.txt, as it
# comes: a run cut off still says how far it got.
#
#   tests/gpu/run-gpu-checks.sh OUTDIR
#   exit 0 every check passed, 1 one did not, 2 bad usage or a failed build, 77 no GPU
#
# SAVEPOINT_GPU_CHECK_DEVICE=cpu  the same checks on the CPU, with an already built CLI (SAVEPOINT_CLI,
#                                 default build/app/savepoint-cli; SAVEPOINT_BENCH for bench_train),
#                                 no build, no GPU assertions, no graph form: to see this script work
# SAVEPOINT_GPU_CHECK_STEPS=N     steps per epoch of each bit-exact run (default 150; 2 epochs)
# SAVEPOINT_GPU_CHECK_MODELS="mlp dnn cnn script"   the models to check
# SAVEPOINT_GPU_CHECK_PLANT=seed|lr  negative control: the runs compared with the first use another
#                                 seed (checks a-c), or the rollback another lr (d): they must say no
# SAVEPOINT_GPU_CHECK_COMMIT=SHA  the commit, where the checkout has no .git
# SAVEPOINT_CLI=PATH              on a GPU too: use this CLI and skip the build
# SAVEPOINT_GPU_CHECK_SPEED=0     skip the benchmarks (a quicker rerun of the other checks)
set -uo pipefail  # not -e: a check that fails is a result to write down, not the end
cd "$(dirname "$0")/../.." || exit 2
here=tests/gpu
usage() { echo "usage: tests/gpu/run-gpu-checks.sh OUTDIR ($1)" >&2; exit 2; }
[ $# -eq 1 ] || usage "expected one argument, found $#"

steps=${SAVEPOINT_GPU_CHECK_STEPS:-150}
{ [[ $steps =~ ^[0-9]+$ ]] && ((steps >= 6)); } || usage "SAVEPOINT_GPU_CHECK_STEPS: expected a whole number >= 6, found '$steps'"
models=${SAVEPOINT_GPU_CHECK_MODELS:-mlp dnn cnn script}
plant=${SAVEPOINT_GPU_CHECK_PLANT:-}
case "$plant" in "" | seed | lr) ;; *) usage "SAVEPOINT_GPU_CHECK_PLANT: expected seed or lr, found '$plant'" ;; esac
case "${SAVEPOINT_GPU_CHECK_DEVICE:-}" in
  cpu) dev=cpu ;;
  "") if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then dev=cuda; else
        echo "run-gpu-checks: no NVIDIA GPU here (nvidia-smi -L lists none): skipped. SAVEPOINT_GPU_CHECK_DEVICE=cpu runs the checks on the CPU."
        exit 77
      fi ;;
  *) usage "SAVEPOINT_GPU_CHECK_DEVICE: expected cpu or nothing, found '$SAVEPOINT_GPU_CHECK_DEVICE'" ;;
esac

mkdir -p "$1" || usage "cannot create '$1'"
out=$(cd "$1" && pwd) logs=$out/logs work=$out/work home=$out/home
rm -rf "$logs" "$work" "$home" "$out/report.md" "$out/summary.txt"; mkdir -p "$logs" "$work"
started=$(date +%s)
elapsed() { echo "$(($(date +%s) - started)) s"; }
say() { echo "$*"; echo "$*" >>"$out/report.md"; }                    # a line of the report, shown as it comes
kv() { echo "$1=$2" >>"$out/summary.txt"; echo "    $1=$2"; }          # a key of summary.txt
failures=0
verdict() { [ "$1" = yes ] || failures=$((failures + 1)); }

# A python with torch (make_resnet.py, make_data.py, the peer loop); any python for the JSON.
py=
for c in ${PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$c" >/dev/null && "$c" -c 'import torch' 2>/dev/null; then py=$c; break; fi
done
[ -n "$py" ] || { echo "run-gpu-checks: found no python3 that imports torch (set PYTHON)" >&2; exit 2; }
json() { "$py" "$here/check_json.py" "$@"; }

commit=${SAVEPOINT_GPU_CHECK_COMMIT:-}
if [ -z "$commit" ] && commit=$(git rev-parse --short HEAD 2>/dev/null); then
  git diff --quiet HEAD 2>/dev/null || commit+=-dirty
fi
commit=${commit:-unknown}
if [ "$dev" = cuda ]; then
  IFS=, read -r gpu driver gpumem < <(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader -i 0)
  gpu=${gpu# } driver=${driver# } gpumem=${gpumem# }
else
  gpu=none driver=none gpumem=-
fi
torch_info=$("$py" -c 'import torch; print(torch.__version__, "CUDA", torch.version.cuda)')
say "# GPU check: $(date -u '+%Y-%m-%d %H:%M UTC')"
say ""
say "- commit: $commit"
say "- device: $dev; GPU: $gpu (driver $driver, $gpumem); python torch: $torch_info"
say "- host: $(uname -n), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
say "- bit-exact runs: 2 epochs x $steps steps, batch 32${plant:+; PLANTED: $plant (a negative control: expect no)}"
kv date "$(date -u +%Y-%m-%dT%H:%M:%SZ)"; kv commit "$commit"; kv gpu "$gpu"; kv device "$dev"

# --- build (item 1: the kit's build-cuda.sh) ---
data=${SAVEPOINT_GPU_CHECK_DATA:-}
if [ -z "$data" ]; then
  data=/usr/share/datasets/fashion-mnist
  if [ -f .gpu-kit/data/train-images-idx3-ubyte.gz ]; then data=$PWD/.gpu-kit/data; fi
fi
export SAVEPOINT_FASHION_MNIST_DIR=$data
cli=${SAVEPOINT_CLI:-} bench=${SAVEPOINT_BENCH:-}
ldp=${LD_LIBRARY_PATH:-}  # the kit's libraries, for Savepoint's binaries only (not python's)
if [ "$dev" = cuda ] && [ -z "$cli" ]; then
  build=${SAVEPOINT_GPU_CHECK_BUILD:-build-cuda}
  say ""; say "## Build"
  t=$(date +%s)
  if ! bash packaging/build-cuda.sh "$build" >"$logs/build.log" 2>&1; then
    tail -30 "$logs/build.log"; say "- build: FAILED after $(($(date +%s) - t)) s ($logs/build.log)"; kv build failed; exit 2
  fi
  say "- build: $(($(date +%s) - t)) s ($build, packaging/build-cuda.sh)"; kv build_s $(($(date +%s) - t))
  # shellcheck disable=SC1091  # written by build-cuda.sh
  ldp=$(. "$build/env.sh" && echo "$LD_LIBRARY_PATH")
  cli=$build/app/savepoint-cli bench=${bench:-$build/tests/benchmarks/bench_train}
fi
cli=${cli:-build/app/savepoint-cli}
bench=${bench:-$(dirname "$cli")/../tests/benchmarks/bench_train}
[ -x "$cli" ] || { say "- no savepoint-cli at $cli (build it, or set SAVEPOINT_CLI)"; exit 2; }

# --- bit-exact resumes (item 2) ---
save=$((steps / 3)) total=$((2 * steps))
crash=$((steps + save + save / 2 + 1))  # in epoch 2, between two checkpoints
preempt=$((save + save / 2 + 1))        # in epoch 1, between two checkpoints
roll=$((2 * save))                      # epoch 1's second checkpoint
cli_run() {  # NAME ARGS...: the CLI, its output in logs/NAME.log; its exit status
  local name=$1; shift
  LD_LIBRARY_PATH=$ldp timeout 300 "$cli" "$@" --home "$home" >"$logs/$name.log" 2>&1
}
final_of() {  # RUN: "SHA GLOBAL_STEP ID" of its newest final checkpoint on the active branch
  LD_LIBRARY_PATH=$ldp "$cli" checkpoints --run "$1" --home "$home" --json >"$work/$1.checkpoints.json" 2>>"$logs/$1.log" \
    && json final-sha "$work/$1.checkpoints.json"
}
same_as() {  # RUN REF_SHA: "yes SHA" or "no WHY"
  local got; got=$(final_of "$1") || { echo "no ($1: ${got:-no checkpoints})"; return; }
  # shellcheck disable=SC2086  # "SHA STEP ID", three words
  set -- "$1" "$2" $got
  if [ "$4" != "$total" ]; then echo "no ($1 ended at global step $4, expected $total)"
  elif [ "$3" = "$2" ]; then echo "yes ${3:0:12}"; else echo "no (${3:0:12} != ${2:0:12})"; fi
}
expect_rc() {  # WANT GOT NAME: "" when equal, else why
  [ "$1" = "$2" ] || echo "no ($3 exited $2, expected $1: $(tail -2 "$logs/$3.log" | tr '\n' ' '))"
}

prepare_script_model() {  # the check's own TorchScript model (deterministic on CUDA) and a data file
  [ -f "$work/checknet.pt" ] && return 0
  "$py" "$here/make_check_model.py" --out "$work/checknet.pt" >"$logs/make_check_model.log" 2>&1 \
    && "$py" examples/make_data.py --src "$data" --out "$work" --train 6000 --test 1000 >"$logs/make_data.log" 2>&1
}

bitexact() {
  local m=$1 margs seed2=7 lr=() ref r a b c d
  if [ "$m" = script ]; then
    prepare_script_model || { say "- script: could not make checknet.pt/fashion.pt ($logs/make_*.log)"; kv bitexact_script no; verdict no; return; }
    margs=(--model "$work/checknet.pt" --data "$work/fashion.pt")
  else
    margs=(--model "$m" --data "$data")
  fi
  [ "$plant" = seed ] && seed2=8
  [ "$plant" = lr ] && lr=(--lr 0.002)
  local common=(--epochs 2 --steps-per-epoch "$steps" --save-freq "$save" --keep 50 --batch 32 --device "$dev" "${margs[@]}")
  cli_run "$m-a1" train --run "$m-a1" "${common[@]}" --seed 7
  r=$?
  if [ $r -ne 0 ] || ! ref=$(final_of "$m-a1"); then
    say "- $m: the first run failed (exit $r): $(tail -3 "$logs/$m-a1.log" | tr '\n' ' ')"; kv "bitexact_$m" no; verdict no; return
  fi
  ref=${ref%% *}
  cli_run "$m-a2" train --run "$m-a2" "${common[@]}" --seed "$seed2"; r=$?
  a=$(expect_rc 0 $r "$m-a2"); a=${a:-$(same_as "$m-a2" "$ref")}
  cli_run "$m-crash" train --run "$m-crash" "${common[@]}" --seed "$seed2" --interrupt-at-step "$crash"; r=$?
  b=$(expect_rc 3 $r "$m-crash")
  if [ -z "$b" ]; then cli_run "$m-crash-resume" resume --run "$m-crash"; r=$?; b=$(expect_rc 0 $r "$m-crash-resume"); fi
  b=${b:-$(same_as "$m-crash" "$ref")}
  cli_run "$m-preempt" train --run "$m-preempt" "${common[@]}" --seed "$seed2" --preempt-at-step "$preempt"; r=$?
  c=$(expect_rc 3 $r "$m-preempt")
  if [ -z "$c" ]; then cli_run "$m-preempt-resume" resume --run "$m-preempt"; r=$?; c=$(expect_rc 0 $r "$m-preempt-resume"); fi
  c=${c:-$(same_as "$m-preempt" "$ref")}
  cli_run "$m-rollback" resume --run "$m-a1" --epoch 1 --step "$roll" "${lr[@]}"; r=$?
  d=$(expect_rc 0 $r "$m-rollback"); d=${d:-$(same_as "$m-a1" "$ref")}
  say "- $m: (a) two runs: $a; (b) crash at step $crash + resume: $b; (c) preemption at $preempt + resume: $c; (d) rollback to epoch 1, step $roll: $d"
  local all=yes; for x in "$a" "$b" "$c" "$d"; do [[ $x == yes* ]] || all=no; done
  kv "bitexact_$m" $all; kv "bitexact_${m}_detail" "a:${a%% *},b:${b%% *},c:${c%% *},d:${d%% *}"; verdict $all
}

say ""; say "## Bit-exact resumes on $dev ($(elapsed) in)"
for m in $models; do bitexact "$m"; done

# The check's convnet pooled with adaptive_avg_pool2d, whose CUDA backward has no deterministic
# kernel: a dry run must refuse it, naming the operation. The examples' resnet must pass one.
if [ "$dev" = cuda ] && prepare_script_model \
  && "$py" tests/gpu/make_check_model.py --adaptive-pool --out "$work/adaptive.pt" >"$logs/make_adaptive.log" 2>&1; then
  cli_run adaptive-dry-run train --run adaptive-dry --model "$work/adaptive.pt" --data "$work/fashion.pt" --device cuda --dry-run
  r=$?
  if [ $r -eq 2 ] && grep -q 'adaptive_avg_pool2d' "$logs/adaptive-dry-run.log" \
    && grep -q 'no deterministic CUDA implementation' "$logs/adaptive-dry-run.log"; then nd=yes; else nd=no; fi
  say "- a convnet with adaptive_avg_pool2d, train --dry-run --device cuda: exit $r, refused naming the op: $nd ($(grep -m1 -i 'determin' "$logs/adaptive-dry-run.log"))"
  kv nondeterministic_refused $nd; verdict $nd
  if "$py" examples/make_resnet.py --out "$work/resnet.pt" >"$logs/make_resnet.log" 2>&1; then
    cli_run resnet-dry-run train --run resnet-dry --model "$work/resnet.pt" --data "$work/fashion.pt" --device cuda --dry-run
    r=$?; rd=no; [ $r -eq 0 ] && rd=yes
    say "- examples' resnet, train --dry-run --device cuda: exit $r ($rd: every op deterministic on CUDA)"
    kv resnet_dry_run $rd; verdict $rd
  fi
fi

# --- every checkpoint names its device (item 3) ---
say ""; say "## Device record ($(elapsed) in)"
dr=yes
for m in $models; do
  [ -f "$work/$m-a1.checkpoints.json" ] || continue
  line=$(json device "$work/$m-a1.checkpoints.json" "$dev" "$([ "$dev" = cuda ] && echo "$gpu")")
  say "- $m-a1: $line"; [[ $line == yes* ]] || dr=no
done
kv device_record $dr; verdict $dr

# --- telemetry (item 4): every first run's samples; a run under a second may have none ---
say ""; say "## Telemetry ($(elapsed) in)"
tel_ok=0 tel_bad=0
for m in $models; do
  [ -f "$work/$m-a1.checkpoints.json" ] || continue
  if LD_LIBRARY_PATH=$ldp "$cli" telemetry --run "$m-a1" --home "$home" --json >"$work/$m-a1.telemetry.json" 2>"$logs/$m-a1.telemetry.log"; then
    line=$(json telemetry "$work/$m-a1.telemetry.json" "$dev")
  else
    line="no (savepoint-cli telemetry failed: $(head -2 "$logs/$m-a1.telemetry.log" | tr '\n' ' '))"
  fi
  case "$line" in
    yes*) tel_ok=$((tel_ok + 1)) ;;
    "no samples"*) line="$line (the run took under a second?)" ;;
    *) tel_bad=$((tel_bad + 1)) ;;
  esac
  say "- $m-a1: $line"
done
[ "$dev" = cuda ] || say "- on the CPU the GPU's figures are not asked for"
tel=no; ((tel_ok > 0 && tel_bad == 0)) && tel=yes
kv telemetry $tel; verdict $tel

# --- speed beside PyTorch (item 5) ---
if [ "${SAVEPOINT_GPU_CHECK_SPEED:-1}" = 0 ]; then
  say ""; say "## Done in $(elapsed) (speed not measured: SAVEPOINT_GPU_CHECK_SPEED=0): $failures check(s) said no"
  kv elapsed_s $(($(date +%s) - started)); kv failures $failures
  exit $((failures > 0))
fi
say ""; say "## Speed, batch 32 ($(elapsed) in)"
bench_run() {  # NAME ARGS...: bench_train, its JSON in work/NAME.json
  local name=$1; shift
  LD_LIBRARY_PATH=$ldp timeout 300 "$bench" --data fashion-mnist "$@" --json "$work/$name.json" >"$logs/$name.log" 2>&1 \
    || say "- bench_train $* failed: $(tail -2 "$logs/$name.log" | tr '\n' ' ')"
}
if [ ! -x "$bench" ]; then
  say "- no bench_train at $bench (built only where CMake adds tests/benchmarks: docs/CUDA.md)"
elif [ "$dev" = cuda ]; then
  # On CUDA one call measures both: steps/s, and the stall and overhead of saving every 10 and 30 steps.
  bench_run bench_cuda --device cuda
  [ -f "$work/bench_cuda.json" ] && while IFS='=' read -r k v; do kv "$k" "$v"; done \
    < <(json bench "$work/bench_cuda.json" "$work/bench_cuda.json" 32)
else
  bench_run bench_throughput --quick --only throughput
  bench_run bench_checkpoints --quick --only checkpoints
  [ -f "$work/bench_checkpoints.json" ] || echo '{}' >"$work/bench_checkpoints.json"
  [ -f "$work/bench_throughput.json" ] && while IFS='=' read -r k v; do kv "$k" "$v"; done \
    < <(json bench "$work/bench_throughput.json" "$work/bench_checkpoints.json" 32)
fi
pargs=(--device "$dev" --data "$data" --batch 32)
if [ "$dev" = cuda ]; then pargs+=(--steps 500); else pargs+=(--steps 40 --warmup 5 --forms eager); fi
peer() {  # LABEL ARGS...: the peer loop, its keys into summary.txt
  local label=$1; shift
  if timeout 240 "$py" tests/benchmarks/pytorch_cuda_loop.py "${pargs[@]}" "$@" --json "$work/peer_$label.json" >"$logs/peer_$label.log" 2>&1; then
    while IFS='=' read -r k v; do kv "$k" "$v"; done < <(json peer "$work/peer_$label.json" "$([ "$label" = saves ] && echo _save10)")
  else
    say "- pytorch_cuda_loop.py ($label) failed: $(tail -2 "$logs/peer_$label.log" | tr '\n' ' ')"
  fi
}
peer plain --models mlp,cnn,resnet
peer saves --models mlp --save-every 10
val() { local v; v=$(sed -n "s/^$1=//p" "$out/summary.txt" | tail -1); echo "${v:--}"; }
say ""
say "| model | Savepoint steps/s | PyTorch eager | PyTorch CUDA graph |"
say "|---|---|---|---|"
for m in mlp dnn cnn resnet; do
  say "| $m | $(val "steps_per_s_${m}_b32") | $(val "peer_eager_${m}_b32") | $(val "peer_graph_${m}_b32") |"
done
say ""
say "Stall per checkpoint (mlp, saving every 10 steps): Savepoint $(val stall_ms) ms; torch.save eager $(val peer_stall_ms_eager_mlp_save10) ms, graph $(val peer_stall_ms_graph_mlp_save10) ms."

say ""; say "## Done in $(elapsed): $failures check(s) said no"
kv elapsed_s $(($(date +%s) - started)); kv failures $failures
[ $failures -eq 0 ]
