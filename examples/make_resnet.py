#!/usr/bin/python3
"""A small residual convnet for Fashion-MNIST, saved as TorchScript for
`savepoint-cli train --model resnet.pt`.

    /usr/bin/python3 examples/make_resnet.py [--out resnet.pt] [--seed 0]

Input [B,1,28,28] floats in [0,1] (Savepoint scales fashion.pt's uint8 pixels
so; called from Python with uint8 pixels, the model scales them itself),
output logits [B,10]. BatchNorm after every convolution and
dropout before the classifier, so the checkpoints hold buffers
(layer1.0.bn1.running_mean, ...) as well as parameters. Needs only torch
(Debian's python3-torch 1.13), no torchvision.
"""
import argparse
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    """Two 3x3 convolutions with BatchNorm and a shortcut (a 1x1 convolution
    where the shape changes), as in ResNet-18's blocks."""

    def __init__(self, cin: int, cout: int, stride: int):
        super().__init__()
        self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(cout)
        self.conv2 = nn.Conv2d(cout, cout, 3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(cout)
        self.shortcut = nn.Sequential()
        if stride != 1 or cin != cout:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class SmallResNet(nn.Module):
    """28x28 -> 16 channels -> 2 blocks at 28x28 -> 32 at 14x14 -> 64 at 7x7 -> pool -> 10."""

    def __init__(self, classes: int = 10, dropout: float = 0.2):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.layer1 = nn.Sequential(BasicBlock(16, 16, 1), BasicBlock(16, 16, 1))
        self.layer2 = nn.Sequential(BasicBlock(16, 32, 2), BasicBlock(32, 32, 1))
        self.layer3 = nn.Sequential(BasicBlock(32, 64, 2))
        self.drop = nn.Dropout(dropout)
        self.fc = nn.Linear(64, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.dtype == torch.uint8:  # raw pixels, as fashion.pt stores them
            x = x.float() / 255.0
        x = F.relu(self.bn1(self.conv1(x)))
        x = self.layer3(self.layer2(self.layer1(x)))
        # A mean over the image, not adaptive_avg_pool2d: the same values, and a backward pass
        # with a deterministic CUDA kernel, so the model trains on a GPU too (docs/CUDA.md).
        x = x.mean(dim=(2, 3))
        return self.fc(self.drop(x))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="resnet.pt")
    ap.add_argument("--seed", type=int, default=0, help="seeds the initial weights (the file is the same each time)")
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    model = SmallResNet()
    scripted = torch.jit.script(model)
    with torch.no_grad():  # a check that it runs, before it is written
        assert scripted.eval()(torch.zeros(2, 1, 28, 28, dtype=torch.uint8)).shape == (2, 10)
    scripted.train()
    scripted.save(a.out)
    n = sum(p.numel() for p in model.parameters())
    print(f"wrote {a.out}: SmallResNet, {n:,} parameters, {len(list(model.buffers()))} buffers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
