"""IREE: per shape, the model at static sizes compiled by iree-compile for llvm-cpu on the host
CPU, and run through the iree.runtime Python API.

ONNX goes through iree-import-onnx after its symbolic dims are fixed to the shape's sizes;
StableHLO text goes to iree-compile as it is. The compiler's tools run as child processes (as
the pip package ships them), so a build's peak memory is theirs.
"""

import json
import os
import re
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import common  # noqa: E402  (found through the path above when run as a script)

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
    if not request["options"].get("profile"):
        response.doc["kernels_note"] = "profiling was not asked for"
        return
    try:
        profile(request, response, deadline)
    except (ToolError, OSError, ValueError, subprocess.SubprocessError) as error:
        response.doc["kernels"] = [k for k in response.doc["kernels"] if k["variant"] != "iree"]
        response.doc["kernels_note"] = f"IREE's profiler did not run: {common.error_text(error)}"


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


def profile(request, response, deadline):
    """Each dispatch of the first shape with the model's ops it holds and its time, from IREE's
    own HAL profiler.

    The model is imported again with each op located at its ONNX node's name (the importer
    names them; its command-line tool prints no locations) and compiled to IREE's flow level
    with locations printed, before and after IREE merges identical executables: one executable
    may then serve several dispatch sites (the Q, K and V projections of an attention layer),
    and it holds the ops of each. iree-benchmark-module calls the entry function of the same
    source compiled whole with the profiler recording each dispatch's host execution
    (--device_profiling_mode=host-execution, what IREE's CPU drivers record), and iree-profile
    lists the events; a kernel's time is the median of its dispatches over the calls."""
    shape = request["shapes"][0]
    work = os.path.join(request["work_dir"], "iree-profile")
    os.makedirs(work, exist_ok=True)
    inputs = common.load_inputs(np, shape["inputs"])
    if shape["model_format"] == "onnx":
        fixed = os.path.join(work, "model.onnx")
        fix_dims(shape["model"], inputs, shape["dims"], fixed)
        source, input_format = os.path.join(work, "located.mlir"), "onnx"
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "--import-located",
                               fixed, source], stdout=sys.stderr, stderr=subprocess.PIPE,
                              text=True, timeout=max(30.0, deadline.left() / 4))
        if done.returncode != 0:
            raise ToolError(f"the located import exited with {done.returncode}: "
                            f"{done.stderr.strip()[-4000:]}")
    else:
        source, input_format = shape["model"], shape["model_format"]
    flow = os.path.join(work, "flow.mlir")
    before_merge = os.path.join(work, "flow-before-merge.mlir")
    compile_to_vmfb(source, flow, input_format,
                    ["--compile-to=flow", "--mlir-print-debuginfo",
                     "--mlir-elide-elementsattrs-if-larger=16",
                     "--mlir-elide-resource-strings-if-larger=16",
                     "--mlir-print-ir-before=iree-flow-deduplicate-executables"],
                    stderr_path=before_merge)
    with open(flow) as after, open(before_merge) as before:
        holds = dispatch_ops(before.read(), after.read())
    vmfb = os.path.join(work, "located.vmfb")
    compile_to_vmfb(source, vmfb, input_format)
    module = rt.VmModule.mmap(rt.Config("local-sync").vm_instance, vmfb)
    command = [tool("iree-benchmark-module"), f"--module={vmfb}",
               f"--function={entry_function(module)}"]
    threads = int(request["threads"])
    command.append("--device=local-sync" if threads == 1 else "--device=local-task")
    if threads > 1:
        command.append(f"--task_topology_max_group_count={threads}")
    for index, (_, array) in enumerate(inputs):
        path = os.path.join(work, f"input{index}.npy")
        np.save(path, array)
        command.append(f"--input=@{path}")
    calls = max(10, min(int(request["reps"]), 50))
    bundle = os.path.join(work, "dispatches.ireeprof")
    command += ["--device_profiling_mode=host-execution,executable-metadata",
                f"--device_profiling_output={bundle}", "--benchmark_repetitions=1",
                f"--benchmark_min_time={calls}x"]
    status, _, text = common.run_child(command)
    if status != 0:
        raise ToolError(f"iree-benchmark-module exited with {status}: {text.strip()[-4000:]}")
    done = subprocess.run([tool("iree-profile"), "dispatch", "--dispatch_events",
                           "--format=jsonl", bundle], capture_output=True, text=True,
                          timeout=300)
    if done.returncode != 0:
        raise ToolError(f"iree-profile exited with {done.returncode}: {done.stderr.strip()}")
    times = dispatch_times(done.stdout)
    if not times:
        raise ToolError("the profile holds no dispatch event")
    for name, durations in sorted(times.items(), key=lambda item: dispatch_order(item[0])):
        sites, ops = ops_of_function(name, holds)
        response.add_kernel("iree", shape["name"], name, statistics.median(durations), ops,
                            f"IREE HAL profiler, host execution (median of {len(durations)} "
                            f"dispatches over {calls} calls; {sites} dispatch site(s))")
    response.add_dump("iree-profile", bundle)


def dispatch_times(jsonl):
    """Dispatch function name -> its durations in microseconds, from `iree-profile dispatch
    --dispatch_events --format=jsonl`."""
    times = {}
    for line in jsonl.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("type") in ("host_dispatch_event", "dispatch_event") and event.get("valid"):
            times.setdefault(event["key"], []).append(float(event["duration_ns"]) / 1000.0)
    return times


def dispatch_order(name):
    found = re.search(r"_dispatch_(\d+)", name)
    return (int(found.group(1)) if found else 1 << 30, name)


# A line of an executable's body whose location says what the dispatch computes: a compute
# op, or the closing line of one with a region (`} -> tensor<...> loc(...)`). Constants and
# tensor.empty/linalg.fill (which CSE shares between ops before dispatches form, keeping one
# op's location), the interface's loads and stores, index arithmetic and block arguments
# (located at their producers, which may be in another dispatch) are left out.
_COMPUTE_LINE = re.compile(
    r"^\s*(?:%[^=]*=\s*)?\"?(linalg|iree_linalg_ext|tensor|math|arith)\.(\w+)|^\s*\}\s*->")
_NOT_COMPUTE = {("arith", "constant"), ("tensor", "empty"), ("linalg", "fill"),
                ("arith", "index_cast"), ("arith", "index_castui")}
_LOC_ALIAS = re.compile(r"^(#loc\d*)\s*=\s*(loc\(.*\))\s*$")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"(:\d+:\d+)?')
_EXECUTABLE = re.compile(r"^\s*flow\.executable\s+(?:private\s+|public\s+)?@([^\s{]+)")
_SITE = re.compile(r"flow\.dispatch\s+@([^:\s]+)::@([^(\s]+)")


def located_names(text, aliases):
    """The op names in one printed location: name locations' strings (a fused location's
    each), aliases (#locN) resolved; file:line:column locations and a call site's frames (jax
    locates each op at its name inside callsite(function(...) at caller(...)), whose
    functions are no ops) left out."""
    names = []
    for alias in re.findall(r"#loc\d*", text):
        names += [name for name in aliases.get(alias, []) if name not in names]
    for found in _QUOTED.finditer(text):
        name, file_position = found.group(1), found.group(2)
        before = text[:found.start()].rstrip()
        if file_position or before.endswith("callsite(") or before.endswith(" at"):
            continue
        if name not in names:
            names.append(name)
    return names


def parse_flow(text):
    """(dispatch sites in order as (executable, function, names at the site), executable ->
    names its compute ops are located at) of a module printed at IREE's flow level."""
    lines = text.splitlines()
    aliases = {}
    for line in lines:
        found = _LOC_ALIAS.match(line)
        if found:
            aliases[found.group(1)] = located_names(found.group(2), aliases)
    sites, bodies, executable = [], {}, None
    for line in lines:
        found = _EXECUTABLE.match(line)
        if found:
            executable = found.group(1)
            bodies[executable] = []
            continue
        if re.match(r"^\s*(util|func)\.func\b", line) and executable and not line.startswith(
                "      "):
            executable = None  # the host functions after the executables
        at = line.rfind(" loc(")
        site = _SITE.search(line)
        if site:
            sites.append((site.group(1), site.group(2),
                          located_names(line[at:], aliases) if at >= 0 else []))
            continue
        compute = _COMPUTE_LINE.match(line)
        if executable is None or at < 0 or not compute or (
                compute.group(1) and (compute.group(1), compute.group(2)) in _NOT_COMPUTE):
            continue
        for name in located_names(line[at:], aliases):
            if name not in bodies[executable]:
                bodies[executable].append(name)
    return sites, bodies


def dispatch_ops(before_merge, after_merge):
    """Dispatch function -> (its dispatch sites, the ops it holds) from the flow-level module
    before and after IREE merges identical executables. The merge only redirects sites, so the
    n-th site before is the n-th after: each executable holds the ops of every one it absorbed
    and the ops its sites are located at. Without the module before the merge (a version whose
    pass has another name), the executables' own bodies."""
    before_sites, before_bodies = parse_flow(before_merge)
    after_sites, after_bodies = parse_flow(after_merge)
    merged = len(before_sites) == len(after_sites) and all(
        b[1].split("_dispatch_")[0] == a[1].split("_dispatch_")[0]
        for b, a in zip(before_sites, after_sites))
    holds = {}
    for index, (executable, function, names) in enumerate(after_sites):
        sites, ops = holds.setdefault(function, [0, []])
        holds[function][0] = sites + 1
        body = (before_bodies.get(before_sites[index][0], []) if merged
                else after_bodies.get(executable, []))
        for name in names + body:
            if name not in ops:
                ops.append(name)
    return holds


def ops_of_function(function, holds):
    """(dispatch sites, ops) of a profiled dispatch function: by its name, else by the longest
    flow-level function name it extends (a later stage may add a suffix)."""
    if function in holds:
        return holds[function]
    best = None
    for name in holds:
        if function.startswith(name) and (best is None or len(name) > len(best)):
            best = name
    return holds[best] if best is not None else (0, [])


def import_located(onnx_path, mlir_path):
    """iree-import-onnx's import with each op's location printed: its command-line tool names
    every op's location after its ONNX node but prints the module without them."""
    import onnx as onnx_module
    from iree.compiler.extras import onnx_importer
    from iree.compiler.ir import Context

    model = onnx_module.shape_inference.infer_shapes(onnx_module.load(onnx_path))
    info = onnx_importer.ModelInfo(model)
    module = info.create_module(context=Context()).operation
    onnx_importer.NodeImporter.define_function(info.main_graph, module).import_all()
    module.verify()
    with open(mlir_path, "w") as stream:
        stream.write(module.get_asm(assume_verified=True, enable_debug_info=True))


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "--import-located":
    # Run as a script, this file's folder comes first on the path, where `iree` is this file.
    HERE = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or ".") != HERE]
    import_located(sys.argv[2], sys.argv[3])
