"""IREE: per shape, the model at static sizes compiled by iree-compile for llvm-cpu on the host
CPU, and run through the iree.runtime Python API.

ONNX goes through iree-import-onnx after its symbolic dims are fixed to the shape's sizes;
StableHLO text goes to iree-compile as it is. The compiler's tools run as child processes (as
the pip package ships them), so a build's peak memory is theirs.
"""

import os
import re
import sys
import time

import common

INSTALL = "scripts/setup_peers.sh iree"
COMPILE_FLAGS = ["--iree-hal-target-backends=llvm-cpu", "--iree-llvmcpu-target-cpu=host"]

np = None
rt = None
onnx = None


def load(response):
    global np, rt, onnx
    from importlib.metadata import version

    import iree.runtime
    import numpy
    np, rt = numpy, iree.runtime
    versions = response.doc["versions"]
    for package in ("iree-base-compiler", "iree-base-runtime"):
        versions[package] = version(package)
    try:
        import onnx as onnx_module
        onnx = onnx_module
        versions["onnx"] = onnx.__version__
    except ImportError:
        pass  # only ONNX input needs it; the error says so when it comes


def tool(name):
    """A tool of the iree-base-compiler package, beside this Python (the venv's bin)."""
    path = os.path.join(os.path.dirname(sys.executable), name)
    return path if os.path.exists(path) else name


def fix_dims(model_path, inputs, dims, out_path):
    """The ONNX model with every input at its array's shape and every other symbolic dim the
    request names set to its size: iree-import-onnx then produces static tensors."""
    if onnx is None:
        raise ImportError("the onnx package is needed to fix an ONNX model's dims")
    model = onnx.load(model_path)
    arrays = dict(inputs)

    def fix(value_info, sizes=None):
        for index, dim in enumerate(value_info.type.tensor_type.shape.dim):
            size = sizes[index] if sizes is not None else dims.get(dim.dim_param)
            if size is not None and (dim.dim_param or sizes is not None):
                dim.Clear()
                dim.dim_value = int(size)

    for value_info in model.graph.input:
        fix(value_info, arrays[value_info.name].shape if value_info.name in arrays else None)
    for value_info in list(model.graph.output) + list(model.graph.value_info):
        fix(value_info)
    onnx.save(model, out_path)


def parse_unsupported(text):
    # iree-import-onnx runs ONNX's checker first: "No Op registered for Foo with
    # domain_version of 17". An ONNX op that torch-mlir's ONNX conversion could not lower
    # stays a generic `torch.operator "onnx.Foo"`, and iree-compile fails to legalize it.
    ops = re.findall(r"No Op registered for (\w+) with domain_version", text)
    ops += re.findall(r'torch\.operator "onnx\.(\w+)"', text)
    return [{"op": op, "error": text} for op in dict.fromkeys(ops)]


common.register_unsupported_parser(parse_unsupported)


class ToolError(RuntimeError):
    """An IREE tool failed; the text is its stderr."""


def compile_to_vmfb(source, vmfb, input_format, extra_flags=(), stderr_path=None):
    """iree-compile `source` -> `vmfb`; the child's peak resident set in bytes."""
    command = [tool("iree-compile"), source, *COMPILE_FLAGS, *extra_flags, "-o", vmfb]
    if input_format == "stablehlo":
        command.append("--iree-input-type=stablehlo")
    if stderr_path:
        with open(stderr_path, "w") as log:
            status, peak, text = common.run_child(command, stderr=log)
    else:
        status, peak, text = common.run_child(command)
    if status != 0:
        if stderr_path:
            with open(stderr_path) as log:
                text = log.read()[-8000:]
        raise ToolError(f"iree-compile exited with {status}: {text.strip()}")
    return peak


def import_onnx(onnx_path, mlir_path):
    status, peak, text = common.run_child([tool("iree-import-onnx"), onnx_path, "-o",
                                           mlir_path])
    if status != 0:
        raise ToolError(f"iree-import-onnx exited with {status}: {text.strip()}")
    return peak


def measure(request, response, deadline):
    work = request["work_dir"]
    formats = {shape["model_format"] for shape in request["shapes"]}
    response.doc["dynamic_shapes"] = False
    if formats == {"onnx"}:
        response.doc["input_received"] = (
            "the ONNX file, dims fixed per shape (every input at its array's shape, symbolic "
            "dims by the shape's sizes) by rewriting the graph's dim_params, imported by "
            "iree-import-onnx")
    else:
        response.doc["input_received"] = (
            f"the model as {'/'.join(sorted(formats))} per shape, StableHLO text compiled by "
            "iree-compile as given (an ONNX shape's dims fixed and imported by "
            "iree-import-onnx first)")
    response.doc["kernels_note"] = (
        "not collected: IREE's per-dispatch times come from its Tracy-instrumented runtime "
        "(IREE_PY_RUNTIME=tracy) recorded by iree-tracy-capture, which this adapter does not "
        "drive yet" if request["options"].get("profile")
        else "profiling was not asked for")
    threads = int(request["threads"])
    if threads > 1:
        rt.flags.parse_flags(f"--task_topology_max_group_count={threads}")
    # local-task is IREE's multi-threaded CPU driver; with one thread, the synchronous one.
    config = rt.Config("local-sync" if threads == 1 else "local-task")

    def build(shape):
        inputs = common.load_inputs(np, shape["inputs"])
        source, input_format, import_peak = source_for(shape, inputs, work)
        vmfb = os.path.join(work, f"{shape['name']}.vmfb")
        start = time.perf_counter()
        compile_peak = compile_to_vmfb(source, vmfb, input_format)
        build_s = time.perf_counter() - start
        return common.Built(lambda arrays: prepare(config, vmfb, arrays),
                            child_peak_rss=max(import_peak, compile_peak), build_s=build_s,
                            artifact=vmfb, artifact_bytes=common.file_bytes(vmfb))

    common.measure_shapes(request, response, "iree", build, deadline)
    if request["options"].get("dump"):
        dump(request, response)


def source_for(shape, inputs, work):
    """(MLIR path, input format, peak bytes of the import) for one shape."""
    if shape["model_format"] == "onnx":
        fixed = os.path.join(work, f"{shape['name']}.onnx")
        fix_dims(shape["model"], inputs, shape["dims"], fixed)
        mlir = os.path.join(work, f"{shape['name']}.mlir")
        return mlir, "onnx", import_onnx(fixed, mlir)
    if shape["model_format"] == "stablehlo":
        return shape["model"], "stablehlo", 0
    raise ValueError(f"IREE takes onnx or stablehlo here, not {shape['model_format']}")


def entry_function(module):
    """The function to call: `main_graph` (iree-import-onnx), `main` (StableHLO from jax), or
    the one exported function that is not an `$async` twin."""
    names = [name for name in module.function_names if not name.endswith("$async")
             and not name.startswith("__")]
    for preferred in ("main_graph", "main"):
        if preferred in names:
            return preferred
    if len(names) == 1:
        return names[0]
    raise ValueError(f"no entry function among {names}")


def prepare(config, vmfb, inputs):
    """(call, fetch) for run_shape. The synchronous entry returns once its fence is signalled;
    results are copied to host in fetch, outside the timed loop, as for the other peers whose
    results stay in the compiler's buffers."""
    module = rt.VmModule.mmap(config.vm_instance, vmfb)
    context = rt.SystemContext(config=config)
    context.add_vm_module(module)
    function = context.modules[module.name][entry_function(module)]
    arguments = [rt.asdevicearray(config.device, array) for _, array in inputs]

    def call():
        return function(*arguments)

    def fetch(result):
        items = result if isinstance(result, (tuple, list)) else [result]
        return [item.to_host() for item in items]

    return call, fetch


def dump(request, response):
    """The first shape compiled again with IREE's IR printing (every pass, large constants
    elided) and its dispatches' sources written out; apart from the measured build, which
    printing would slow."""
    shape = request["shapes"][0]
    work = request["work_dir"]
    source, input_format, _ = source_for(shape, common.load_inputs(np, shape["inputs"]), work)
    log = os.path.join(work, "iree-ir-after-all.mlir")
    executables = os.path.join(work, "iree-executables")
    compile_to_vmfb(source, os.path.join(work, "dump.vmfb"), input_format,
                    ["--mlir-print-ir-after-all", "--mlir-elide-elementsattrs-if-larger=16",
                     f"--iree-hal-dump-executable-files-to={executables}"], stderr_path=log)
    response.add_dump("mlir-log", log)
    response.add_dump("iree-executables", executables)
