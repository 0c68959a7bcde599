"""ONNX Runtime: one InferenceSession on the ONNX file serves every shape (its symbolic dims
stay symbolic), with the default CPU provider and the default optimization level (all)."""

import glob
import json
import os
import re
import statistics
import time

import common

INSTALL = "scripts/setup_peers.sh ort"
VARIANT = "ort"

ort = None
np = None


def load(response):
    global ort, np
    import numpy
    import onnxruntime
    ort, np = onnxruntime, numpy
    response.doc["versions"]["onnxruntime"] = ort.__version__
    try:
        import onnx
        response.doc["versions"]["onnx"] = onnx.__version__
    except ImportError:
        pass  # onnx only maps fused nodes back to the input's; the measurement needs none


def parse_unsupported(text):
    # An op ONNX does not know: "No Op registered for Foo with domain_version of 17"; one ORT
    # has no kernel for: "Could not find an implementation for Foo(13) node with name 'foo_1'"
    ops = re.findall(r"No Op registered for (\w+) with domain_version", text)
    ops += re.findall(r"Could not find an implementation for (\w+)\(\d+\) node", text)
    return [{"op": op, "error": text} for op in dict.fromkeys(ops)]


common.register_unsupported_parser(parse_unsupported)


def session_options(request, optimized_path=None, profile_prefix=None):
    options = ort.SessionOptions()
    if request["threads"]:
        options.intra_op_num_threads = int(request["threads"])
    if optimized_path:
        options.optimized_model_filepath = optimized_path
    if profile_prefix:
        options.enable_profiling = True
        options.profile_file_prefix = profile_prefix
    return options


def measure(request, response, deadline):
    model = request["model"]
    if request.get("model_format", "onnx") != "onnx":
        raise ValueError(f"ONNX Runtime takes ONNX models, not {request['model_format']}")
    work = request["work_dir"]
    shapes = [shape["name"] for shape in request["shapes"]]
    symbolic = sorted({dim for shape in request["shapes"] for dim in shape["dims"]})
    response.doc["input_received"] = (
        "the ONNX file as given" + (f", dims {', '.join(symbolic)} left symbolic" if symbolic
                                    else "") + "; one session for every shape")
    response.doc["dynamic_shapes"] = True
    # Saving the optimized graph is part of every build: it is the artifact, and the cost of
    # writing a small model is well under the session's build time.
    optimized = os.path.join(work, "ort.optimized.onnx")
    baseline = common.rss()
    common.reset_peak_rss()
    start = time.perf_counter()
    try:
        session = ort.InferenceSession(model, session_options(request, optimized),
                                       providers=["CPUExecutionProvider"])
    except Exception as error:  # noqa: BLE001  (ORT raises its own exception types)
        response.add_build(VARIANT, shapes, baseline_rss_bytes=baseline,
                           error=common.error_text(error),
                           unsupported_ops=parse_unsupported(str(error)))
        for name in shapes:
            response.add_run(VARIANT, name, error="not run: the build failed")
        return
    build_s = time.perf_counter() - start
    response.add_build(VARIANT, shapes, build_s=build_s, baseline_rss_bytes=baseline,
                       build_peak_rss_bytes=common.peak_rss(), artifact=optimized,
                       artifact_bytes=common.file_bytes(optimized))
    if request["options"].get("dump"):
        response.add_dump("ort-optimized-model", optimized)
    output_names = [output.name for output in session.get_outputs()]

    def prepare(inputs):
        feeds = dict(inputs)
        # session.run returns numpy arrays once the work is done: nothing else to wait for.
        return (lambda: session.run(output_names, feeds)), (lambda result: result)

    for index, shape in enumerate(request["shapes"]):
        common.run_shape(np, request, response, VARIANT, shape, prepare,
                         deadline.run_budget(len(request["shapes"]) - index))
    if request["options"].get("profile"):
        profile(request, response, model, optimized)
    else:
        response.doc["kernels_note"] = "profiling was not asked for (options.profile)"


def profile(request, response, model, optimized):
    """Runs the first shape again in a session with ONNX Runtime's profiler on, and reports the
    median of each node's kernel time over those runs."""
    shape = request["shapes"][0]
    prefix = os.path.join(request["work_dir"], "ort-profile")
    session = ort.InferenceSession(model, session_options(request, profile_prefix=prefix),
                                   providers=["CPUExecutionProvider"])
    feeds = dict(common.load_inputs(np, shape["inputs"]))
    for _ in range(max(10, min(int(request["reps"]), 50))):
        session.run(None, feeds)
    trace = session.end_profiling()
    response.add_dump("ort-profile", trace)
    members = fused_members(model, optimized)
    times, op_types = {}, {}
    with open(trace) as stream:
        for event in json.load(stream):
            name = event.get("name", "")
            if event.get("cat") != "Node" or not name.endswith("_kernel_time"):
                continue
            node = name[:-len("_kernel_time")]
            times.setdefault(node, []).append(float(event.get("dur", 0)))
            op_types[node] = event.get("args", {}).get("op_name", "")
    for node, durations in times.items():
        response.add_kernel(VARIANT, shape["name"], f"{node}_kernel_time",
                            statistics.median(durations), members.get(node, [node]),
                            f"ONNX Runtime profiling JSON ({op_types[node]}, median of "
                            f"{len(durations)} runs)")
    for stale in glob.glob(prefix + "*.json"):
        if os.path.abspath(stale) != os.path.abspath(trace):
            os.remove(stale)


def fused_members(model_path, optimized_path):
    """Optimized node name -> the input model's nodes it stands for. ORT's fusions keep the
    names of the tensors at a fused region's edges, so a node's members are the input nodes
    on the paths that end at its outputs and start at its inputs (or at weights and graph
    inputs). A node whose outputs the input model does not have is left to stand for itself."""
    try:
        import onnx
        original = onnx.load(model_path, load_external_data=False).graph
        optimized = onnx.load(optimized_path, load_external_data=False).graph
    except Exception:  # noqa: BLE001  (no onnx, or a graph it cannot read: no mapping)
        return {}
    producer = {out: node for node in original.node for out in node.output}
    original_types = {node.name: node.op_type for node in original.node}
    # Tensors the optimized graph produces elsewhere bound a fused region too, when ORT
    # renamed the region's input.
    produced_elsewhere = {out for node in optimized.node for out in node.output}
    members = {}
    for node in optimized.node:
        if original_types.get(node.name) == node.op_type:
            members[node.name] = [node.name]
            continue
        stop = set(node.input) | (produced_elsewhere - set(node.output))
        found, stack, seen = [], [out for out in node.output if out in producer], set()
        while stack:
            tensor = stack.pop()
            if tensor in stop or tensor in seen or tensor not in producer:
                continue
            seen.add(tensor)
            source = producer[tensor]
            if source.name not in found:
                found.append(source.name)
            stack.extend(source.input)
        if found:
            members[node.name] = found
    return members
