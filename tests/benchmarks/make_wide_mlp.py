#!/usr/bin/python3
"""A wide MLP for Fashion-MNIST (784 -> W -> W -> 10), saved as TorchScript: a model whose
checkpoint is large (W=2048: 5.8 M parameters, a 70 MB checkpoint with Adam's moments), for
`bench_train --only capture-study --model wide_mlp.pt`, where a copy's stall shows.

    /usr/bin/python3 tests/benchmarks/make_wide_mlp.py [--out wide_mlp.pt] [--width 2048]
"""
import argparse
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class WideMlp(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        self.fc1 = nn.Linear(784, width)
        self.fc2 = nn.Linear(width, width)
        self.out = nn.Linear(width, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.flatten(x.float(), 1)
        return self.out(F.relu(self.fc2(F.relu(self.fc1(x)))))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="wide_mlp.pt")
    ap.add_argument("--width", type=int, default=2048)
    a = ap.parse_args()
    torch.manual_seed(0)
    model = WideMlp(a.width)
    scripted = torch.jit.script(model)
    scripted.save(a.out)
    n = sum(p.numel() for p in model.parameters())
    print(f"wrote {a.out}: WideMlp(width {a.width}), {n:,} parameters, {12 * n / 1e6:.0f} MB with Adam's moments")
    return 0


if __name__ == "__main__":
    sys.exit(main())
