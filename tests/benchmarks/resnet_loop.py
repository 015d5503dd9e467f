#!/usr/bin/python3
"""The residual convnet of examples/make_resnet.py trained in a plain PyTorch
Python loop, as a user would write it (Debian's python3-torch, same BLAS, same
threads as Savepoint): the peer of `savepoint-cli train --model resnet.pt
--data fashion.pt` for tests/benchmarks/compare-resnet.sh. Prints samples/s.

    /usr/bin/python3 tests/benchmarks/resnet_loop.py --data fashion.pt [--batch 32] [--threads 1]
        [--steps 100] [--warmup 10] [--scripted] [--json out.json]

The loop is pytorch_loop.py's own (train()), the one the built-in models are
compared with, given this network instead of one of theirs.
"""
import argparse
import json
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [here, os.path.join(here, "..", "..", "examples")]
import pytorch_loop  # noqa: E402
from make_resnet import SmallResNet  # noqa: E402  (the network Savepoint trains from resnet.pt)


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
    pytorch_loop.make_model = lambda name: torch.jit.script(SmallResNet()) if a.scripted else SmallResNet()
    d = torch.load(a.data)
    x, y = d["train_x"], d["train_y"]  # uint8 pixels: the network scales them, as it does in Savepoint
    pytorch_loop.train(x, y, "resnet", a.batch, a.threads, a.warmup)
    secs, _ = pytorch_loop.train(x, y, "resnet", a.batch, a.threads, a.steps)
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
