#!/usr/bin/python3
"""Data files for savepoint-cli train --data FILE.pt, from Fashion-MNIST
(Debian's dataset-fashion-mnist, /usr/share/datasets/fashion-mnist):

    /usr/bin/python3 examples/make_data.py [--src DIR] [--out DIR] [--train N] [--test N]

writes
  fashion.pt  {"train_x": uint8 [N,1,28,28], "train_y": int64 [N], "test_x": ..., "test_y": ...}
              the images as they are, for examples/make_resnet.py's convnet;
  tabular.pt  {"train_x": float32 [N,49], "train_y": int64 [N], "test_x": ..., "test_y": ...}
              each image average-pooled to 7x7 and standardized with the training split's
              mean and standard deviation per feature, for examples/make_tabular_mlp.py.
--train/--test keep the first N samples of each split (default: all, 60,000 and 10,000).
The same inputs give the same files: no randomness is involved.
"""
import argparse
import gzip
import os
import struct
import sys

import torch
import torch.nn.functional as F


def read_idx(path: str) -> torch.Tensor:
    """An IDX file (gzipped) as a uint8 tensor of its dimensions."""
    with gzip.open(path, "rb") as f:
        raw = f.read()
    zero, dtype, ndim = struct.unpack(">HBB", raw[:4])
    if zero != 0 or dtype != 0x08:
        raise SystemExit(f"{path}: expected an IDX file of unsigned bytes (magic 0x0000 08 ..), "
                         f"found 0x{zero:04x} {dtype:02x}")
    dims = struct.unpack(f">{ndim}I", raw[4:4 + 4 * ndim])
    data = bytearray(raw[4 + 4 * ndim:])
    return torch.frombuffer(data, dtype=torch.uint8).reshape(dims)


def split(src: str, prefix: str, limit: int):
    x = read_idx(os.path.join(src, f"{prefix}-images-idx3-ubyte.gz"))
    y = read_idx(os.path.join(src, f"{prefix}-labels-idx1-ubyte.gz"))
    if limit:
        x, y = x[:limit], y[:limit]
    return x.reshape(-1, 1, 28, 28).contiguous(), y.to(torch.int64)


def pooled(x: torch.Tensor) -> torch.Tensor:
    """[N,1,28,28] uint8 -> [N,49] float32: each 4x4 patch's mean, in [0,1]."""
    return F.avg_pool2d(x.float() / 255.0, 4).reshape(x.shape[0], 49)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", default="/usr/share/datasets/fashion-mnist")
    ap.add_argument("--out", default=".")
    ap.add_argument("--train", type=int, default=0, help="first N training samples (0: all)")
    ap.add_argument("--test", type=int, default=0, help="first N test samples (0: all)")
    a = ap.parse_args()
    train_x, train_y = split(a.src, "train", a.train)
    test_x, test_y = split(a.src, "t10k", a.test)

    fashion = os.path.join(a.out, "fashion.pt")
    torch.save({"train_x": train_x, "train_y": train_y, "test_x": test_x, "test_y": test_y}, fashion)
    print(f"wrote {fashion}: train {tuple(train_x.shape)} uint8, test {tuple(test_x.shape)} uint8")

    ptrain, ptest = pooled(train_x), pooled(test_x)
    mean, std = ptrain.mean(0), ptrain.std(0).clamp_min(1e-6)  # the training split's, for both
    tabular = os.path.join(a.out, "tabular.pt")
    torch.save({"train_x": ((ptrain - mean) / std).contiguous(), "train_y": train_y,
                "test_x": ((ptest - mean) / std).contiguous(), "test_y": test_y}, tabular)
    print(f"wrote {tabular}: train {tuple(ptrain.shape)} float32, test {tuple(ptest.shape)} float32 (standardized)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
