#!/usr/bin/env bash
# Savepoint vs a plain PyTorch Python loop, same machine, same BLAS, same
# threads, in one invocation; prints Savepoint/PyTorch ratios and writes
# build/benchmarks/comparison.json.
#
#   tests/benchmarks/run-comparison.sh [--quick]
#
# Needs: packaging/setup-debian.sh --bench (python3-torch) and a build in ./build.
set -euo pipefail
cd "$(dirname "$0")/../.."
quick=${1:-}
out=build/benchmarks
mkdir -p "$out"
cmake --build build --target bench_train savepoint-cli torch_startup cross_core_probe -j"$(nproc)" >/dev/null
py=/usr/bin/python3
# Both sides run with glibc's allocator told to keep freed memory: PyTorch's
# loop allocates its gradients and temporaries afresh every step, and with
# glibc's defaults on this kind of VM (where a page fault is expensive) it
# then spends most of its time faulting in and zeroing pages: mlp batch 32
# 2,644 samples/s with the defaults, 14,561 with these settings (2026-12-01).
# Savepoint reuses its buffers and hardly notices. What a PyTorch user
# tuning for speed would do (or preload jemalloc), so the ratios are fair.
export GLIBC_TUNABLES=glibc.malloc.mmap_threshold=67108864:glibc.malloc.trim_threshold=268435456

# The host's state, before and after: these VMs have stretches in which memory
# is slower to copy and lines shared between the vCPUs dearer to write, and the
# checkpoint overhead rows move with them (docs/PERFORMANCE.md, the host's state).
# Calm: a 5 MB copy ~0.08-0.1 ms, a write after the other CPU read ~0.04 ms.
host_before=$(build/tests/benchmarks/cross_core_probe 3 | tail -3)
echo "== host before: $(date -u +%H:%M) UTC"; echo "$host_before"
echo
echo "== Savepoint (bench_train) =="
build/tests/benchmarks/bench_train $quick --json "$out/savepoint.json"
echo
echo "== PyTorch loop (pytorch_loop.py, torch $($py -c 'import torch; print(torch.__version__)')) =="
$py tests/benchmarks/pytorch_loop.py $quick --json "$out/pytorch.json"

host_after=$(build/tests/benchmarks/cross_core_probe 3 | tail -3)
echo; echo "== host after the throughput and checkpoint runs: $(date -u +%H:%M) UTC"; echo "$host_after"

# Resume to first completed step, process start included (median of 5).
home=$(mktemp -d); ptdir=$(mktemp -d)
trap 'rm -rf "$home" "$ptdir"' EXIT
build/app/savepoint-cli train --run r --home "$home" --epochs 1 --steps-per-epoch 60 --save-freq 30 --threads 1 \
  --interrupt-at-step 45 >/dev/null || true
$py - "$ptdir" <<'PY'
import sys, torch, torch.nn as nn
sys.path.insert(0, "tests/benchmarks")
from pytorch_loop import make_model, save_checkpoint
m = make_model("mlp"); o = torch.optim.Adam(m.parameters())
save_checkpoint(m, o, sys.argv[1] + "/ckpt.pt")
PY
time_cmd() {  # prints the median wall time of 5 runs of "$@"
  for i in 1 2 3 4 5; do
    s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s.%N)
    awk "BEGIN{print $e - $s}"
  done | sort -n | sed -n 3p
}
# --interrupt-at-step 31: stop right after the first step that follows checkpoint 30.
sp=$(time_cmd build/app/savepoint-cli resume --run r --home "$home" --checkpoint 1 --interrupt-at-step 31)
pt=$(time_cmd $py tests/benchmarks/pytorch_loop.py --resume-first-step "$ptdir")
# What any LibTorch process pays before it can do anything (load, relocate, initialise):
# with the trimmed libtorch_cpu Savepoint loads, and with Debian's own file (LD_LIBRARY_PATH
# outranks the executable's run path), which is what python3-torch loads.
startup=$(time_cmd build/tests/benchmarks/torch_startup)
# awk reads to the end: quitting early would kill ldconfig with SIGPIPE, and pipefail then the script.
system_torch_cpu=$(/sbin/ldconfig -p | awk '/libtorch_cpu\.so/ && !found {print $NF; found = 1}')
[[ -n $system_torch_cpu ]] || { echo "run-comparison: ldconfig knows no libtorch_cpu" >&2; exit 1; }
system_torch_dir=$(dirname "$(readlink -f "$system_torch_cpu")")
startup_system=$(time_cmd env LD_LIBRARY_PATH="$system_torch_dir" build/tests/benchmarks/torch_startup)
# The monitor's figures in the same invocation: a replot at 10k/100k/1M/5M points per series,
# and the UI thread's longest gap while a run checkpoints every step (tests/gui/bench_gui.cpp;
# offscreen, so no X server is needed). Skipped, and said so, in a build without the GUI.
gui_json="[]"
if [[ -x build/tests/gui/bench_gui ]]; then
  cmake --build build --target bench_gui -j"$(nproc)" >/dev/null
  echo; echo "== GUI (bench_gui, offscreen) =="
  gui_rows=()
  for n in 10000 100000 1000000 5000000; do
    # A failed GUI run costs its figure (null, and said), not the 13 minutes of figures before it.
    line=$(QT_QPA_PLATFORM=offscreen build/tests/gui/bench_gui --points "$n" --steps 0 --idle 0 2>/dev/null | grep 'loss plot replot:' || true)
    ms=$(sed -nE 's/.*replot: median ([0-9.]+) ms.*/\1/p' <<<"$line")
    ms=${ms:-null}
    echo "replot, $n points per series: ${line:-FAILED (bench_gui printed no replot line)}"
    gui_rows+=("{\"points\": $n, \"replot_median_ms\": $ms}")
  done
  stall=$(QT_QPA_PLATFORM=offscreen build/tests/gui/bench_gui --points 0 --idle 0 2>/dev/null | grep -A1 '^ui stall:' || true)
  echo "${stall:-ui stall: FAILED (bench_gui printed no stall line)}"
  gap=$(sed -nE 's/.*timer gaps while training:.* max ([0-9.]+) ms.*/\1/p' <<<"$stall")
  gui_json="{\"replot\": [$(IFS=,; echo "${gui_rows[*]}")], \"ui_longest_gap_ms\": ${gap:-null}}"
else
  echo; echo "== GUI: build/tests/gui/bench_gui not built (SAVEPOINT_BUILD_GUI=OFF?); its figures are missing"
fi

echo
echo "resume to first step (process start included, median of 5): savepoint ${sp}s, pytorch ${pt}s;" \
     "a LibTorch program that does one op: ${startup}s (Debian's untrimmed libtorch_cpu: ${startup_system}s)"

$py - "$out" "$sp" "$pt" "$startup" "$startup_system" "$host_before" "$host_after" "$gui_json" <<'PY'
import json, sys
out, sp_resume, pt_resume, torch_start, torch_start_system = sys.argv[1], *map(float, sys.argv[2:6])
host = {"before": sys.argv[6].splitlines(), "after": sys.argv[7].splitlines()}
gui = json.loads(sys.argv[8])
s = json.load(open(f"{out}/savepoint.json")); p = json.load(open(f"{out}/pytorch.json"))
key = lambda r: (r["model"], r["batch"], r["threads"])
pt = {key(r): r for r in p["throughput"]}
rows = []
print("\n== Savepoint / PyTorch ==")
print(f"{'model':6} {'batch':>6} {'threads':>8} {'savepoint':>11} {'pytorch':>9} {'ratio':>7} {'sp % of matmul floor':>21}")
for r in s["throughput"]:
    q = pt.get(key(r))
    if not q: continue
    ratio = r["samples_per_second"] / q["samples_per_second"]
    floor = r.get("matmul_floor_samples_per_second")
    rows.append({"model": r["model"], "batch": r["batch"], "threads": r["threads"], "savepoint": r["samples_per_second"],
                 "pytorch": q["samples_per_second"], "ratio": ratio, "matmul_floor": floor})
    pct = f"{100 * r['samples_per_second'] / floor:5.1f} % of {floor:6.0f}" if floor else ""
    print(f"{r['model']:6} {r['batch']:6d} {r['threads']:8d} {r['samples_per_second']:11.0f} {q['samples_per_second']:9.0f} {ratio:7.2f} {pct:>21}")
# sp_interleaved: Savepoint's overhead measured inside single runs (bench_train.cpp,
# interleaved_ratios), the median of the blocks; sp_il_mean: their mean and its
# standard error (the blocks where a slow disk made a capture wait count in full).
# PyTorch's loop has no such figure, only the paired one.
print(f"\n{'batch':>6} {'save':>14} {'sp_overhead':>12} {'sp_interleaved':>15} {'sp_il_mean':>13} {'pt_overhead':>12} {'sp_stall_ms':>12} {'pt_save_ms':>11}")
po = {(r["batch"], r["save_every"]): r for r in p["checkpoint_overhead"]}
for r in s["checkpoint_overhead"]:
    q = po.get((r["batch"], r["save_every"].split(" ")[0]))  # "10 (copying)", "10 (defer)": against PyTorch's "10"
    if not q: continue
    il = r.get("overhead_interleaved_percent")
    il = f"{il:14.1f}%" if il is not None else f"{'-':>15}"
    m, se = r.get("overhead_interleaved_mean_percent"), r.get("overhead_interleaved_se_percent")
    ilm = f"{m:6.1f}% ± {se:3.1f}" if m is not None and se is not None else f"{'-':>13}"
    print(f"{r['batch']:6d} {r['save_every']:>14} {r['overhead_percent']:11.1f}% {il} {ilm:>13} {q['overhead_percent']:11.1f}% "
          f"{r['stall_mean_ms']:12.3f} {q['save_ms']:11.2f}")
print(f"\nresume to first step: savepoint {sp_resume:.3f}s, pytorch {pt_resume:.3f}s, ratio {sp_resume / pt_resume:.2f}"
      f" (LibTorch start-up alone: {torch_start:.3f}s trimmed, {torch_start_system:.3f}s with Debian's file)")
if "registry_ingest_rows_per_second" in s:
    print(f"registry metric ingest: {s['registry_ingest_rows_per_second']:.0f} rows/s")
if gui:
    fmt = lambda v: "failed" if v is None else f"{v:.1f} ms"
    print("GUI: replot median " + ", ".join(f"{r['points']:,} pts {fmt(r['replot_median_ms'])}" for r in gui["replot"])
          + f"; UI thread's longest gap while checkpointing every step: {gui['ui_longest_gap_ms']} ms")
json.dump({"host_probe": host, "gui": gui, "savepoint": s, "pytorch": p, "ratios": rows, "resume_seconds": {"savepoint": sp_resume, "pytorch": pt_resume,
                                                                                       "libtorch_startup": torch_start,
                                                                                       "libtorch_startup_untrimmed": torch_start_system}},
          open(f"{out}/comparison.json", "w"), indent=2)
PY
