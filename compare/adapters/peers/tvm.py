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
    response.doc["kernels_note"] = (
        "TVM 0.27's Relax VirtualMachine has no per-kernel profiler in its Python API"
        if request["options"].get("profile") else "profiling was not asked for")
    work = request["work_dir"]
    model = request["model"]
    trials = int(request["options"].get("tvm_trials", 64))

    def untuned(shape):
        inputs = common.load_inputs(np, shape["inputs"])
        start = time.perf_counter()
        executable = tvm.compile(import_shape(model, inputs), target=target)
        build_s = time.perf_counter() - start
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
        artifact = export(executable, work, f"tvm-metaschedule.{shape['name']}")
        return common.Built(lambda arrays: vm_call(executable, arrays),
                            child_peak_rss=tuner_peak, build_s=build_s,
                            tuning_s=tuning_s, trials=measured, artifact=artifact,
                            artifact_bytes=common.file_bytes(artifact))

    common.measure_shapes(request, response, "tvm-metaschedule", tuned, deadline)


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
    """The default pipeline's IR after every pass for the first shape, as TVMScript files; a
    build of its own so that dumping does not slow the measured one."""
    shape = request["shapes"][0]
    folder = os.path.join(request["work_dir"], "tvm-dumpir")
    module = import_shape(request["model"], common.load_inputs(np, shape["inputs"]))
    with tvm.transform.PassContext(instruments=[tvm.ir.instrument.DumpIR(folder, True)]):
        tvm.compile(module, target=target)
    response.add_dump("tvm-dumpir", folder)


if __name__ == "__main__" and len(sys.argv) == 6 and sys.argv[1] == "tune":
    # The tuning child of tune_within: MODEL INPUTS TRIALS LOG_DIR.
    load_modules()
    child_target = host_target()
    shape_inputs = common.load_inputs(np, sys.argv[3])
    tune(fuse(import_shape(sys.argv[2], shape_inputs), child_target), child_target,
         int(sys.argv[4]), sys.argv[5])
