#!/usr/bin/python3
"""The same workloads as bench_train, as a user would write them in a plain
PyTorch Python loop (Debian's python3-torch, same BLAS, same threads):
samples/s per model/batch/threads, and the cost of torch.save to a temp file +
os.replace at the same checkpoint frequencies. Prints a table, writes JSON.

    /usr/bin/python3 tests/benchmarks/pytorch_loop.py [--quick] [--json out.json]
    /usr/bin/python3 tests/benchmarks/pytorch_loop.py --resume-first-step DIR   (timed by run-comparison.sh)
"""
import argparse, gzip, json, os, statistics, sys, tempfile, time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

DATA = os.environ.get("SAVEPOINT_FASHION_MNIST_DIR", "/usr/share/datasets/fashion-mnist")


def load_idx(path):
    with gzip.open(path, "rb") as f:
        raw = f.read()
    ndim = raw[3]
    dims = [int.from_bytes(raw[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    return np.frombuffer(raw, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


def load_train():
    x = torch.from_numpy(load_idx(f"{DATA}/train-images-idx3-ubyte.gz").astype(np.float32) / 255.0).reshape(-1, 1, 28, 28)
    y = torch.from_numpy(load_idx(f"{DATA}/train-labels-idx1-ubyte.gz").astype(np.int64))
    return x, y


def make_model(name):
    if name == "mlp":   # the TF fault-tolerance guide's Keras model
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Dropout(0.2), nn.Linear(512, 10))
    if name == "dnn":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2),
                             nn.Linear(256, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 10))
    return nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(32 * 7 * 7, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 10))


def save_checkpoint(model, opt, path):
    tmp = path + ".tmp"
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "rng": torch.get_rng_state()}, tmp)
    os.replace(tmp, path)


def train(x, y, model_name, batch, threads, steps, save_every=0, ckpt_dir=None):
    """Returns (seconds for `steps` steps, list of per-save seconds)."""
    torch.set_num_threads(threads)
    torch.manual_seed(42)
    model = make_model(model_name)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    perm = torch.randperm(x.shape[0])
    n = x.shape[0]
    saves = []
    model.train()
    t0 = time.perf_counter()
    for step in range(1, steps + 1):
        start = ((step - 1) * batch) % n
        idx = perm[start:start + batch]
        if idx.numel() < batch:
            idx = torch.cat([idx, perm[:batch - idx.numel()]])
        xb, yb = x.index_select(0, idx), y.index_select(0, idx)
        opt.zero_grad()
        out = model(xb)
        loss = F.cross_entropy(out, yb)
        loss.backward()
        opt.step()
        # What a monitoring loop logs every step (Savepoint records both too).
        loss.item()
        (out.argmax(1) == yb).sum().item()
        if save_every and step % save_every == 0 or step == steps and ckpt_dir:
            s0 = time.perf_counter()
            save_checkpoint(model, opt, os.path.join(ckpt_dir, "ckpt.pt"))
            saves.append(time.perf_counter() - s0)
    return time.perf_counter() - t0, saves


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--resume-first-step")
    a = ap.parse_args()

    if a.resume_first_step:
        # Process start + data + torch.load + one step: what "resume" costs a PyTorch user.
        torch.set_num_threads(1)
        x, y = load_train()
        ck = torch.load(os.path.join(a.resume_first_step, "ckpt.pt"))
        model = make_model("mlp")
        opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        model.load_state_dict(ck["model"]); opt.load_state_dict(ck["optimizer"]); torch.set_rng_state(ck["rng"])
        idx = torch.arange(32)
        opt.zero_grad(); F.cross_entropy(model(x[idx]), y[idx]).backward(); opt.step()
        return 0

    x, y = load_train()
    res = {"tool": "pytorch_loop", "torch": torch.__version__, "throughput": [], "checkpoint_overhead": []}
    models = ["mlp"] if a.quick else ["mlp", "dnn", "cnn"]
    batches = [32] if a.quick else [32, 128, 256]
    print(f"{'model':6} {'batch':>6} {'threads':>8} {'samples/s':>14}")
    for m in models:
        for b in batches:
            for t in (1, 2):
                steps = 20 if a.quick else max(50, (20000 if m == "cnn" else 60000) // b)
                train(x, y, m, b, t, 10)  # warm-up
                secs, _ = train(x, y, m, b, t, steps)
                rate = steps * b / secs
                print(f"{m:6} {b:6d} {t:8d} {rate:14.0f}", flush=True)
                res["throughput"].append({"model": m, "batch": b, "threads": t, "samples_per_second": rate})

    print(f"\n{'model':6} {'batch':>6} {'save':>8} {'samples/s':>10} {'overhead':>9} {'save_ms':>9}")
    with tempfile.TemporaryDirectory() as d:
        for b in [32] if a.quick else [32, 128]:
            t = 2 if b >= 128 else 1
            steps = 30 if a.quick else (1500 if b == 32 else 450)
            # Same method as bench_train: paired runs (B V B V ... B), each variant run
            # against the mean of the baselines either side of it; median of the ratios.
            variants = (("1", 1), ("10", 10), ("30", 30), ("epoch", 0))
            reps = 1 if a.quick else 5
            for name, every in variants:
                n = steps // 5 if every == 1 and not a.quick else steps
                before = train(x, y, "mlp", b, t, n, 0, d)[0]  # like bench_train: one save, at the end
                ratios, rates, saves = [], [], []
                for _ in range(reps):
                    secs, times = train(x, y, "mlp", b, t, n, every, d)
                    after = train(x, y, "mlp", b, t, n, 0, d)[0]
                    ratios.append(secs / ((before + after) / 2))
                    before = after
                    rates.append(n * b / secs)
                    saves += times
                pct = 100 * (statistics.median(ratios) - 1)
                save_ms = 1000 * sum(saves) / max(1, len(saves))
                rate = statistics.median(rates)
                print(f"{'mlp':6} {b:6d} {name:>8} {rate:10.0f} {pct:8.1f}% {save_ms:8.2f}", flush=True)
                res["checkpoint_overhead"].append({"model": "mlp", "batch": b, "threads": t, "save_every": name,
                                                   "overhead_percent": pct, "overhead_ratios": ratios,
                                                   "save_ms": save_ms, "samples_per_second": rate, "steps": n,
                                                   "pairs": reps})
        save_checkpoint(make_model("mlp"), torch.optim.Adam(make_model("mlp").parameters()), os.path.join(d, "ckpt.pt"))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
