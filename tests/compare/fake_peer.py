#!/usr/bin/env python3
"""A compiler adapter that misbehaves on purpose, for the comparison harness's tests.

Usage: fake_peer.py MODE COMPILER < request.json > response.json

It speaks protocol 1 (compare/adapters/README.md) with the standard library only. Its "model"
is the identity on the first input: the harness's test model is `ROOT copy(p0)`, so copying
the first input array is a correct output.

MODE:
  ok             a correct answer for every shape (one build serving all: dynamic shapes)
  timeout        never answers (sleeps until killed)
  crash          aborts (SIGABRT) after printing half an answer
  exit3          prints half an answer and exits 3
  garbage        prints text that is no JSON
  wrong_protocol a JSON answer of protocol 99
  wrong_shapes   correct numbers with an extra leading dimension
  wrong_values   the right shape, every element off by 1
  unavailable    not installed: available false and the install line
  compile_error  the build fails with the compiler's own text, naming an unsupported op
"""

import io
import json
import os
import sys
import time
import zipfile


def read_first_array(path):
    """The first member of an uncompressed .npz: (header dict text, raw bytes of the npy)."""
    with zipfile.ZipFile(path) as archive:
        name = archive.namelist()[0]
        return archive.read(name)


def add_leading_dimension(npy):
    """The same .npy with shape (1, ...) instead of (...): rewrite the header's shape."""
    header_length = int.from_bytes(npy[8:10], "little")
    header = npy[10:10 + header_length].decode("latin1")
    body = npy[10 + header_length:]
    start = header.index("'shape': (") + len("'shape': (")
    header = header[:start] + "1, " + header[start:]
    header = header.rstrip()
    padded = header + " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return npy[:8] + len(padded).to_bytes(2, "little") + padded.encode("latin1") + body


def add_one(npy):
    """Every float32 element plus 1 (the test model's arrays are f32)."""
    import array
    header_length = int.from_bytes(npy[8:10], "little")
    start = 10 + header_length
    values = array.array("f")
    values.frombytes(npy[start:])
    for i in range(len(values)):
        values[i] += 1.0
    return npy[:start] + values.tobytes()


def write_npz(path, members):
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, data in members:
            archive.writestr(name + ".npy", data)


def main():
    mode, compiler = sys.argv[1], sys.argv[2]
    request = json.load(sys.stdin)
    half = '{"protocol": 1, "compiler": "%s", "builds": [' % compiler
    if mode == "timeout":
        while True:
            time.sleep(60)
    if mode in ("crash", "exit3"):
        sys.stdout.write(half)
        sys.stdout.flush()
        if mode == "crash":
            os.abort()
        sys.exit(3)
    if mode == "garbage":
        print("Segmentation fault? no: just text that is no JSON at all")
        return
    answer = {"protocol": 1, "compiler": compiler, "available": True,
              "install": "pip install fake-compiler", "versions": {"fake": "1.0"},
              "input_received": "the model file as given", "dynamic_shapes": True,
              "builds": [], "runs": [], "kernels": [], "kernels_note": "a fake has no profiler",
              "dumps": [], "error": None}
    if mode == "wrong_protocol":
        answer["protocol"] = 99
    if mode == "unavailable":
        answer.update(available=False, error="No module named 'fake_compiler'")
        print(json.dumps(answer))
        return
    names = [shape["name"] for shape in request["shapes"]]
    build = {"variant": compiler, "shapes": names, "build_s": 0.25, "tuning_s": 0, "trials": 0,
             "baseline_rss_bytes": 1 << 20, "build_peak_rss_bytes": 2 << 20,
             "artifact_bytes": 4096, "artifact": None, "error": None, "unsupported_ops": []}
    if mode == "compile_error":
        build["error"] = "OpNotImplemented: FancyOp is not supported"
        build["unsupported_ops"] = [{"op": "FancyOp", "error": "not supported by this fake"}]
        answer["builds"].append(build)
        print(json.dumps(answer))
        return
    answer["builds"].append(build)
    for shape in request["shapes"]:
        npy = read_first_array(shape["inputs"])
        if mode == "wrong_shapes":
            npy = add_leading_dimension(npy)
        if mode == "wrong_values":
            npy = add_one(npy)
        outputs = os.path.join(request["work_dir"], shape["name"] + ".out.npz")
        write_npz(outputs, [("arr_0", npy)])
        times = [100.0 + (i % 7) for i in range(request["reps"])]
        answer["runs"].append({"variant": compiler, "shape": shape["name"], "times_us": times,
                               "run_peak_rss_bytes": 3 << 20, "outputs": outputs, "error": None})
    answer["kernels"].append({"variant": compiler, "shape": names[0], "name": "fake_kernel_0",
                              "time_us": 42.0, "ops": ["copy_op"], "source": "the fake"})
    print(json.dumps(answer))


if __name__ == "__main__":
    main()
