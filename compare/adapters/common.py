"""What every peer adapter shares: the request, the timing loop, memory, npz files, the answer.

The protocol is compare/adapters/README.md. Nothing here imports a compiler or numpy at module
level: an adapter must be able to answer `available: false` in a Python that has neither.
"""

import json
import os
import platform
import subprocess
import sys
import time

PROTOCOL = 1


class Unavailable(Exception):
    """The compiler is installed but cannot run on this machine; the text says why."""


class RequestError(Exception):
    """The request breaks the protocol; the adapter answers with this as its error."""


# --- the request -------------------------------------------------------------------------------

def read_request(stream):
    """The request from `stream`, checked for what every adapter relies on."""
    try:
        request = json.load(stream)
    except json.JSONDecodeError as error:
        raise RequestError(f"the request is no JSON document: {error}") from None
    if not isinstance(request, dict):
        raise RequestError("the request is not a JSON object")
    if request.get("protocol") != PROTOCOL:
        raise RequestError(f"protocol {request.get('protocol')!r}, expected {PROTOCOL}")
    for key in ("compiler", "work_dir"):
        if not isinstance(request.get(key), str) or not request[key]:
            raise RequestError(f"{key}: a non-empty string is needed")
    shapes = request.get("shapes")
    if not isinstance(shapes, list) or not shapes:
        raise RequestError("shapes: at least one shape is needed")
    for index, shape in enumerate(shapes):
        where = f"shapes[{index}]"
        if not isinstance(shape, dict) or not isinstance(shape.get("name"), str):
            raise RequestError(f"{where}: an object with a name is needed")
        if not isinstance(shape.get("inputs"), str):
            raise RequestError(f"{where}.inputs: the path of an .npz is needed")
        dims = shape.setdefault("dims", {})
        if not isinstance(dims, dict) or not all(isinstance(v, int) for v in dims.values()):
            raise RequestError(f"{where}.dims: an object of integer sizes is needed")
        if not shape.get("model"):
            if not isinstance(request.get("model"), str):
                raise RequestError(f"{where}: no model of its own and no top-level model")
            shape["model"] = request["model"]
            shape["model_format"] = request.get("model_format", "onnx")
        shape.setdefault("model_format", request.get("model_format", "onnx"))
    for key, default in (("reps", 100), ("warmup", 10), ("threads", 0), ("deadline_s", 600)):
        value = request.setdefault(key, default)
        if not isinstance(value, (int, float)) or value < 0:
            raise RequestError(f"{key}: a non-negative number is needed")
    request["options"] = request.get("options") or {}
    os.makedirs(request["work_dir"], exist_ok=True)
    return request


class Deadline:
    """The time left of the request's deadline_s, counted from the adapter's start (the harness
    starts its clock a little earlier, hence the margin)."""

    MARGIN_S = 10

    def __init__(self, seconds):
        self.end = time.monotonic() + seconds - self.MARGIN_S

    def left(self):
        return self.end - time.monotonic()

    def share(self, fraction):
        """A deadline `fraction` of the time left from now, for one part of the work."""
        part = Deadline(0)
        part.end = time.monotonic() + fraction * max(self.left(), 0)
        return part

    def run_budget(self, shapes_left):
        """Seconds the timed calls of one shape may take, leaving the other shapes as much."""
        return max(self.left(), 0) / max(shapes_left, 1) * 0.8


# --- memory ------------------------------------------------------------------------------------

def _status_bytes(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return None


def rss():
    """The resident set now, in bytes."""
    return _status_bytes("VmRSS")


def peak_rss():
    """The resident-set high-water (VmHWM) since the start or the last reset_peak_rss()."""
    return _status_bytes("VmHWM")


def reset_peak_rss():
    """Sets VmHWM back to the current resident set, so that the next peak is the next phase's
    own. Writing 5 to clear_refs does that since Linux 4.0."""
    with open("/proc/self/clear_refs", "w") as clear_refs:
        clear_refs.write("5")


def run_child(command, stderr=None):
    """Runs a compiler's own tool to completion: (exit status, its peak resident set in bytes,
    its stderr text unless `stderr` is a file to write it to). Builds that happen in a child
    (iree-compile) are charged their child's peak, which VmHWM of this process cannot see."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                               stderr=stderr if stderr is not None else subprocess.PIPE,
                               text=True)
    text = process.stderr.read() if stderr is None else ""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, usage.ru_maxrss * 1024, text


# --- timing ------------------------------------------------------------------------------------

def time_calls(call, warmup, reps, budget_s=float("inf")):
    """`warmup` untimed calls, then `reps` timed ones; microseconds each. `call` must return
    only once the work is done (the adapter synchronises inside it). Stops early, with fewer
    times than `reps`, once `budget_s` is spent: an untuned build can take seconds a call, and
    an answer with fewer calls beats being killed at the deadline with none."""
    end = time.monotonic() + budget_s
    for _ in range(int(warmup)):
        call()
        if time.monotonic() > end:
            break
    times = []
    for _ in range(int(reps)):
        start = time.perf_counter_ns()
        call()
        times.append((time.perf_counter_ns() - start) / 1000.0)
        if time.monotonic() > end:
            break
    return times


# --- arrays ------------------------------------------------------------------------------------

def load_inputs(np, path):
    """The inputs of one shape as (name, array) in the model's input order (the .npz's)."""
    with np.load(path, allow_pickle=False) as npz:
        return [(name, npz[name]) for name in npz.files]


def save_outputs(np, path, arrays):
    """The outputs as arr_0, arr_1, ... in the model's output order, uncompressed."""
    np.savez(path, *[np.asarray(array) for array in arrays])
    return path


# --- the answer --------------------------------------------------------------------------------

def base_versions():
    versions = {"python": platform.python_version()}
    try:
        import numpy
        versions["numpy"] = numpy.__version__
    except ImportError:
        pass
    return versions


class Response:
    """The answer, assembled as the adapter goes; `document()` is what goes to stdout."""

    def __init__(self, compiler, install):
        self.doc = {
            "protocol": PROTOCOL, "compiler": compiler, "available": True,
            "install": install, "versions": base_versions(), "input_received": "",
            "dynamic_shapes": False, "builds": [], "runs": [], "kernels": [],
            "kernels_note": "", "dumps": [], "error": None,
        }

    def unavailable(self, error):
        self.doc["available"] = False
        self.doc["error"] = error

    def add_build(self, variant, shapes, **fields):
        build = {"variant": variant, "shapes": list(shapes), "build_s": None, "tuning_s": 0,
                 "trials": 0, "baseline_rss_bytes": None, "build_peak_rss_bytes": None,
                 "artifact_bytes": None, "artifact": None, "error": None,
                 "unsupported_ops": []}
        build.update(fields)
        self.doc["builds"].append(build)
        return build

    def add_run(self, variant, shape, **fields):
        run = {"variant": variant, "shape": shape, "times_us": [], "run_peak_rss_bytes": None,
               "outputs": None, "error": None}
        run.update(fields)
        self.doc["runs"].append(run)
        return run

    def add_kernel(self, variant, shape, name, time_us, ops, source):
        """`time_us` None: the compiler's profiler gave no time for this kernel (the key is
        left out)."""
        kernel = {"variant": variant, "shape": shape, "name": name, "ops": list(ops),
                  "source": source}
        if time_us is not None:
            kernel["time_us"] = time_us
        self.doc["kernels"].append(kernel)

    def add_dump(self, kind, path):
        self.doc["dumps"].append({"kind": kind, "path": os.path.abspath(path)})

    def document(self):
        return json.dumps(self.doc, indent=1) + "\n"


def error_text(error):
    """A compiler's exception as the text it gave (several compilers put the useful part last,
    after a C++ backtrace); at most 4000 characters, the end kept."""
    text = str(error).strip() or type(error).__name__
    if not text.startswith(type(error).__name__):
        text = f"{type(error).__name__}: {text}"
    return text if len(text) <= 4000 else "..." + text[-4000:]


def file_bytes(path):
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def measure_shapes(request, response, variant, build_shape, deadline):
    """Builds and runs each shape on its own (a compiler without dynamic shapes). `build_shape`
    (shape) returns a `Built` or raises; its exceptions become the build's error. A shape that
    could not fit in the time left is answered as not run, so the answer still arrives."""
    import numpy as np
    slowest = 0.0
    for index, shape in enumerate(request["shapes"]):
        started = time.monotonic()
        if deadline.left() < 2 * slowest:
            note = (f"not run: {deadline.left():.0f} s of the deadline left, the previous shape "
                    f"took {slowest:.0f} s")
            response.add_build(variant, [shape["name"]], error=note)
            response.add_run(variant, shape["name"], error=note)
            continue
        baseline = rss()
        reset_peak_rss()
        try:
            built = build_shape(shape)
        except Exception as error:  # noqa: BLE001  (compilers raise many types)
            response.add_build(variant, [shape["name"]], baseline_rss_bytes=baseline,
                               error=error_text(error), unsupported_ops=unsupported_ops(error))
            response.add_run(variant, shape["name"], error="not run: the build failed")
            continue
        response.add_build(variant, [shape["name"]], baseline_rss_bytes=baseline,
                           build_peak_rss_bytes=max(peak_rss(), built.child_peak_rss),
                           **built.fields)
        run_shape(np, request, response, variant, shape, built.prepare,
                  deadline.run_budget(len(request["shapes"]) - index))
        slowest = max(slowest, time.monotonic() - started)


class Built:
    """One build's outcome: `prepare` as run_shape takes it; `fields` the build's figures for
    the answer (build_s, tuning_s, trials, artifact, artifact_bytes); `child_peak_rss` the
    peak of a child process that did the build, when one did."""

    def __init__(self, prepare, child_peak_rss=0, **fields):
        self.prepare = prepare
        self.child_peak_rss = child_peak_rss
        self.fields = fields


def run_shape(np, request, response, variant, shape, prepare, budget_s=float("inf")):
    """Times one shape: `prepare(inputs)` returns (call, fetch): `call()` runs the model once
    and waits for it, `fetch(result)` turns what call returned into numpy outputs (kept out of
    the timed loop when a compiler keeps results in its own buffers)."""
    try:
        reset_peak_rss()
        call, fetch = prepare(load_inputs(np, shape["inputs"]))
        result = call()
        times = time_calls(call, request["warmup"], request["reps"], budget_s)
        peak = peak_rss()
        path = os.path.join(request["work_dir"], f"{variant}.{shape['name']}.out.npz")
        save_outputs(np, path, fetch(result))
        response.add_run(variant, shape["name"], times_us=times, run_peak_rss_bytes=peak,
                         outputs=os.path.abspath(path))
    except Exception as error:  # noqa: BLE001
        response.add_run(variant, shape["name"], error=error_text(error))


# Set by an adapter module: how its compiler's errors name the ops it could not take.
_unsupported_parsers = []


def register_unsupported_parser(parse):
    """`parse(text)` -> [{"op", "error"}] for the ops a compiler's error text names."""
    _unsupported_parsers.append(parse)


def unsupported_ops(error):
    text = str(error)
    found = []
    for parse in _unsupported_parsers:
        found.extend(parse(text))
    return found


def stdout_for_answer():
    """Moves file descriptor 1 away so that what a compiler prints (C++ libraries write to
    stdout directly) goes to stderr, and returns a stream on the original stdout that only the
    answer is written to."""
    sys.stdout.flush()
    answer = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return answer
