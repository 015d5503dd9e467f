#!/usr/bin/env python3
"""The TorchScript model of the GPU check's bit-exact runs (run-gpu-checks.sh), saved for
`savepoint-cli train --model FILE.pt --data fashion.pt`:

    python3 tests/gpu/make_check_model.py --out checknet.pt [--seed 0]

A small convnet with BatchNorm (so checkpoints hold buffers too) and dropout, built only of
operations with deterministic CUDA kernels: its global pooling is a mean over the image.
`--adaptive-pool` pools with adaptive_avg_pool2d instead, whose CUDA backward has no
deterministic implementation: the check runs that one to see Savepoint refuse it.
Input [B,1,28,28] floats in [0,1] (or uint8 pixels, scaled here), output logits [B,10].
"""
import argparse
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class CheckNet(nn.Module):
    def __init__(self, adaptive_pool: bool = False):
        super().__init__()
        self.adaptive_pool = adaptive_pool
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, 3, stride=2, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(32)
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(32, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dtype == torch.uint8:
            x = x.float() / 255.0
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        if self.adaptive_pool:
            return self.fc(self.drop(torch.flatten(F.adaptive_avg_pool2d(x, 1), 1)))
        return self.fc(self.drop(x.mean(dim=(2, 3))))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="checknet.pt")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--adaptive-pool", action="store_true", help="pool with adaptive_avg_pool2d (no deterministic CUDA backward)")
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    scripted = torch.jit.script(CheckNet(a.adaptive_pool))
    with torch.no_grad():
        assert scripted.eval()(torch.zeros(2, 1, 28, 28)).shape == (2, 10)
    scripted.train()
    scripted.save(a.out)
    print(f"wrote {a.out}: CheckNet, {sum(p.numel() for p in scripted.parameters()):,} parameters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
