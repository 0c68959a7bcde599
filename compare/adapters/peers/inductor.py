"""PyTorch Inductor: the ONNX model turned into a torch.nn.Module by onnx2torch and compiled per
shape by torch.compile (backend inductor, default mode, static shapes), on CPU.

Run with torch 2.15.0 (the CUDA wheel, the only one PyPI serves, on CPU) and onnx2torch 1.5.15.
The first shape's build also pays torch's one-time start-up (about 13 s of the first build's 14
here, against under 1 s for the next shape's).
"""

import os
import shutil
import time

import common

INSTALL = "scripts/setup_peers.sh inductor"

torch = None
np = None
convert = None


def load(response):
    global torch, np, convert
    import torch as torch_module  # first: a Python without torch is told that
    import onnx2torch
    import numpy
    import torch._dynamo  # noqa: F401  (torch._dynamo.reset between shapes)
    np, torch, convert = numpy, torch_module, onnx2torch.convert
    versions = response.doc["versions"]
    versions["torch"] = torch.__version__
    from importlib.metadata import version
    versions["onnx2torch"] = version("onnx2torch")


def parse_unsupported(text):
    # onnx2torch: "NotImplementedError: Converter is not implemented (OperationDescription(
    # domain='', operation_type='Foo', version=17))"
    import re
    return [{"op": op, "error": text} for op in
            re.findall(r"operation_type='(\w+)'", text)]


common.register_unsupported_parser(parse_unsupported)


def measure(request, response, deadline):
    if request.get("model_format", "onnx") != "onnx":
        raise ValueError(f"the Inductor adapter takes ONNX models, not {request['model_format']}")
    work = request["work_dir"]
    # A build must be cold, as the other peers' are: Inductor otherwise reuses kernels it
    # compiled in an earlier run from its cache in /tmp. It reads the variable when it first
    # compiles.
    cache = os.path.join(work, "inductor-cache")
    shutil.rmtree(cache, ignore_errors=True)
    os.environ["TORCHINDUCTOR_CACHE_DIR"] = cache
    if request["threads"]:
        torch.set_num_threads(int(request["threads"]))
    response.doc["input_received"] = (
        "the ONNX file, converted to a torch.nn.Module by onnx2torch, compiled per shape by "
        "torch.compile(backend='inductor', dynamic=False)")
    response.doc["dynamic_shapes"] = False
    response.doc["kernels_note"] = (
        "not followed yet: Inductor's generated code names the FX nodes (onnx2torch names them "
        "after the ONNX nodes) each kernel holds in comments, and torch.profiler times its "
        "kernels, but this adapter reads neither"
        if request["options"].get("profile") else "profiling was not asked for")
    module = convert(request["model"]).eval()

    def build(shape):
        inputs = common.load_inputs(np, shape["inputs"])
        arguments = [torch.from_numpy(array) for _, array in inputs]
        torch._dynamo.reset()
        compiled = torch.compile(module, backend="inductor", dynamic=False)
        # torch.compile is lazy: the first call traces and compiles (and runs once, which is
        # a negligible part of a build that takes seconds).
        start = time.perf_counter()
        with torch.inference_mode():
            compiled(*arguments)
        build_s = time.perf_counter() - start
        return common.Built(lambda arrays: prepare(compiled, arrays), build_s=build_s)

    common.measure_shapes(request, response, "inductor", build, deadline)
    if request["options"].get("dump"):
        dump(request, response, module)


def prepare(compiled, inputs):
    arguments = [torch.from_numpy(array) for _, array in inputs]

    def call():
        with torch.inference_mode():
            return compiled(*arguments)

    def fetch(result):
        items = result if isinstance(result, (tuple, list)) else [result]
        return [item.detach().numpy() for item in items]

    return call, fetch


def dump(request, response, module):
    """The first shape compiled again with Inductor's debug trace on (FX graphs, its IR before
    and after fusion, the generated code) and the FX graph cache off, so that it compiles."""
    import torch._inductor.config as inductor_config
    shape = request["shapes"][0]
    folder = os.path.join(request["work_dir"], "inductor-debug")
    arguments = [torch.from_numpy(a) for _, a in common.load_inputs(np, shape["inputs"])]
    torch._dynamo.reset()
    with inductor_config.patch({"trace.enabled": True, "trace.debug_dir": folder,
                                "fx_graph_cache": False}):
        with torch.inference_mode():
            torch.compile(module, backend="inductor", dynamic=False)(*arguments)
    response.add_dump("inductor-debug", folder)
