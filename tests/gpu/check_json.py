#!/usr/bin/env python3
"""What run-gpu-checks.sh reads out of JSON: savepoint-cli's `checkpoints --json` and
`telemetry --json`, bench_train's and pytorch_cuda_loop.py's --json. Standard library only.
Each command prints its answer on stdout (key=value lines, or "yes ..." / "no WHY") and exits 0;
1 when the file holds nothing to answer with.

    check_json.py final-sha CHECKPOINTS.json          -> "SHA GLOBAL_STEP ID"
    check_json.py device CHECKPOINTS.json cuda|cpu [GPU_NAME]
    check_json.py telemetry TELEMETRY.json cuda|cpu
    check_json.py bench THROUGHPUT.json CHECKPOINTS.json BATCH   (on CUDA: the one JSON twice)
    check_json.py peer PEER.json [SUFFIX]
"""
import json
import sys


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"check_json.py: {path}: expected JSON, found {type(e).__name__}: {e}", file=sys.stderr)
        sys.exit(1)


def final_sha(rows):
    """The newest committed final checkpoint of the active branch: the head when it is final, else
    the newest final one."""
    finals = [r for r in rows if r.get("kind") == "final" and r.get("state") == "committed"]
    heads = [r for r in finals if r.get("head")]
    pick = heads[0] if heads else max(finals, key=lambda r: r["id"], default=None)
    if pick is None:
        print("no final checkpoint")
        return 1
    print(pick["params_sha256"], pick["global_step"], pick["id"])
    return 0


def device(rows, kind, gpu_name=""):
    """Every checkpoint names the device it was taken on: the kind, and for CUDA the GPU nvidia-smi names."""
    if not rows:
        print("no checkpoints")
        return 0
    need = {"cuda": ("index", "name", "compute_capability", "driver", "cuda", "cudnn", "libtorch"),
            "cpu": ("cpu_model", "blas", "libtorch")}[kind]
    for r in rows:
        d = r.get("device")
        if not isinstance(d, dict):
            print(f"no checkpoint #{r.get('id')} has no device object (found {json.dumps(d)})")
            return 0
        if d.get("kind") != kind:
            print(f"no checkpoint #{r['id']}: device kind '{d.get('kind')}', expected '{kind}'")
            return 0
        missing = [k for k in need if d.get(k) in (None, "")]
        if missing:
            print(f"no checkpoint #{r['id']}: device lacks {', '.join(missing)}: {json.dumps(d)}")
            return 0
        if kind == "cuda" and gpu_name and d["name"].strip() != gpu_name.strip():
            print(f"no checkpoint #{r['id']}: device name '{d['name']}', nvidia-smi says '{gpu_name}'")
            return 0
    d = rows[-1]["device"]
    said = ", ".join(f"{k} {d[k]}" for k in need)
    print(f"yes {len(rows)} checkpoints, each: {kind}, {said}")
    return 0


def implausible(obj, rules):
    """The fields of obj that are missing, not numbers, or outside their rule's range."""
    bad = []
    for key, ok in rules.items():
        v = obj.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not ok(v):
            bad.append(f"{key}={json.dumps(v)}")
    return bad


SYSTEM = {"cpu_percent": lambda v: v >= 0, "rss_bytes": lambda v: v > 0, "mem_available_bytes": lambda v: v > 0,
          "written_bytes": lambda v: v >= 0, "disk_free_bytes": lambda v: v > 0}
GPU = {"mem_total_bytes": lambda v: v > 1e9, "mem_used_bytes": lambda v: v >= 0, "util_percent": lambda v: 0 <= v <= 100,
       "temp_c": lambda v: 0 < v < 120, "power_w": lambda v: v > 0, "sm_clock_mhz": lambda v: v > 0}


def telemetry(samples, kind):
    """Samples present, each plausible; on CUDA each with the GPU's figures from NVML."""
    if not isinstance(samples, list) or not samples:
        print(f"no samples (found {json.dumps(samples)[:80]})")
        return 0
    for i, s in enumerate(samples):
        bad = implausible(s, SYSTEM)
        if kind == "cuda":
            g = s.get("gpu")
            bad += implausible(g, GPU) if isinstance(g, dict) else [f"gpu={json.dumps(g)} (expected NVML's figures)"]
        if bad:
            print(f"no sample {i} (t={s.get('t')}): {', '.join(bad)}")
            return 0
    line = f"yes {len(samples)} samples, max cpu {max(s['cpu_percent'] for s in samples):.0f} %"
    if kind == "cuda":
        gs = [s["gpu"] for s in samples]
        line += (f", gpu util max {max(g['util_percent'] for g in gs):.0f} %, mem {max(g['mem_used_bytes'] for g in gs) / 1e9:.2f}"
                 f"/{gs[0]['mem_total_bytes'] / 1e9:.0f} GB, temp max {max(g['temp_c'] for g in gs):.0f} C, "
                 f"power max {max(g['power_w'] for g in gs):.0f} W, sm clock max {max(g['sm_clock_mhz'] for g in gs):.0f} MHz")
    print(line)
    return 0


def bench_numbers(throughput, checkpoints, batch=32):
    """bench_train's numbers at one batch size. --device cuda writes one JSON (pass it twice):
    throughput rows with steps_per_s, and top-level stall_ms and overhead_every_10/30 (the fraction
    of training time saving added). On the CPU, --only throughput and --only checkpoints: rows with
    samples_per_second (one per thread count: the best), checkpoint_overhead rows by save_every
    (overhead_percent, turned into the same fraction). This is the one place to adapt."""
    out = {}
    for r in throughput.get("throughput", []):
        if r.get("batch") != batch:
            continue
        sps = r.get("steps_per_s") or r.get("samples_per_s", r.get("samples_per_second", 0)) / batch
        key = f"steps_per_s_{r['model']}_b{batch}"
        out[key] = max(out.get(key, 0), sps)
    if "stall_ms" in checkpoints:
        out["stall_ms"] = checkpoints["stall_ms"]
        for n in (10, 30):
            if f"overhead_every_{n}" in checkpoints:
                out[f"overhead_every_{n}"] = checkpoints[f"overhead_every_{n}"]
    else:
        rows = [r for r in checkpoints.get("checkpoint_overhead", []) if r.get("batch") == batch]
        for r in rows:
            if str(r.get("save_every")) in ("10", "30"):
                out[f"overhead_every_{r['save_every']}"] = r["overhead_percent"] / 100
        stalls = [r["stall_mean_ms"] for r in rows if str(r.get("save_every")) == "10" and r.get("stall_mean_ms") is not None]
        if stalls:
            out["stall_ms"] = stalls[0]
    return out


def peer(res, suffix=""):
    """pytorch_cuda_loop.py's rows as peer_<form>_<model>_b<batch>[suffix] steps/s (and the stall with saves)."""
    for r in res.get("results", []):
        if "skipped" in r or "error" in r:
            continue
        key = f"peer_{r['form']}_{r['model']}_b{r['batch']}{suffix}"
        print(f"{key}={r['steps_per_s']:.1f}")
        if r.get("stall_ms") is not None:
            print(f"peer_stall_ms_{r['form']}_{r['model']}{suffix}={r['stall_ms']:.2f}")
    return 0


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    cmd = argv[1]
    if cmd == "final-sha":
        return final_sha(load(argv[2]))
    if cmd == "device":
        return device(load(argv[2]), argv[3], argv[4] if len(argv) > 4 else "")
    if cmd == "telemetry":
        return telemetry(load(argv[2]), argv[3])
    if cmd == "bench":
        for k, v in bench_numbers(load(argv[2]), load(argv[3]), int(argv[4])).items():
            print(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}")
        return 0
    if cmd == "peer":
        return peer(load(argv[2]), argv[3] if len(argv) > 3 else "")
    print(f"check_json.py: unknown command '{cmd}' (expected final-sha, device, telemetry, bench or peer)", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
