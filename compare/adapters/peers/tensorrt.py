"""TensorRT: an engine per shape built from the ONNX file by TensorRT's ONNX parser (an
optimization profile pinned to the shape), run on the first NVIDIA GPU through cuda-python.

UNTESTED: written on a machine without a GPU and without the tensorrt package; only its
`available: false` answer was run. It follows TensorRT 10's Python API (named I/O tensors,
execute_async_v3, IEngineInspector, IProfiler).
"""

import json
import os
import time

import common

# The pip wheels need an NVIDIA GPU and driver to run; nothing in scripts/setup_peers.sh.
INSTALL = "pip install tensorrt cuda-python numpy"

trt = None
cudart = None
np = None


def load(response):
    global trt, cudart, np
    import tensorrt  # first, so that a machine without it is told that, not about numpy
    import numpy
    try:
        from cuda.bindings import runtime as cuda_runtime  # cuda-python 12.6 and later
    except ImportError:
        from cuda import cudart as cuda_runtime
    trt, cudart, np = tensorrt, cuda_runtime, numpy
    status, count = cudart.cudaGetDeviceCount()
    if status != cudart.cudaError_t.cudaSuccess or count == 0:
        raise common.Unavailable(f"TensorRT {trt.__version__} is installed but there is no "
                                 f"NVIDIA GPU here ({status})")
    response.doc["versions"]["tensorrt"] = trt.__version__


def check(result):
    """cuda-python calls return (status, values...); raise on a failed status."""
    status, *values = result
    if status != cudart.cudaError_t.cudaSuccess:
        raise RuntimeError(f"CUDA: {status}")
    return values[0] if len(values) == 1 else (values or None)


def parse_unsupported(text):
    # The ONNX parser: "No importer registered for op: Foo"
    import re
    return [{"op": op, "error": text} for op in
            re.findall(r"No importer registered for op: (\w+)", text)]


common.register_unsupported_parser(parse_unsupported)


def build_engine(model_path, inputs, work, name):
    logger = trt.Logger(trt.Logger.WARNING)
    builder = trt.Builder(logger)
    network = builder.create_network(0)
    parser = trt.OnnxParser(network, logger)
    if not parser.parse_from_file(model_path):
        raise RuntimeError("\n".join(str(parser.get_error(i)) for i in range(parser.num_errors)))
    config = builder.create_builder_config()
    config.profiling_verbosity = trt.ProfilingVerbosity.DETAILED
    profile = builder.create_optimization_profile()
    for input_name, array in inputs:
        profile.set_shape(input_name, array.shape, array.shape, array.shape)
    config.add_optimization_profile(profile)
    serialized = builder.build_serialized_network(network, config)
    if serialized is None:
        raise RuntimeError("TensorRT could not build the engine (see its log on stderr)")
    path = os.path.join(work, f"{name}.engine")
    with open(path, "wb") as out:
        out.write(serialized)
    return trt.Runtime(logger).deserialize_cuda_engine(serialized), path


def measure(request, response, deadline):
    if request.get("model_format", "onnx") != "onnx":
        raise ValueError(f"the TensorRT adapter takes ONNX models, not {request['model_format']}")
    work = request["work_dir"]
    response.doc["input_received"] = (
        "the ONNX file, parsed by TensorRT's ONNX parser, one engine per shape with an "
        "optimization profile pinned to it")
    response.doc["dynamic_shapes"] = False
    engines = {}

    def build(shape):
        inputs = common.load_inputs(np, shape["inputs"])
        start = time.perf_counter()
        engine, path = build_engine(shape["model"], inputs, work, f"tensorrt.{shape['name']}")
        build_s = time.perf_counter() - start
        engines[shape["name"]] = engine
        return common.Built(lambda arrays: prepare(engine, arrays), build_s=build_s,
                            artifact=path, artifact_bytes=common.file_bytes(path))

    common.measure_shapes(request, response, "tensorrt", build, deadline)
    first = request["shapes"][0]
    if first["name"] not in engines:
        response.doc["kernels_note"] = "the first shape did not build"
        return
    if request["options"].get("dump"):
        path = os.path.join(work, "tensorrt-layers.json")
        inspector = engines[first["name"]].create_engine_inspector()
        with open(path, "w") as out:
            out.write(inspector.get_engine_information(trt.LayerInformationFormat.JSON))
        response.add_dump("tensorrt-layers", path)
    if request["options"].get("profile"):
        profile(request, response, first, engines[first["name"]])
    else:
        response.doc["kernels_note"] = "profiling was not asked for"


def prepare(engine, inputs):
    """(call, fetch): inputs copied to the GPU once; a call enqueues the engine and waits for
    its stream; fetch copies the outputs back."""
    context = engine.create_execution_context()
    stream = check(cudart.cudaStreamCreate())
    arrays = dict(inputs)
    outputs = []
    for index in range(engine.num_io_tensors):
        name = engine.get_tensor_name(index)
        if engine.get_tensor_mode(name) == trt.TensorIOMode.INPUT:
            array = np.ascontiguousarray(arrays[name])
            context.set_input_shape(name, array.shape)
            pointer = check(cudart.cudaMalloc(array.nbytes))
            check(cudart.cudaMemcpy(pointer, array.ctypes.data, array.nbytes,
                                    cudart.cudaMemcpyKind.cudaMemcpyHostToDevice))
            context.set_tensor_address(name, pointer)
    for index in range(engine.num_io_tensors):
        name = engine.get_tensor_name(index)
        if engine.get_tensor_mode(name) == trt.TensorIOMode.OUTPUT:
            shape = tuple(context.get_tensor_shape(name))
            dtype = trt.nptype(engine.get_tensor_dtype(name))
            host = np.empty(shape, dtype)
            pointer = check(cudart.cudaMalloc(host.nbytes))
            context.set_tensor_address(name, pointer)
            outputs.append((host, pointer))

    def call():
        if not context.execute_async_v3(stream):
            raise RuntimeError("execute_async_v3 failed")
        check(cudart.cudaStreamSynchronize(stream))

    def fetch(_):
        for host, pointer in outputs:
            check(cudart.cudaMemcpy(host.ctypes.data, pointer, host.nbytes,
                                    cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost))
        return [host for host, _ in outputs]

    call.context = context
    return call, fetch


def profile(request, response, shape, engine):
    """Per-layer times from TensorRT's IProfiler over 20 calls (median per layer), kept also in
    trtexec's --exportProfile form as the `tensorrt-profile` dump."""
    import statistics

    class LayerTimes(trt.IProfiler):
        """TensorRT reports each layer's time to it after every profiled execution."""

        def __init__(self):
            super().__init__()
            self.times = {}

        def report_layer_time(self, layer_name, ms):
            self.times.setdefault(layer_name, []).append(ms)

    call, _ = prepare(engine, common.load_inputs(np, shape["inputs"]))
    call()
    profiler = LayerTimes()
    call.context.profiler = profiler
    for _ in range(20):
        call()
    rows = [{"count": 20}]
    layer_ops = layer_members(engine)
    total = sum(statistics.median(ms) for ms in profiler.times.values()) or 1.0
    for layer, times in profiler.times.items():
        median = statistics.median(times)
        rows.append({"name": layer, "timeMs": sum(times), "averageMs": sum(times) / len(times),
                     "medianMs": median, "percentage": 100.0 * median / total})
        response.add_kernel("tensorrt", shape["name"], layer, median * 1000.0,
                            layer_ops.get(layer, []), "TensorRT IProfiler (median of 20)")
    path = os.path.join(request["work_dir"], "tensorrt-profile.json")
    with open(path, "w") as out:
        json.dump(rows, out, indent=1)
    response.add_dump("tensorrt-profile", path)


def layer_members(engine):
    """Layer name -> the ONNX node names its Metadata lists (separated by \\x1E or \\x1F)."""
    info = json.loads(engine.create_engine_inspector().get_engine_information(
        trt.LayerInformationFormat.JSON))
    members = {}
    for layer in info.get("Layers", []):
        if isinstance(layer, dict):
            metadata = layer.get("Metadata", "")
            names = [n for n in metadata.replace("\x1f", "\x1e").split("\x1e") if n]
            members[layer.get("Name", "")] = names
    return members
