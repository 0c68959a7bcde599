#!/usr/bin/env python3
"""A peer adapter that misbehaves on purpose, for the harness's tests. Python 3 standard
library only (no numpy): it reads and writes .npz/.npy itself.

Usage: python3 tests/compare/fake_peer.py MODE < request.json > response.json

Modes:
  ok             a correct answer: one build serving every shape (dynamic_shapes true) and per
                 shape a run with times_us 100, 101, ... (reps of them), the outputs copied from
                 the request's options.fake_outputs: an .npz path used for every shape, or an
                 object {shape name: .npz path}; each file holds the outputs as arr_0, arr_1,
                 ... It also reads each shape's inputs .npz and fails (exit 1) when one is
                 missing or is no readable .npz, so the harness's input files are checked too.
  timeout        reads the request, then sleeps until killed.
  crash          reads the request, then os.abort() (SIGABRT, no answer).
  exit3          prints the first half of a correct answer and exits with status 3.
  garbage        prints text that is no JSON document, exit 0.
  wrong_shapes   as ok, but every output array gets an extra leading dimension of 1.
  unavailable    available false, with an install line and an error saying why.
  compile_error  the build fails with a compiler's error text and unsupported_ops
                 [{"op": "FakeOp", ...}]; every shape's run says it was not run.
Outputs go to work_dir/fake.<shape>.out.npz.
"""

import ast
import json
import os
import struct
import sys
import time
import zipfile

MAGIC = b"\x93NUMPY"


def read_npy(data):
    """(header dict, raw array bytes) of one .npy file (format versions 1 to 3)."""
    if data[:6] != MAGIC:
        raise ValueError("not an .npy file")
    major = data[6]
    if major == 1:
        (length,), start = struct.unpack("<H", data[8:10]), 10
    else:
        (length,), start = struct.unpack("<I", data[8:12]), 12
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    return header, data[start + length:]


def write_npy(header, payload):
    """An .npy (version 1.0) file: magic, header length, the header dict's repr padded with
    spaces to a multiple of 64 bytes and ended by a newline, then the raw data."""
    text = repr({"descr": header["descr"], "fortran_order": header["fortran_order"],
                 "shape": tuple(header["shape"])})
    padding = 64 - (10 + len(text) + 1) % 64
    text = text + " " * (padding % 64) + "\n"
    return MAGIC + b"\x01\x00" + struct.pack("<H", len(text)) + text.encode("latin1") + payload


def read_npz(path):
    """{name: (header, payload)} of an uncompressed or deflated .npz."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            arrays[name[:-4] if name.endswith(".npy") else name] = read_npy(archive.read(name))
    return arrays


def write_npz(path, arrays):
    """An uncompressed .npz (what numpy.savez writes) of {name: (header, payload)}."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as archive:
        for name, (header, payload) in arrays.items():
            archive.writestr(name + ".npy", write_npy(header, payload))


def outputs_for(request, shape):
    fake = request.get("options", {}).get("fake_outputs")
    return fake.get(shape) if isinstance(fake, dict) else fake


def answer(request, mode):
    shapes = [shape["name"] for shape in request["shapes"]]
    doc = {"protocol": 1, "compiler": request.get("compiler", "fake"), "available": True,
           "install": "true", "versions": {"python": sys.version.split()[0], "fake": "1"},
           "input_received": "the request's inputs, read; outputs copied from fake_outputs",
           "dynamic_shapes": True, "builds": [], "runs": [], "kernels": [],
           "kernels_note": "a fake peer has no profiler", "dumps": [], "error": None}
    if mode == "unavailable":
        doc.update(available=False, install="pip install fake-compiler==1.0",
                   error="fake is not importable: No module named 'fake_compiler'",
                   dynamic_shapes=False)
        return doc
    build = {"variant": "fake", "shapes": shapes, "build_s": 0.25, "tuning_s": 0,
             "trials": 0, "baseline_rss_bytes": 50_000_000,
             "build_peak_rss_bytes": 60_000_000, "artifact_bytes": None, "artifact": None,
             "error": None, "unsupported_ops": []}
    doc["builds"].append(build)
    if mode == "compile_error":
        build["error"] = ("error: failed to legalize operation 'fake.FakeOp' that was "
                          "explicitly marked illegal")
        build["unsupported_ops"] = [{"op": "FakeOp", "error": build["error"]}]
        doc["runs"] = [{"variant": "fake", "shape": name, "times_us": [],
                        "run_peak_rss_bytes": None, "outputs": None,
                        "error": "not run: the build failed"} for name in shapes]
        return doc
    os.makedirs(request["work_dir"], exist_ok=True)
    for shape in request["shapes"]:
        read_npz(shape["inputs"])
        arrays = read_npz(outputs_for(request, shape["name"]))
        if mode == "wrong_shapes":
            for header, _ in arrays.values():
                header["shape"] = (1, *header["shape"])
        path = os.path.abspath(os.path.join(request["work_dir"],
                                            f"fake.{shape['name']}.out.npz"))
        write_npz(path, arrays)
        doc["runs"].append({"variant": "fake", "shape": shape["name"],
                            "times_us": [100.0 + i for i in range(int(request.get("reps", 10)))],
                            "run_peak_rss_bytes": 70_000_000, "outputs": path,
                            "error": None})
    return doc


def main():
    modes = ("ok", "timeout", "crash", "exit3", "garbage", "wrong_shapes", "unavailable",
             "compile_error")
    if len(sys.argv) != 2 or sys.argv[1] not in modes:
        print(f"usage: fake_peer.py {{{','.join(modes)}}} < request.json", file=sys.stderr)
        return 2
    mode = sys.argv[1]
    request = json.load(sys.stdin)
    if mode == "timeout":
        while True:
            time.sleep(3600)
    if mode == "crash":
        sys.stdout.flush()
        os.abort()
    if mode == "garbage":
        print("Segmentation fault? no: this is not JSON {")
        return 0
    text = json.dumps(answer(request, "ok" if mode == "exit3" else mode), indent=1)
    if mode == "exit3":
        sys.stdout.write(text[:len(text) // 2])
        sys.stdout.flush()
        return 3
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
