#!/usr/bin/python3
"""Python's side of savepoint-cli export (run by CTest after test_export):

    /usr/bin/python3 tests/python/test_export_loads.py FIXTURE_DIR docs/YOUR-MODEL.md

For each built-in model, FIXTURE_DIR holds the file `export` wrote (<model>.pt)
and what the engine's own model computed with those weights on a fixed input
(<model>-expected.pt: {"input", "logits"}), both left there by test_export.
The torch.nn definitions are docs/YOUR-MODEL.md's own code block (Export to
PyTorch), run as it is, so the doc cannot drift from the engine: each must
load its state dict with strict=True and compute the engine's logits. script.pt, the export of a
TorchScript run, must load with torch.jit.load and hold the checkpoint's
tensors (script-expected.pt). Exit 77 (CTest: skipped) when
torch cannot be imported: install Debian's python3-torch
(packaging/setup-debian.sh --tests does).
"""
import os
import re
import sys

try:
    import torch
except ImportError as e:
    print(f"SKIP: torch is not importable by {sys.executable} ({e}); install python3-torch")
    sys.exit(77)

CLASSES = {"mlp": "Mlp", "dnn": "Dnn", "cnn": "Cnn"}


def readme_models(readme):
    """The doc's code block that defines the built-in models, executed (without its usage lines)."""
    text = open(readme, encoding="utf-8").read()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "class Mlp(nn.Module)" in b]
    if len(blocks) != 1:
        raise SystemExit(f"{readme}: expected one python block defining class Mlp(nn.Module), found {len(blocks)}")
    definitions = blocks[0].split("\nmodel = ")[0]  # the example after the classes loads a file of its own
    scope = {}
    exec(compile(definitions, readme, "exec"), scope)
    return scope


def check_torchscript(fixture):
    """The TorchScript export (script.pt) must load with torch.jit.load and hold the checkpoint's tensors."""
    module = torch.jit.load(os.path.join(fixture, "script.pt"))
    expected = torch.load(os.path.join(fixture, "script-expected.pt"))
    state = module.state_dict()
    if set(state) != set(expected):
        return [f"script.pt: state_dict keys {sorted(state)} differ from the checkpoint's {sorted(expected)}"]
    differ = [k for k in expected if not torch.equal(state[k], expected[k])]
    if differ:
        return [f"script.pt: {', '.join(differ)} differ from the checkpoint's"]
    module.eval()
    with torch.no_grad():
        shape = tuple(module(torch.rand(4, 1, 28, 28)).shape)
    print(f"ok TorchScript: torch.jit.load reads it; its {len(state)} tensors are the checkpoint's; "
          f"forward gives {shape}")
    return []


def main():
    fixture, readme = sys.argv[1], sys.argv[2]
    scope = readme_models(readme)
    torch.set_num_threads(1)
    failures = []
    for name, cls in CLASSES.items():
        state = torch.load(os.path.join(fixture, f"{name}.pt"))
        expected = torch.load(os.path.join(fixture, f"{name}-expected.pt"))
        model = scope[cls]()
        try:
            model.load_state_dict(state, strict=True)
        except RuntimeError as e:
            failures.append(f"{name}: load_state_dict(strict=True) refused the export: {e}")
            continue
        model.eval()
        with torch.no_grad():
            logits = model(expected["input"])
        diff = (logits - expected["logits"]).abs().max().item()
        # Same weights, same input; only the order of float additions differs (the engine
        # computes its wide layers transposed): agreement to rounding, not to the bit.
        if logits.shape != expected["logits"].shape or diff > 1e-4:
            failures.append(f"{name}: logits differ from the engine's by up to {diff:.3g} "
                            f"(shape {tuple(logits.shape)}, expected {tuple(expected['logits'].shape)})")
        else:
            print(f"ok {name}: {len(state)} tensors load strictly; logits match the engine's (max diff {diff:.2g})")
    failures += check_torchscript(fixture)
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
