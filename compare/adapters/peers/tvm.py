"""Apache TVM (Relax): the ONNX model imported per shape at static sizes, built two ways.

- `tvm-untuned`: tvm.compile's default pipeline. On CPU it has no schedules (naive loops), so
  its figures are only shown beside the tuned ones.
- `tvm-metaschedule`: relax's static_shape_tuning pipeline (MetaSchedule, options.tvm_trials
  trials, spread over the shape's tuning tasks) and then tvm.compile with the tuned schedules.

Target: LLVM for the host CPU, in the JSON form TVM 0.27 wants.
"""

import json
import math
import os
import signal
import subprocess
import sys
import time

# Run as a script (the tuning child), this file's folder comes first on sys.path, where the
# file would shadow the tvm package; common.py is in the folder above.
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path = [entry for entry in sys.path if os.path.abspath(entry or ".") != HERE]
sys.path.insert(0, os.path.dirname(HERE))

import common  # noqa: E402

INSTALL = "scripts/setup_peers.sh tvm"
# Used to size the trial budget to the time a shape's tuning gets (tune_within enforces the
# time): seconds one MetaSchedule trial takes on an idle 2-core x86-64 (the BERT layer: 259
# trials in 430 s), and the seconds its runner's worker takes to start (90 s on that machine
# while it compiled C++; trials then took 20 s each on the BERT layer, 27 in 531 s).
SECONDS_PER_TRIAL = 2.0
TUNING_START_S = 90
# MetaSchedule's runner limit per candidate, its worker's start included (see tune()).
RUNNER_TIMEOUT_S = 120

tvm = None
relax = None
np = None
onnx = None
from_onnx = None


def load(response):
    from importlib.metadata import PackageNotFoundError, version
    load_modules()
    versions = response.doc["versions"]
    versions["apache-tvm"] = tvm.__version__
    versions["apache-tvm-ffi"] = version("apache-tvm-ffi")
    versions["onnx"] = onnx.__version__
    for optional in ("xgboost", "xgboost-cpu"):  # MetaSchedule's cost model, either wheel
        try:
            versions[optional] = version(optional)
        except PackageNotFoundError:
            pass


def load_modules():
    global tvm, relax, np, onnx, from_onnx
    import numpy
    import onnx as onnx_module
    import tvm as tvm_module
    from tvm import relax as relax_module
    from tvm.relax.frontend.onnx import from_onnx as onnx_importer
    tvm, relax, np, onnx, from_onnx = (tvm_module, relax_module, numpy, onnx_module,
                                       onnx_importer)


def host_target():
    """LLVM for the host CPU. MetaSchedule needs the physical core count in the target."""
    try:
        import psutil
        cores = psutil.cpu_count(logical=False) or os.cpu_count()
    except ImportError:
        cores = os.cpu_count()
    return tvm.target.Target({"kind": "llvm", "mcpu": tvm.target.codegen.llvm_get_system_cpu(),
                              "num-cores": cores})


def import_shape(model_path, inputs):
    """The ONNX model as a Relax module with every input at its array's static shape."""
    model = onnx.load(model_path)
    shapes = {name: list(array.shape) for name, array in inputs}
    dtypes = {name: str(array.dtype) for name, array in inputs}
    return from_onnx(model, shape_dict=shapes, dtype_dict=dtypes)


def parse_unsupported(text):
    # The ONNX frontend: "The following operators are not supported for frontend ONNX: A, B"
    marker = "not supported for frontend ONNX:"
    if marker not in text:
        return []
    names = text.split(marker, 1)[1].splitlines()[0]
    return [{"op": op.strip(), "error": text} for op in names.split(",") if op.strip()]


common.register_unsupported_parser(parse_unsupported)


def vm_call(executable, inputs):
    """(call, fetch) for run_shape: the VM's main on device tensors made once."""
    device = tvm.cpu()
    vm = relax.VirtualMachine(executable, device)
    arguments = [tvm.runtime.tensor(array, device) for _, array in inputs]
    main = vm["main"]

    def call():
        result = main(*arguments)
        device.sync()  # CPU work is done on return; kept so the call means the same on GPUs
        return result

    def fetch(result):
        if isinstance(result, tvm.runtime.Tensor):
            return [result.numpy()]
        return [item.numpy() for item in result]

    return call, fetch


def export(executable, work_dir, name):
    """The built library as a shared object (the artifact); None when the host has no C++
    compiler to link it, which does not affect the measurement."""
    path = os.path.join(work_dir, f"{name}.so")
    try:
        executable.export_library(path)
    except Exception as error:  # noqa: BLE001
        print(f"tvm: export_library failed ({error}); no artifact", file=sys.stderr, flush=True)
        return None
    return path


def measure(request, response, deadline):
    if request.get("model_format", "onnx") != "onnx":
        raise ValueError(f"the TVM adapter takes ONNX models, not {request['model_format']}")
    if request["threads"]:
        # Read when TVM's thread pool starts, at the first parallel kernel.
        os.environ["TVM_NUM_THREADS"] = str(int(request["threads"]))
    target = host_target()
    response.doc["versions"]["llvm mcpu"] = str(target.attrs.get("mcpu", ""))
    response.doc["input_received"] = (
        "the ONNX file, imported per shape by tvm.relax.frontend.onnx.from_onnx with every "
        "input at its array's static shape")
    response.doc["dynamic_shapes"] = False
    work = request["work_dir"]
    first_shape = request["shapes"][0]["name"]
    executables = {}  # variant -> the first shape's executable, for the kernels' times
    model = request["model"]
    trials = int(request["options"].get("tvm_trials", 64))

    def untuned(shape):
        inputs = common.load_inputs(np, shape["inputs"])
        start = time.perf_counter()
        executable = tvm.compile(import_shape(model, inputs), target=target)
        build_s = time.perf_counter() - start
        if shape["name"] == first_shape:
            executables["tvm-untuned"] = executable
        artifact = export(executable, work, f"tvm-untuned.{shape['name']}")
        return common.Built(lambda arrays: vm_call(executable, arrays), build_s=build_s,
                            artifact=artifact, artifact_bytes=common.file_bytes(artifact))

    # The untuned build is quick but its calls are slow (seconds on a big shape): it gets a
    # quarter of the time, tuning the rest.
    common.measure_shapes(request, response, "tvm-untuned", untuned, deadline.share(0.25))
    if request["options"].get("dump"):
        dump_ir(request, response, target)

    shapes_left = [len(request["shapes"])]

    def tuned(shape):
        inputs = common.load_inputs(np, shape["inputs"])
        budget = deadline.left() / shapes_left[0] * 0.7
        shapes_left[0] -= 1
        shape_trials = min(trials, int((budget - TUNING_START_S) / SECONDS_PER_TRIAL))
        if trials < 1:
            raise ValueError("not tuned: options.tvm_trials is 0")
        if shape_trials < 1:
            raise TimeoutError(f"not tuned: {deadline.left():.0f} s of the deadline left, "
                               f"too little for MetaSchedule's start and one trial")
        log_dir = os.path.join(work, f"metaschedule.{shape['name']}")
        start = time.perf_counter()
        finished, tuner_peak = tune_within(model, shape["inputs"], shape_trials, log_dir,
                                           budget)
        tuning_s = time.perf_counter() - start
        measured = measured_trials(log_dir)
        print(f"tvm: {shape['name']}: {measured} of {shape_trials} trials measured in "
              f"{tuning_s:.0f} s{'' if finished else ', stopped at the time limit'}",
              file=sys.stderr, flush=True)
        if measured == 0:
            raise TimeoutError(f"not tuned: no trial measured in {tuning_s:.0f} s")
        with target:
            tuned_module = relax.transform.MetaScheduleApplyDatabase(log_dir)(
                fuse(import_shape(model, inputs), target))
        start = time.perf_counter()
        executable = tvm.compile(tuned_module, target=target)
        build_s = time.perf_counter() - start
        if shape["name"] == first_shape:
            executables["tvm-metaschedule"] = executable
        artifact = export(executable, work, f"tvm-metaschedule.{shape['name']}")
        return common.Built(lambda arrays: vm_call(executable, arrays),
                            child_peak_rss=tuner_peak, build_s=build_s,
                            tuning_s=tuning_s, trials=measured, artifact=artifact,
                            artifact_bytes=common.file_bytes(artifact))

    common.measure_shapes(request, response, "tvm-metaschedule", tuned, deadline)
    if not request["options"].get("profile"):
        response.doc["kernels_note"] = "profiling was not asked for"
    elif not executables:
        response.doc["kernels_note"] = "the first shape did not build"
    else:
        try:
            profile_kernels(request, response, executables, target)
        except Exception as error:  # noqa: BLE001  (TVM raises many types)
            response.doc["kernels"] = []
            response.doc["kernels_note"] = f"the kernels were not profiled: {common.error_text(error)}"


def import_named(model_path, inputs):
    """import_shape, with each ONNX node's result bound to a variable named after the node
    (`onnx:<node>`, made an identifier). The frontend builds nested expressions that its
    normalizer binds to variables named `lv`; binding each node's result as it is converted
    gives the same program with names that FuseOps keeps inside the functions it makes."""
    from tvm.relax.frontend.onnx import onnx_frontend

    importer = onnx_frontend.ONNXGraphImporter
    convert = importer._convert_operator

    def named(self, op_name, node_inputs, attrs, opset):
        # _convert_operator's steps, with the naming between the conversion and the
        # normalization (which would bind a tuple's calls to `lv`).
        converters = onnx_frontend._get_convert_map()
        node = attrs.get("tvm_custom", {}).get("name")
        if op_name not in converters or not node:
            return convert(self, op_name, node_inputs, attrs, opset)
        result = converters[op_name].get_converter(opset)(self.bb, node_inputs, attrs,
                                                           [self._nodes, self._params])
        name = NODE_PREFIX + identifier(node)

        def bind(expr):
            # Innermost first, so that the node's every call (a Conv's bias add, a Gemm's
            # matmul, a LayerNormalization's tuple) is bound under its name.
            if isinstance(expr, relax.Call):
                call = relax.Call(expr.op, [bind(arg) for arg in expr.args], expr.attrs,
                                  expr.ty_args, expr.span)
                return self.bb.emit(call, name_hint=name)
            if isinstance(expr, relax.Tuple):
                return relax.Tuple([bind(field) for field in expr.fields])
            if isinstance(expr, relax.TupleGetItem):  # BatchNormalization's output 0
                return relax.TupleGetItem(bind(expr.tuple_value), expr.index)
            return expr

        result = bind(result)
        return self.bb.normalize(result) if isinstance(result, relax.Expr) else result

    importer._convert_operator = named
    try:
        return import_shape(model_path, inputs)
    finally:
        importer._convert_operator = convert


NODE_PREFIX = "onnx_"


def identifier(name):
    return "".join(c if c.isalnum() or c == "_" else "_" for c in name)


def var_name(var):
    return str(var.name_hint) if hasattr(var, "name_hint") else str(var)


def bindings(function):
    return [binding for block in function.body.blocks for binding in block.bindings]


def kernel_ops(model_path, inputs, nodes, target, output_nodes=()):
    """Kernel (PrimFunc) name -> the ONNX nodes it computes, from the named import fused as the
    measured builds fuse it (fuse(): the names of FuseOps' functions are the names of the
    kernels FuseTIR makes of them). Inside a fused function each binding keeps its node's
    name except the output's, which FuseOps names `gv`: the output is the node of the module
    before fusion that no fused function names and that takes a value the function computes.
    A kernel left alone keeps its binding in main.

    Returns (fused, unfused): the kernels of fuse()'s module (MetaSchedule's build) and those
    of the module before FuseOps, which is what TVM 0.27's default CPU pipeline runs (it calls
    one legalized PrimFunc per op). `output_nodes`: the nodes that make the graph's outputs, in
    its output order; CanonicalizeBindings gives their bindings main's output names."""
    by_identifier = {NODE_PREFIX + identifier(node): node for node in nodes}
    with target:
        before = tvm.transform.Sequential([
            relax.transform.DecomposeOpsForInference(),
            relax.transform.CanonicalizeBindings(),
            relax.transform.LegalizeOps(),
            relax.transform.AnnotateTIROpPattern(),
            relax.transform.FoldConstant(),
        ])(import_named(model_path, inputs))
        fused = relax.transform.FuseOps()(before)
    returned = before["main"].body.body
    returned = returned.fields if isinstance(returned, relax.Tuple) else [returned]

    def node_of(var):
        for output, node in zip(returned, output_nodes):
            if node and var.same_as(output):
                return node
        return by_identifier.get(var_name(var))

    unfused, before_main = {}, {}  # PrimFunc -> nodes; node -> its calls before fusion
    for binding in bindings(before["main"]):
        node = node_of(binding.var)
        value = binding.value
        if node and isinstance(value, relax.Call) and value.args and isinstance(
                value.args[0], tvm.ir.GlobalVar):
            unfused.setdefault(value.args[0].name_hint, []).append(node)
            before_main.setdefault(node, []).append(value)

    def callee(value):
        return (value.args[0].name_hint if isinstance(value, relax.Call) and value.args and
                isinstance(value.args[0], tvm.ir.GlobalVar) else None)

    def named_arguments(node):
        """The names of the values the node's calls take (call_tir(kernel, (arguments...))
        after LegalizeOps)."""
        names = set()
        for value in before_main.get(node, []):
            arguments = (value.args[1].fields if len(value.args) > 1 and isinstance(
                value.args[1], relax.Tuple) else value.args)
            names |= {var_name(arg) for arg in arguments if isinstance(arg, relax.Var)}
        return names

    sites = {}
    for binding in bindings(fused["main"]):
        value = binding.value
        if isinstance(value, relax.Call) and isinstance(value.op, tvm.ir.GlobalVar):
            sites[value.op.name_hint] = sites.get(value.op.name_hint, 0) + 1
    functions = sorted((gv.name_hint, fused[gv]) for gv in fused.get_global_vars()
                       if isinstance(fused[gv], relax.Function) and gv.name_hint != "main")
    holds, placed = {}, set()
    # The first instance of each fused function: its body's names, and its output's node.
    for name, function in functions:
        body = bindings(function)
        inner = [var_name(b.var) for b in body]
        ops = [by_identifier[v] for v in inner if v in by_identifier]
        if var_name(body[-1].var) not in by_identifier:
            # The output's node: one calling the same PrimFunc before fusion on a value this
            # function computes (or the only one calling it).
            candidates = [node for node in unfused.get(callee(body[-1].value), [])
                          if node not in placed and node not in ops]
            linked = [node for node in candidates if named_arguments(node) & set(inner)]
            chosen = linked or (candidates if len(candidates) == 1 else [])
            if chosen:
                ops.append(chosen[0])
        holds[name] = ops
        placed.update(ops)
    # FuseOps makes one function of equal groups (the Q, K and V projections): each further
    # call site's group is found by the function's chain of PrimFuncs among the nodes no
    # function holds yet, its first node first in program order, each next one taking a value
    # of the nodes found so far.
    for name, function in functions:
        chain = [callee(b.value) for b in bindings(function)]
        for _ in range(sites.get(name, 1) - 1):
            found = []
            for step, kernel in enumerate(chain):
                candidates = [node for node in unfused.get(kernel, []) if node not in placed]
                if step:
                    known = {NODE_PREFIX + identifier(node) for node in found}
                    candidates = [node for node in candidates if named_arguments(node) & known]
                if candidates:
                    found.append(candidates[0])
                    placed.add(candidates[0])
                elif not step:
                    break
            holds[name] += [node for node in found if node not in holds[name]]
    # A kernel FuseOps left alone is called from main as it was.
    for binding in bindings(fused["main"]):
        kernel = callee(binding.value)
        if kernel in unfused and kernel not in holds:
            holds[kernel] = [node for node in unfused[kernel] if node not in placed]
    return holds, unfused


def output_makers(graph):
    """The node that computes each graph output, in output order: an Identity (which the
    frontend makes no call of) stands for the node before it."""
    makers = {output: node for node in graph.node for output in node.output}
    found = []
    for output in graph.output:
        node, seen = makers.get(output.name), set()
        while node is not None and node.op_type == "Identity" and node.name not in seen:
            seen.add(node.name)
            node = makers.get(node.input[0]) if node.input else None
        found.append(node.name if node is not None else None)
    return found


def profile_kernels(request, response, executables, target):
    """Each kernel of the first shape's builds with its median time over calls of the model,
    timed by the Relax VM's instrument hook, which the VM calls before and after each call it
    makes (TVM 0.27's VM has no profiler of its own in the Python API). The hook's own return
    and call are inside each interval, about a microsecond here."""
    shape = request["shapes"][0]
    inputs = common.load_inputs(np, shape["inputs"])
    graph = onnx.load(request["model"], load_external_data=False).graph
    nodes = [node.name for node in graph.node if node.name]
    fused, unfused = kernel_ops(request["model"], inputs, nodes, target, output_makers(graph))
    device = tvm.cpu()
    for variant, executable in executables.items():
        holds = unfused if variant == "tvm-untuned" else fused
        vm = relax.VirtualMachine(executable, device)
        arguments = [tvm.runtime.tensor(array, device) for _, array in inputs]
        main = vm["main"]
        main(*arguments)  # warm-up, untimed
        times, started = {}, {}

        def hook(func, symbol, before_run, ret_value, *args):
            now = time.perf_counter_ns()
            symbol = str(symbol)
            if symbol in holds:
                if before_run:
                    started[symbol] = now
                elif symbol in started:
                    times.setdefault(symbol, []).append((now - started.pop(symbol)) / 1000.0)
            return 0  # VMInstrumentReturnKind.NO_OP

        vm.set_instrument(hook)
        calls = 0
        budget_end = time.monotonic() + 60
        while calls < max(10, min(int(request["reps"]), 50)) and (
                calls < 3 or time.monotonic() < budget_end):
            main(*arguments)
            calls += 1
        for name, durations in times.items():
            durations.sort()
            response.add_kernel(variant, shape["name"], name, durations[len(durations) // 2],
                                holds[name], f"Relax VM instrument hook (median of "
                                f"{len(durations)} calls over {calls} runs)")


def in_process_builder():
    """A MetaSchedule builder that compiles candidates in the tuning process. The stock LocalBuilder
    starts a fresh pool of worker processes for every batch, and each worker imports TVM and
    all its tensor intrinsics first: 111 s for one trivial candidate here (0.07 s in-process)
    on a machine busy compiling C++, which timed out every candidate. Compiling here costs
    the isolation from a crashing candidate, which LLVM codegen of a valid schedule does not
    need."""
    from tvm.ir.utils import derived_object
    from tvm.s_tir.meta_schedule.builder import BuilderResult, PyBuilder
    from tvm.s_tir.meta_schedule.builder.local_builder import default_build, default_export

    @derived_object
    class InProcessBuilder(PyBuilder):
        def build(self, build_inputs):
            results = []
            for item in build_inputs:
                try:
                    path = default_export(default_build(item.mod, item.target, None))
                    results.append(BuilderResult(path, None))
                except Exception as error:  # noqa: BLE001  (a candidate that fails to build)
                    results.append(BuilderResult(None, common.error_text(error)))
            return results

    return InProcessBuilder()


def fuse(module, target):
    """The module as static_shape_tuning's pipeline has it before tuning: legalized and fused,
    one PrimFunc per kernel to tune."""
    with target:
        return tvm.transform.Sequential([
            relax.transform.DecomposeOpsForInference(),
            relax.transform.CanonicalizeBindings(),
            relax.pipeline.zero_pipeline(),
        ])(module)


def tune(fused, target, trials, log_dir):
    """relax's static_shape_tuning tuning step, written out to use the in-process builder and
    a runner time limit that survives a busy machine (its worker imports TVM once, 14 s here).
    The trials are spread over the tuning tasks (the kernels left after fusion) so that a
    small budget does not all go to the first few."""
    from tvm.s_tir import meta_schedule as ms
    tasks = sum(1 for _, function in fused.functions_items()
                if isinstance(function, tvm.tirx.PrimFunc))
    ms.relax_integration.tune_relax(
        fused, params={}, target=target, work_dir=log_dir, max_trials_global=trials,
        max_trials_per_task=max(1, math.ceil(trials / max(tasks, 1))),
        builder=in_process_builder(),
        runner=ms.runner.LocalRunner(timeout_sec=RUNNER_TIMEOUT_S))


def tune_within(model, inputs_path, trials, log_dir, seconds):
    """Tunes in a child process (this file run as a script) and kills it, with its runner
    worker, after `seconds`: MetaSchedule has no time limit of its own, and its evolutionary
    search costs about a minute per kernel and round on the BERT layer here whatever the
    trial count, so a budget in trials alone overran the deadline. What it measured until
    then is in its JSON database, which the caller applies. Returns (finished, the child's
    peak resident set in bytes)."""
    child = subprocess.Popen([sys.executable, os.path.abspath(__file__), "tune", model,
                              inputs_path, str(trials), log_dir],
                             stdout=sys.stderr, stderr=sys.stderr, start_new_session=True)
    end = time.monotonic() + seconds
    finished = True
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > end:
            os.killpg(child.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(child.pid, 0)
            finished = False
            break
        time.sleep(0.5)
    child.returncode = os.waitstatus_to_exitcode(status)
    if finished and child.returncode != 0:
        raise RuntimeError(f"MetaSchedule tuning exited with {child.returncode} (its log is "
                           "on stderr)")
    drop_partial_records(log_dir)
    return finished, usage.ru_maxrss * 1024


def drop_partial_records(log_dir):
    """A tuner killed while writing leaves a partial last line in its JSON database, which
    would make the database unreadable: keep the complete records only."""
    for name in ("database_tuning_record.json", "database_workload.json"):
        path = os.path.join(log_dir, name)
        if not os.path.exists(path):
            continue
        with open(path) as records:
            lines = records.readlines()
        complete = [line for line in lines if is_json(line)]
        if len(complete) != len(lines):
            with open(path, "w") as records:
                records.writelines(line if line.endswith("\n") else line + "\n"
                                   for line in complete)


def is_json(line):
    try:
        json.loads(line)
        return True
    except ValueError:
        return False


def measured_trials(log_dir):
    """The candidates MetaSchedule measured: one line each in its JSON database (fewer than
    the budget when a task's search space ran out)."""
    try:
        with open(os.path.join(log_dir, "database_tuning_record.json")) as records:
            return sum(1 for line in records if line.strip())
    except OSError:
        return 0


def dump_ir(request, response, target):
    """The IR after every pass of the MetaSchedule build's pipeline for the first shape, as
    TVMScript files: fuse() (legalization, FuseOps, FuseTIR) and then tvm.compile, without
    the tuning database (the default CPU pipeline alone fuses nothing). A build of its own so
    that dumping does not slow the measured ones."""
    shape = request["shapes"][0]
    folder = os.path.join(request["work_dir"], "tvm-dumpir")
    module = import_shape(request["model"], common.load_inputs(np, shape["inputs"]))
    with tvm.transform.PassContext(instruments=[tvm.ir.instrument.DumpIR(folder, True)]):
        tvm.compile(fuse(module, target), target=target)
    response.add_dump("tvm-dumpir", folder)


if __name__ == "__main__" and len(sys.argv) == 6 and sys.argv[1] == "tune":
    # The tuning child of tune_within: MODEL INPUTS TRIALS LOG_DIR.
    load_modules()
    child_target = host_target()
    shape_inputs = common.load_inputs(np, sys.argv[3])
    tune(fuse(import_shape(sys.argv[2], shape_inputs), child_target), child_target,
         int(sys.argv[4]), sys.argv[5])
