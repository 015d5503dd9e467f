#!/usr/bin/python3
"""The residual convnet of examples/make_resnet.py trained in a plain PyTorch
Python loop, as a user would write it (Debian's python3-torch, same BLAS, same
threads as Savepoint): the peer of `savepoint-cli train --model resnet.pt
--data fashion.pt` for tests/benchmarks/compare-resnet.sh. Prints samples/s.

    /usr/bin/python3 tests/benchmarks/resnet_loop.py --data fashion.pt [--batch 32] [--threads 1]
        [--steps 100] [--warmup 10] [--scripted] [--json out.json]
"""
import argparse
import json
import os
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples"))
from make_resnet import SmallResNet  # noqa: E402  (the same network Savepoint trains)


def train(model, opt, x, y, batch, steps, perm, start_step=0):
    """`steps` steps of batch `batch` in the order `perm`; returns the seconds they took."""
    n = x.shape[0]
    model.train()
    t0 = time.perf_counter()
    for step in range(start_step, start_step + steps):
        start = (step * batch) % n
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
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="fashion.pt from examples/make_data.py")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--scripted", action="store_true", help="train torch.jit.script(model), as Savepoint does")
    ap.add_argument("--json")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    d = torch.load(a.data)
    x, y = d["train_x"], d["train_y"]
    model = SmallResNet()
    if a.scripted:
        model = torch.jit.script(model)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    perm = torch.randperm(x.shape[0])
    train(model, opt, x, y, a.batch, a.warmup, perm)
    secs = train(model, opt, x, y, a.batch, a.steps, perm, a.warmup)
    rate = a.steps * a.batch / secs
    print(f"resnet batch {a.batch} threads {a.threads}{' scripted' if a.scripted else ''}: "
          f"{rate:.0f} samples/s ({a.steps} steps in {secs:.2f} s)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"model": "resnet", "batch": a.batch, "threads": a.threads, "scripted": a.scripted,
                       "steps": a.steps, "seconds": secs, "samples_per_second": rate, "torch": torch.__version__},
                      f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
