"""XLA on CPU through jaxlib's client (the one jax.jit uses), from the HLO text the harness made
of the model per shape (or StableHLO text), compiled and executed without jax.jit.

Run as a script (`xla.py MODEL FORMAT`), it only compiles MODEL: the adapter starts itself that
way with XLA_FLAGS set for the pass dump, because XLA reads XLA_FLAGS once, when its backend
starts, and dumping must neither slow the measured builds nor cover every shape.
"""

import glob
import os
import re
import subprocess
import sys
import time

ADAPTERS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ADAPTERS)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(ADAPTERS)), "scripts"))

import common  # noqa: E402  (found through the path above when run as a script)

INSTALL = "scripts/setup_python.sh"

xla = None
np = None


def load_client():
    global xla, np
    from xla_run import Xla  # scripts/xla_run.py: the HLO-text-to-executable path
    xla = Xla()
    np = xla.np


def load(response):
    from importlib.metadata import version
    load_client()
    versions = response.doc["versions"]
    versions["jax"] = xla.jax.__version__
    versions["jaxlib"] = version("jaxlib")


def compile_text(text, model_format):
    if model_format == "hlo":
        return xla.compile(text)
    if model_format == "stablehlo":
        return xla.backend.compile_and_load(text, xla._jax.DeviceList((xla.device,)),
                                            xla._jax.CompileOptions())
    raise ValueError(f"the XLA adapter takes hlo or stablehlo text, not {model_format}")


def parse_unsupported(text):
    # XLA's parser and verifier name the instruction, not an op kind the harness could map:
    # "Unknown opcode: foo" is the one form that names an op.
    return [{"op": op, "error": text} for op in re.findall(r"[Uu]nknown opcode:? ?(\w[\w-]*)",
                                                        text)]


common.register_unsupported_parser(parse_unsupported)


def measure(request, response, deadline):
    if request["threads"]:
        print("xla: threads ignored; XLA CPU's thread pool size is fixed when the backend "
              "starts", file=sys.stderr)
    formats = sorted({shape["model_format"] for shape in request["shapes"]})
    response.doc["input_received"] = (
        f"the model as {'/'.join(formats)} text per shape, as given, parsed and compiled by "
        "XLA's CPU client from jaxlib (no jax.jit)")
    response.doc["dynamic_shapes"] = False
    executables = {}

    def build(shape):
        with open(shape["model"]) as stream:
            text = stream.read()
        start = time.perf_counter()
        executable = compile_text(text, shape["model_format"])
        build_s = time.perf_counter() - start
        executables[shape["name"]] = executable
        return common.Built(lambda inputs: prepare(executable, inputs), build_s=build_s)

    common.measure_shapes(request, response, "xla", build, deadline)
    first = request["shapes"][0]
    if request["options"].get("profile") and first["name"] in executables:
        profile(request, response, first, executables[first["name"]])
    elif request["options"].get("profile"):
        response.doc["kernels_note"] = "the first shape did not build"
    else:
        response.doc["kernels_note"] = "profiling was not asked for"
    if request["options"].get("dump"):
        dump(request, response, first)


def prepare(executable, inputs):
    """(call, fetch): inputs placed on the device once; a call waits for every output."""
    buffers = [xla.jax.device_put(array, xla.device) for _, array in inputs]

    def call():
        outputs = executable.execute(buffers)
        for output in outputs:
            output.block_until_ready()
        return outputs

    return call, (lambda outputs: [np.asarray(output) for output in outputs])


def profile(request, response, shape, executable):
    """The first shape's calls under jax's profiler; each traced event named after an
    instruction of the optimized module is a kernel (its median over the calls)."""
    import statistics
    folder = os.path.join(request["work_dir"], "xla-profile")
    call, _ = prepare(executable, common.load_inputs(np, shape["inputs"]))
    call()
    xla.jax.profiler.start_trace(folder)
    for _ in range(20):
        call()
    xla.jax.profiler.stop_trace()
    names = instruction_names(executable)
    times = {}
    for path in glob.glob(os.path.join(folder, "**", "*.xplane.pb"), recursive=True):
        data = xla.jax.profiler.ProfileData.from_file(path)
        for plane in data.planes:
            for line in plane.lines:
                for event in line.events:
                    if event.name in names:
                        times.setdefault(event.name, []).append(event.duration_ns / 1000.0)
    for name, durations in times.items():
        response.add_kernel("xla", shape["name"], name, statistics.median(durations),
                            names[name], f"jax.profiler trace (median of {len(durations)})")
    if not times:
        response.doc["kernels_note"] = (
            "jax's profiler trace held no event named after an instruction of the optimized "
            "module (XLA CPU traces thunks only in some builds)")


def instruction_names(executable):
    """Instruction name of the optimized entry computation -> the model's ops it holds."""
    return instruction_names_of_text(executable.hlo_modules()[0].to_string())


VIEW = re.compile(r"\b(?:bitcast|reshape|copy)\(%?([\w.\-]+)\)")


def instruction_names_of_text(text):
    """Instruction name of the optimized entry computation -> the model's ops it holds: those of
    a fusion's fused computation (parameters left out), else its own.

    A fusion member that only views a parameter (bitcast, reshape, copy) computes nothing: its
    op_name names the value it reads, which another kernel made. XLA's CPU pipeline leaves
    such traces when it rewrites a dot (at batch 1 the dot becomes `dot.2` without metadata, and
    the fusion reading it holds `bitcast(param), op_name="fc1_matmul"`): the op then belongs to
    the kernel that made the value, not to the fusion that views it."""
    computations, current, entry = {}, None, None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.endswith("{") and not stripped.startswith("HloModule"):
            words = stripped.split()
            current = words[1 if words[0] == "ENTRY" else 0].lstrip("%")
            computations[current] = []
            entry = current if words[0] == "ENTRY" else entry
        elif current and " = " in stripped:
            name = stripped.split(" = ")[0].replace("ROOT ", "").strip().lstrip("%")
            computations[current].append((name, stripped))

    def parameter_index(text):
        found = re.search(r"\bparameter\((\d+)\)", text)
        return int(found.group(1)) if found else None

    def ops_of(lines):
        """The model's ops the members compute, and parameter index -> the op names of views
        of that parameter. Each op is its metadata op_name (which XLA keeps through its passes
        and which names the input model's op), else the instruction's own name."""
        ops, constants, views = [], set(), {}
        parameters = {member: parameter_index(text) for member, text in lines
                      if " parameter(" in text}
        for member, text in lines:
            if member in parameters:
                continue
            # A constant (or one only broadcast or reshaped) is shared between ops by CSE and
            # keeps one op's name: it says nothing about which ops the kernel computes.
            operands = re.search(r"\b(?:broadcast|reshape|bitcast|convert)\(%?([\w.\-]+)\)", text)
            if " constant(" in text or (operands and operands.group(1) in constants):
                constants.add(member)
                continue
            found = re.search(r'op_name="([^"]*)"', text)
            op = found.group(1) if found else member
            view = VIEW.search(text)
            if view and view.group(1) in parameters:
                views.setdefault(parameters[view.group(1)], []).append(op)
                continue
            if op not in ops:
                ops.append(op)
        return ops, views

    kernels, viewed = {}, {}
    entry_lines = computations.get(entry, [])
    for name, line in entry_lines:
        if " parameter(" in line:
            continue  # an input, no kernel
        called = re.search(r"calls=%?([\w.\-]+)", line)
        members = [(member, text) for member, text in computations.get(called.group(1), [])]\
            if called else []
        ops, views = ops_of(members or [(name, line)])
        kernels[name] = ops
        if called:
            # Operand i of the fusion is its parameter i.
            call = line[line.index("fusion(") + 7:] if "fusion(" in line else ""
            operands = re.findall(r"%([\w.\-]+)", call.split(")")[0]) if call else []
            for index, op_names in views.items():
                if index < len(operands):
                    viewed.setdefault(operands[index], []).extend(op_names)
    # A kernel the metadata says nothing of computes what its readers view it as.
    for name, op_names in viewed.items():
        if name in kernels and (not kernels[name] or kernels[name] == [name]):
            kernels[name] = list(dict.fromkeys(op_names))
    return kernels


def dump(request, response, shape):
    folder = os.path.join(request["work_dir"], "xla-dump")
    env = dict(os.environ)
    env["XLA_FLAGS"] = (env.get("XLA_FLAGS", "") +
                        f" --xla_dump_to={folder} --xla_dump_hlo_pass_re=.*").strip()
    done = subprocess.run([sys.executable, os.path.abspath(__file__), shape["model"],
                           shape["model_format"]], env=env, stdout=sys.stderr,
                          stderr=sys.stderr, timeout=max(30, request["deadline_s"] // 4))
    if done.returncode == 0:
        response.add_dump("xla-dump", folder)
    else:
        print(f"xla: the dump compile exited with {done.returncode}", file=sys.stderr)


if __name__ == "__main__":
    load_client()
    with open(sys.argv[1]) as model:
        compile_text(model.read(), sys.argv[2])
