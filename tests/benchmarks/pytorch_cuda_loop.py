#!/usr/bin/env python3
"""A plain PyTorch training loop on a GPU: the peer of `bench_train --device cuda` (docs/CUDA.md).
Two forms of the same step (forward, cross-entropy, backward, Adam at lr 1e-3, the loss and the
number right read back every --log-every steps, as Savepoint records them):

  eager  the step as a user writes it;
  graph  the whole step, Adam(capturable=True) included, captured once as one CUDA graph and
         replayed, each batch copied into static input and target tensors (PyTorch's
         whole-network capture recipe: warm-up on a side stream, torch.cuda.graph(g)).

Both save alike: every --save-every N steps (default 0: never), torch.save of the model's and the
optimizer's state_dict to a temporary file, then os.replace; a save's stall is the time the loop
waits for it. The models are Savepoint's (engine/model/models.cpp: mlp, dnn, cnn, layer for layer)
and examples/make_resnet.py's SmallResNet. The training set lives on the device; batches are
gathered there from a seeded permutation.

    tests/benchmarks/pytorch_cuda_loop.py [--device cuda|cpu] [--models mlp,cnn,resnet] [--forms eager,graph]
        [--batch 32] [--steps 500] [--warmup 20] [--save-every N] [--log-every 1]
        [--data DIR|synthetic] [--deterministic] [--threads N] [--json PATH]

--device cpu runs the eager form only (the graph form needs CUDA and says so). Runs with
Debian's python3-torch 1.13 (CPU) and with PyTorch 2.x on a GPU.
"""
import argparse
import json
import os
import sys
import tempfile
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))
sys.path.insert(0, os.path.join(root, "examples"))
from make_data import read_idx  # noqa: E402  (the IDX reader the examples use; torch only)
from make_resnet import SmallResNet  # noqa: E402  (the network of examples/make_resnet.py)


def make_model(name):
    """Savepoint's built-in networks (engine/model/models.cpp), and the examples' resnet."""
    if name == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Dropout(0.2), nn.Linear(512, 10))
    if name == "dnn":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Dropout(0.2),
                             nn.Linear(256, 32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 10))
    if name == "cnn":
        return nn.Sequential(nn.Conv2d(1, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                             nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                             nn.Flatten(), nn.Linear(32 * 7 * 7, 64), nn.ReLU(), nn.Dropout(0.2), nn.Linear(64, 10))
    if name == "resnet":
        return SmallResNet()
    raise SystemExit(f"--models: expected mlp, dnn, cnn or resnet, found '{name}'")


def default_data_dir():
    for d in ("/usr/share/datasets/fashion-mnist", os.path.join(root, ".gpu-kit", "data")):
        if os.path.exists(os.path.join(d, "train-images-idx3-ubyte.gz")):
            return d
    return "/usr/share/datasets/fashion-mnist"


def load_train(spec, device):
    """[N,1,28,28] float in [0,1] and int64 labels, on the device."""
    if spec == "synthetic":
        g = torch.Generator().manual_seed(0)
        x = torch.randint(0, 256, (10000, 1, 28, 28), generator=g, dtype=torch.uint8)
        y = torch.randint(0, 10, (10000,), generator=g)
        what = "synthetic (10,000 random 28x28 images)"
    else:
        images = os.path.join(spec, "train-images-idx3-ubyte.gz")
        if not os.path.exists(images):
            raise SystemExit(f"--data: expected Fashion-MNIST's train-images-idx3-ubyte.gz in {spec}, found none "
                             "(give --data DIR, e.g. .gpu-kit/data, or --data synthetic)")
        x = read_idx(images).reshape(-1, 1, 28, 28)
        y = read_idx(os.path.join(spec, "train-labels-idx1-ubyte.gz")).to(torch.int64)
        what = f"fashion-mnist ({spec})"
    return (x.float() / 255.0).to(device), y.to(device), what


def sync(device):
    if device.type == "cuda":
        torch.cuda.synchronize()


class Saver:
    """torch.save of model and optimizer every `every` steps; the seconds each one held the loop."""

    def __init__(self, every, folder):
        self.every, self.path, self.stalls = every, os.path.join(folder, "ckpt.pt"), []

    def maybe_save(self, step, model, opt, device):
        if not self.every or step % self.every:
            return
        sync(device)  # what the GPU still has queued is the step's, not the save's
        t0 = time.perf_counter()
        torch.save({"model": model.state_dict(), "optimizer": opt.state_dict()}, self.path + ".tmp")
        os.replace(self.path + ".tmp", self.path)
        self.stalls.append(time.perf_counter() - t0)


def batches(x, y, batch, seed):
    """An endless stream of (indices) over a seeded permutation, wrapping at the end."""
    g = torch.Generator().manual_seed(seed)
    n = x.shape[0]
    while True:
        perm = torch.randperm(n, generator=g).to(x.device)
        for start in range(0, n - batch + 1, batch):
            yield perm[start:start + batch]


def run_eager(model, x, y, a, device, saver):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    it = batches(x, y, a.batch, a.seed)

    def step():
        idx = next(it)
        xb, yb = x.index_select(0, idx), y.index_select(0, idx)
        opt.zero_grad(set_to_none=True)
        out = model(xb)
        loss = F.cross_entropy(out, yb)
        loss.backward()
        opt.step()
        return loss, (out.argmax(1) == yb).sum()

    for _ in range(a.warmup):
        step()
    return timed(step, model, opt, a, device, saver)


def run_graph(model, x, y, a, device, saver):
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, capturable=True)
    it = batches(x, y, a.batch, a.seed)
    static_x = torch.zeros((a.batch,) + tuple(x.shape[1:]), device=device)
    static_y = torch.zeros(a.batch, dtype=torch.int64, device=device)

    def whole_step():
        out = model(static_x)
        loss = F.cross_entropy(out, static_y)
        loss.backward()
        opt.step()
        return loss, (out.argmax(1) == static_y).sum()

    # Warm-up on a side stream (lazy initialisation, cuDNN's choices), then capture.
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            idx = next(it)
            static_x.copy_(x.index_select(0, idx))
            static_y.copy_(y.index_select(0, idx))
            opt.zero_grad(set_to_none=True)
            whole_step()
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    opt.zero_grad(set_to_none=True)
    with torch.cuda.graph(graph):
        static_loss, static_correct = whole_step()

    def step():
        idx = next(it)
        static_x.copy_(x.index_select(0, idx))
        static_y.copy_(y.index_select(0, idx))
        graph.replay()
        return static_loss, static_correct

    for _ in range(a.warmup):
        step()
    return timed(step, model, opt, a, device, saver)


def timed(step, model, opt, a, device, saver):
    sync(device)
    t0 = time.perf_counter()
    for s in range(1, a.steps + 1):
        loss, correct = step()
        if a.log_every and s % a.log_every == 0:
            loss.item(), correct.item()  # what Savepoint records each step: a read back to the host
        saver.maybe_save(s, model, opt, device)
    sync(device)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    ap.add_argument("--models", default="mlp,cnn,resnet")
    ap.add_argument("--forms", default="eager,graph")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--save-every", type=int, default=0, help="torch.save every N steps (0: never)")
    ap.add_argument("--log-every", type=int, default=1, help="read loss and accuracy back every N steps (0: never)")
    ap.add_argument("--data", default=default_data_dir(), help="a folder of Fashion-MNIST's IDX .gz files, or synthetic")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--deterministic", action="store_true",
                    help="cuDNN deterministic, benchmark off, deterministic algorithms (as Savepoint trains)")
    ap.add_argument("--threads", type=int, default=0, help="CPU threads (0: PyTorch's default)")
    ap.add_argument("--json")
    a = ap.parse_args()
    forms = [f for f in a.forms.split(",") if f]
    for f in forms:
        if f not in ("eager", "graph"):
            raise SystemExit(f"--forms: expected eager and/or graph, found '{f}'")
    if a.batch < 1 or a.steps < 1 or a.warmup < 0 or a.save_every < 0 or a.log_every < 0:
        raise SystemExit("--batch and --steps: expected at least 1; --warmup, --save-every, --log-every: at least 0")
    if a.device == "cuda" and not torch.cuda.is_available():
        raise SystemExit(f"--device cuda: this torch {torch.__version__} sees no CUDA GPU (try --device cpu)")
    device = torch.device(a.device)
    if a.threads:
        torch.set_num_threads(a.threads)
    if a.deterministic:
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark = True, False
        torch.use_deterministic_algorithms(True)
    x, y, what = load_train(a.data, device)
    gpu = torch.cuda.get_device_name(0) if device.type == "cuda" else None

    res = {"tool": "pytorch_cuda_loop", "torch": torch.__version__, "device": a.device, "gpu": gpu, "data": what,
           "batch": a.batch, "steps": a.steps, "warmup": a.warmup, "save_every": a.save_every,
           "log_every": a.log_every, "deterministic": a.deterministic, "results": []}
    print(f"pytorch_cuda_loop: torch {torch.__version__}, {a.device}{' (' + gpu + ')' if gpu else ''}, {what}, "
          f"batch {a.batch}, {a.steps} steps, save every {a.save_every or 'never'}", flush=True)
    print(f"{'model':7} {'form':6} {'steps/s':>10} {'samples/s':>11} {'saves':>6} {'stall_ms':>9}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for m in [m for m in a.models.split(",") if m]:
            for form in forms:
                row = {"model": m, "form": form, "batch": a.batch}
                if form == "graph" and device.type != "cuda":
                    row["skipped"] = "the graph form needs CUDA (--device cuda)"
                    print(f"{m:7} {form:6} skipped: {row['skipped']}", flush=True)
                    res["results"].append(row)
                    continue
                torch.manual_seed(a.seed)
                model = make_model(m).to(device).train()
                saver = Saver(a.save_every, folder)
                try:
                    secs = (run_graph if form == "graph" else run_eager)(model, x, y, a, device, saver)
                except RuntimeError as e:  # e.g. --deterministic and an op without a deterministic kernel
                    row["error"] = str(e).strip().splitlines()[0]
                    print(f"{m:7} {form:6} failed: {row['error']}", flush=True)
                    res["results"].append(row)
                    continue
                stall = 1000 * sum(saver.stalls) / len(saver.stalls) if saver.stalls else None
                row.update({"steps": a.steps, "seconds": secs, "steps_per_s": a.steps / secs,
                            "samples_per_s": a.steps * a.batch / secs, "saves": len(saver.stalls), "stall_ms": stall})
                res["results"].append(row)
                print(f"{m:7} {form:6} {row['steps_per_s']:10.1f} {row['samples_per_s']:11.0f} {len(saver.stalls):6d} "
                      f"{'-' if stall is None else format(stall, '9.2f'):>9}", flush=True)
                del model, saver
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
