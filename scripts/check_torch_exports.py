#!/usr/bin/env python3
"""Real architectures exported to ONNX by torch, imported, compiled and run by Fusescope.

Each model is built here from its library's own code with random weights (torchvision's
ResNet-18 and EfficientNet-B0, Hugging Face's BERT, GPT-2 and Llama from their configs;
nothing is downloaded), exported with `torch.onnx.export` (the TorchScript exporter, the
dynamo exporter, or both), then:
  1. `fusescope compile MODEL.onnx -o RUN.fsdb` (import and our CPU pipeline);
  2. `fusescope run RUN.fsdb --device cpu --inputs IN.npz --save-outputs OURS --save-exact EXACT`
     on the inputs torch ran with;
and the outputs are compared three ways: our compiled kernels against torch in f32, our f64
interpreter of the imported module against torch with the model and inputs in f64 (two
independent exact answers), and torch f32 against torch f64 (how far f32 itself is from
exact). Peak RSS of each fusescope step (its own high-water mark) and wall times are printed.

Sizes: the default configs are small (2 layers, width 128); --full builds the libraries'
default sizes where they are about 100M parameters (bert-base, gpt2, a 12-layer Llama).

Usage: scripts/check_torch_exports.py FUSESCOPE [--models resnet18,...] [--exporters
legacy,dynamo] [--full] [--work DIR] [--atol 1e-4] [--json OUT]
Needs torch, torchvision, transformers, onnx and onnxscript in the Python that runs it
(optional, large: not part of the test set-up). Exit status 1 when a model fails to import,
compile or run, keeps an op opaque, or an error is over --atol times its output's scale.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MODELS = ["resnet18", "efficientnet_b0", "bert", "gpt2", "llama"]


def transformer(name, full):
    import transformers as t

    small = dict(num_hidden_layers=2, hidden_size=128, num_attention_heads=4,
                 intermediate_size=256, vocab_size=1000)
    if name == "bert":
        config = t.BertConfig() if full else t.BertConfig(**small)
        return t.BertModel(config), config.vocab_size
    if name == "gpt2":
        config = t.GPT2Config() if full else t.GPT2Config(n_layer=2, n_embd=128, n_head=4,
                                                          vocab_size=1000)
        return t.GPT2Model(config), config.vocab_size
    if full:
        config = t.LlamaConfig(hidden_size=768, num_hidden_layers=12, num_attention_heads=12,
                               num_key_value_heads=4, intermediate_size=2048, vocab_size=32000)
    else:
        config = t.LlamaConfig(num_key_value_heads=2, **small)
    return t.LlamaForCausalLM(config), config.vocab_size


def build(torch, name, full, seq, image):
    """(module taking positional tensors and returning one tensor, example inputs)."""
    torch.manual_seed(0)
    if name in ("resnet18", "efficientnet_b0"):
        import torchvision

        model = getattr(torchvision.models, name)(weights=None)
        return model.eval(), (torch.randn(1, 3, image, image),)
    model, vocab = transformer(name, full)

    class LastHidden(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, ids, mask):
            kwargs = dict(input_ids=ids, attention_mask=mask, return_dict=True)
            if name != "bert":
                kwargs["use_cache"] = False
            return self.inner(**kwargs)[0]

    ids = torch.randint(0, vocab, (1, seq))
    mask = torch.ones(1, seq, dtype=torch.int64)
    mask[0, seq - seq // 4:] = 0  # a padded tail, so that the mask matters
    return LastHidden(model).eval(), (ids, mask)


# Runs argv[2:] and writes its exit status and peak RSS (KiB) to the file argv[1]. A child of
# this Python would inherit its high-water mark, torch and all (Linux counts the mm a vfork
# child shares until exec), so a fresh small interpreter forks the command instead.
LAUNCHER = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
open(sys.argv[1], "w").write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}")
"""


def run_measured(argv):
    """(exit status, stdout, stderr, seconds, peak RSS in MiB) of one child process."""
    start = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        result = Path(tmp) / "result"
        out, err = Path(tmp) / "out", Path(tmp) / "err"
        with open(out, "wb") as stdout, open(err, "wb") as stderr:
            subprocess.run([sys.executable, "-S", "-c", LAUNCHER, str(result),
                            os.path.abspath(argv[0])] + argv[1:], stdout=stdout, stderr=stderr)
        seconds = time.monotonic() - start
        rc, kib = (int(v) for v in result.read_text().split())
        return rc, out.read_text(), err.read_text().strip(), seconds, kib / 1024


def max_abs(np, a, b):
    return float(np.max(np.abs(np.asarray(a, np.float64) - np.asarray(b, np.float64))))


def check(torch, np, binary, name, exporter, args, work):
    folder = work / f"{name}_{exporter}"
    folder.mkdir(parents=True, exist_ok=True)
    model, inputs = build(torch, name, args.full, args.seq, args.image)
    row = {"model": name, "exporter": exporter,
           "params": sum(p.numel() for p in model.parameters())}
    with torch.no_grad():
        want = model(*inputs).numpy()
        wide = model.double()(*[x.double() if x.is_floating_point() else x for x in inputs])
        want64 = wide.numpy()
        model.float()
    onnx_path = folder / "model.onnx"
    try:
        torch.onnx.export(model, inputs, str(onnx_path), dynamo=exporter == "dynamo",
                          opset_version=18 if exporter == "dynamo" else 17)
    except Exception as error:  # the exporter's failure is the row, not the end of the run
        row["failure"] = f"torch.onnx.export: {type(error).__name__}: {error}"[:300]
        return row
    np.savez(folder / "inputs.npz", *[x.numpy() for x in inputs])
    recording = folder / "model.fsdb"
    rc, _, err, seconds, rss = run_measured(
        [binary, "compile", str(onnx_path), "-o", str(recording)])
    row.update(compile_s=seconds, compile_rss_mib=rss)
    # Every op lowered: an opaque custom-call would compile but not run.
    row["opaque"] = " ".join(line for line in err.splitlines() if "kept as custom-calls" in line)
    if rc != 0:
        row["failure"] = "compile: " + err.splitlines()[-1] if err else f"compile: exit {rc}"
        return row
    rc, out, err, seconds, rss = run_measured(
        [binary, "run", str(recording), "--device", "cpu", "--json", "--inputs",
         str(folder / "inputs.npz"), "--save-outputs", str(folder / "ours"), "--save-exact",
         str(folder / "exact")])
    row.update(run_s=seconds, run_rss_mib=rss)
    if rc not in (0, 1) or not out:
        row["failure"] = "run: " + (err.splitlines()[-1] if err else f"exit {rc}")
        return row
    report = json.loads(out)
    row["verdicts"] = ", ".join(sorted({o.get("verdict", "?") for o in report["outputs"]}))
    ours = np.load(folder / "ours" / "out_000.npy")
    exact = np.load(folder / "exact" / "out_000.npy")
    scale = float(np.max(np.abs(want64))) or 1.0
    row["scale"] = scale
    row["ours_vs_torch"] = max_abs(np, ours, want)
    row["exact_vs_torch64"] = max_abs(np, exact, want64)
    row["torch32_vs_torch64"] = max_abs(np, want, want64)
    # Absolute errors against the output's own scale (a randomly initialised classifier's
    # logits may be 1e-20).
    # The two f64 answers differ by the exported graph's f32 constants (1/sqrt(d), epsilons,
    # RoPE frequencies) and are printed, not judged.
    row["ok"] = (row["ours_vs_torch"] <= args.atol * scale and "MISMATCH" not in row["verdicts"]
                 and not row["opaque"])
    return row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fusescope")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--exporters", default="legacy,dynamo")
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--seq", type=int, default=16)
    parser.add_argument("--image", type=int, default=64)
    parser.add_argument("--atol", type=float, default=1e-4)
    parser.add_argument("--work", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    try:
        import numpy as np
        import torch
    except ImportError as error:
        print(f"SKIP: torch not importable by {sys.executable} ({error})")
        return 77
    torch.set_num_threads(1)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        for name in args.models.split(","):
            for exporter in args.exporters.split(","):
                row = check(torch, np, args.fusescope, name, exporter, args, work)
                rows.append(row)
                if "failure" in row:
                    print(f"{name:16} {exporter:7} FAILED {row['failure']}", flush=True)
                else:
                    print(f"{name:16} {exporter:7} {row['params']:>11,} params  "
                          f"|out| {row['scale']:.1e}  ours-torch {row['ours_vs_torch']:.2e}  "
                          f"f64: ours-torch {row['exact_vs_torch64']:.2e}  "
                          f"torch f32-f64 {row['torch32_vs_torch64']:.2e}  "
                          f"compile {row['compile_s']:.1f} s {row['compile_rss_mib']:.0f} MiB  "
                          f"run {row['run_s']:.1f} s {row['run_rss_mib']:.0f} MiB  "
                          f"[{row['verdicts']}]" + (f" {row['opaque']}" if row["opaque"] else ""),
                          flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return 0 if all(row.get("ok") for row in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
