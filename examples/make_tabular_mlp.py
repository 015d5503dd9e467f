#!/usr/bin/python3
"""A tabular MLP (49 float features -> 10 classes), saved as TorchScript for
`savepoint-cli train --model tabular_mlp.pt --data tabular.pt`.

    /usr/bin/python3 examples/make_tabular_mlp.py [--out tabular_mlp.pt] [--features 49] [--seed 0]

tabular.pt (examples/make_data.py) holds Fashion-MNIST images average-pooled
to 7x7 and standardized: 49 float features a row, like a table of measurements.
"""
import argparse
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class TabularMlp(nn.Module):
    """features -> 128 -> 64 -> classes, ReLU, BatchNorm1d and dropout after each hidden layer."""

    def __init__(self, features: int = 49, classes: int = 10, dropout: float = 0.1):
        super().__init__()
        self.fc1 = nn.Linear(features, 128)
        self.bn1 = nn.BatchNorm1d(128)
        self.fc2 = nn.Linear(128, 64)
        self.bn2 = nn.BatchNorm1d(64)
        self.drop = nn.Dropout(dropout)
        self.out = nn.Linear(64, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.flatten(x.float(), 1)
        x = self.drop(F.relu(self.bn1(self.fc1(x))))
        x = self.drop(F.relu(self.bn2(self.fc2(x))))
        return self.out(x)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="tabular_mlp.pt")
    ap.add_argument("--features", type=int, default=49)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    model = TabularMlp(a.features)
    scripted = torch.jit.script(model)
    with torch.no_grad():
        assert scripted.eval()(torch.zeros(2, a.features)).shape == (2, 10)
    scripted.train()
    scripted.save(a.out)
    n = sum(p.numel() for p in model.parameters())
    print(f"wrote {a.out}: TabularMlp({a.features} features), {n:,} parameters")
    return 0


if __name__ == "__main__":
    sys.exit(main())
