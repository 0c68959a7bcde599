"""Writes the Inductor debug traces under tests/data/inductor/ (run with the Python of
`scripts/setup_peers.sh inductor`: .venv-peers/inductor/bin/python scripts/gen_inductor_trace.py).

  mlp/    tests/data/compare/mlp.onnx (through onnx2torch) at batch 8, inference, traced with
          trace.enabled and trace.provenance_tracking_level=1 as the compare adapter does: one
          graph, two library GEMMs and one generated kernel, with the provenance mapping.
  train/  a small convolution + batch norm + pooling + linear + log-softmax network, one
          training step under TORCH_COMPILE_DEBUG=1 (the run_*/torchinductor layout, a forward
          and a backward graph, provenance tracking at its default).

The files Fusescope does not read (fx_graph_runnable.py, torchdynamo/, tlparse/, the AOT log)
are removed to keep the data small."""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(ROOT, "tests", "data", "inductor")

TRAIN = r"""
import torch
torch.manual_seed(0)
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.fc = torch.nn.Linear(8 * 8 * 8, 10)
    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        y = torch.nn.functional.max_pool2d(y, 2)
        return torch.log_softmax(self.fc(y.flatten(1)), -1)
net = torch.compile(Net())
net(torch.randn(4, 3, 16, 16)).sum().backward()
"""

MLP = r"""
import sys, onnx, torch
import torch._inductor.config as config
from onnx2torch import convert
module = convert(onnx.load(sys.argv[1])).eval()
with config.patch({"trace.enabled": True, "trace.debug_dir": sys.argv[2],
                   "fx_graph_cache": False, "trace.provenance_tracking_level": 1}):
    with torch.inference_mode():
        torch.compile(module, backend="inductor", dynamic=False)(torch.randn(8, 256))
"""


def prune(folder):
    for path, folders, files in os.walk(folder, topdown=False):
        for name in files:
            if name == "fx_graph_runnable.py" or name.endswith(".log"):
                os.remove(os.path.join(path, name))
        for name in folders:
            if name in ("torchdynamo", "tlparse"):
                shutil.rmtree(os.path.join(path, name))


def main():
    shutil.rmtree(DATA, ignore_errors=True)
    os.makedirs(DATA)
    subprocess.run([sys.executable, "-c", MLP, os.path.join(ROOT, "tests/data/compare/mlp.onnx"),
                    os.path.join(DATA, "mlp")], check=True)
    # The caches would skip the compile, and with it the trace.
    environment = dict(os.environ, TORCH_COMPILE_DEBUG="1", TORCHINDUCTOR_FX_GRAPH_CACHE="0",
                       TORCHINDUCTOR_AUTOGRAD_CACHE="0",
                       TORCH_COMPILE_DEBUG_DIR=os.path.join(DATA, "train"))
    subprocess.run([sys.executable, "-c", TRAIN], check=True, env=environment)
    # TORCH_COMPILE_DEBUG_DIR gets a torch_compile_debug/ of its own; keep the run_* inside.
    inner = os.path.join(DATA, "train", "torch_compile_debug")
    if os.path.isdir(inner):
        for name in os.listdir(inner):
            shutil.move(os.path.join(inner, name), os.path.join(DATA, "train", name))
        os.rmdir(inner)
    prune(DATA)


if __name__ == "__main__":
    main()
