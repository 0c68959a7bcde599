"""PyTorch Inductor: the ONNX model turned into a torch.nn.Module by onnx2torch and compiled per
shape by torch.compile (backend inductor, default mode, static shapes), on CPU.

Run with torch 2.15.0 (the CUDA wheel, the only one PyPI serves, on CPU) and onnx2torch 1.5.15.
The first shape's build also pays torch's one-time start-up (about 13 s of the first build's 14
here, against under 1 s for the next shape's).
"""

import glob
import json
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
    if not request["options"].get("profile"):
        response.doc["kernels_note"] = "profiling was not asked for"
        return
    try:
        profile(request, response, module)
    except Exception as error:  # noqa: BLE001  (torch raises many types)
        response.doc["kernels"] = []
        response.doc["kernels_note"] = f"the kernels were not profiled: {common.error_text(error)}"


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
    and after fusion, the generated code, which kernel holds which FX nodes) and the FX graph
    cache off, so that it compiles."""
    import torch._inductor.config as inductor_config
    shape = request["shapes"][0]
    folder = os.path.join(request["work_dir"], "inductor-debug")
    arguments = [torch.from_numpy(a) for _, a in common.load_inputs(np, shape["inputs"])]
    torch._dynamo.reset()
    with inductor_config.patch({"trace.enabled": True, "trace.debug_dir": folder,
                                "fx_graph_cache": False, "trace.provenance_tracking_level": 1}):
        with torch.inference_mode():
            torch.compile(module, backend="inductor", dynamic=False)(*arguments)
    response.add_dump("inductor-debug", folder)


def profile(request, response, module):
    """Each kernel of the first shape with the ONNX nodes it holds and its time.

    The shape is compiled again with Inductor's provenance tracking, whose
    inductor_provenance_tracking_node_mappings.json (one per graph Dynamo made) maps each
    kernel call of the generated code to the post-grad FX nodes it computes and those to the
    pre-grad nodes, which onnx2torch names after the ONNX nodes. Generated C++ kernels are
    wrapped in profiler events (cpp.enable_kernel_profile) named `graph_<N>_<kernel>`, timed
    by torch.profiler over calls of the model; a library call (extern_kernels.mm, ...) shows
    as an aten event that does not say which call it was, so it has no time here."""
    import statistics

    import torch._inductor.config as inductor_config
    from torch.profiler import ProfilerActivity
    from torch.profiler import profile as torch_profile

    shape = request["shapes"][0]
    folder = os.path.join(request["work_dir"], "inductor-profile")
    shutil.rmtree(folder, ignore_errors=True)
    arguments = [torch.from_numpy(a) for _, a in common.load_inputs(np, shape["inputs"])]
    calls = max(10, min(int(request["reps"]), 50))
    torch._dynamo.reset()
    with inductor_config.patch({"trace.enabled": True, "trace.debug_dir": folder,
                                "fx_graph_cache": False, "trace.provenance_tracking_level": 1,
                                "cpp.enable_kernel_profile": True}):
        compiled = torch.compile(module, backend="inductor", dynamic=False)
        with torch.inference_mode():
            compiled(*arguments)
            with torch_profile(activities=[ProfilerActivity.CPU]) as profiler:
                for _ in range(calls):
                    compiled(*arguments)
    durations = {}
    for event in profiler.events():
        durations.setdefault(event.name, []).append(event.cpu_time_total)
    nodes = node_names(request["model"])
    graphs = sorted(glob.glob(os.path.join(folder, "**", "inductor_provenance_tracking_node_mappings.json"),
                              recursive=True), key=graph_number)
    for path in graphs:
        with open(path) as stream:
            mapping = json.load(stream)
        graph = graph_number(path)
        to_pre = mapping.get("postToPre", {})
        calls_of = sorted(mapping.get("cppCodeToPost", {}).items(),
                          key=lambda item: int(item[0].rpartition(":")[2] or 0))
        names = [key.rpartition(":")[0] for key, _ in calls_of]
        for key, posts in calls_of:
            kernel, _, position = key.rpartition(":")
            ops = []
            for post in posts:
                for pre in to_pre.get(post, []):
                    op = nodes.get(pre, pre)
                    if op not in ops:
                        ops.append(op)
            event = f"graph_{graph}_{kernel}"
            label = event if names.count(kernel) == 1 else f"{event} (call {position})"
            times = durations.get(event) if not kernel.startswith("extern_kernels.") else None
            response.add_kernel("inductor", shape["name"], label,
                                statistics.median(times) if times else None, ops,
                                f"torch.profiler (median of {len(times)} calls over {calls} "
                                f"runs)" if times else
                                "a library call: its aten event does not say which call it was")
    if not graphs:
        raise RuntimeError("Inductor wrote no provenance mapping")
    response.doc["kernels_note"] = (
        f"Dynamo made {len(graphs)} graph(s) of the model" if len(graphs) > 1 else "")


def graph_number(path):
    """N of a debug folder `model__N_inference_N.M`, the graph's number in the process, which
    Inductor's kernel events are prefixed with (`graph_N_`); M counts the compiles."""
    import re
    found = re.search(r"_inference_(\d+)", os.path.basename(os.path.dirname(path)))
    return int(found.group(1)) if found else -1


def node_names(model_path):
    """onnx2torch's module name (the node's name with characters Python names cannot hold made
    `_`) -> the ONNX node's name."""
    import onnx
    names = {}
    for node in onnx.load(model_path, load_external_data=False).graph.node:
        if node.name:
            names["".join(c if c.isalnum() or c == "_" else "_" for c in node.name)] = node.name
            names[node.name] = node.name
    return names
