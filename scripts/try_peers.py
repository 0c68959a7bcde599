#!/usr/bin/env python3
"""Runs peer adapters by hand on the comparison models, without the C++ harness: writes the
inputs and a request per model, starts `compare/adapters/peer.py COMPILER` in each peer's
Python as the harness would, and prints per shape the p50/p95/p99 of the timed calls, the
build and tuning time, peak memory and the largest absolute difference of the outputs from
the first peer that answered the shape.

Usage: scripts/try_peers.py OUT_DIR --peers ort,iree,tvm,xla [--models mlp,bert]
       [--shapes b1,b1_s32] [--reps 100] [--warmup 10] [--tvm-trials 64] [--dump]
       [--profile] [--deadline 1800]
xla takes the models as HLO text per shape, which the harness's importer writes; here
scripts/onnx_to_hlo.py makes it with jax (in ort's and xla's Pythons). Needs numpy.
"""

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
SHAPES = {
    "mlp": [{"batch": 1}, {"batch": 8}, {"batch": 32}],
    "bert": [{"batch": 1, "seq": 32}, {"batch": 8, "seq": 64}, {"batch": 32, "seq": 128}],
}
INPUT_DIMS = {"mlp": ["batch", 256], "bert": ["batch", "seq", 192]}


def python_for(compiler):
    for name in (f"FUSESCOPE_PEER_PYTHON_{compiler.upper()}", "FUSESCOPE_PEER_PYTHON"):
        if os.environ.get(name):
            return os.environ[name]
    for venv in (ROOT / ".venv-peers" / compiler, ROOT / ".venv"):
        if (venv / "bin" / "python").exists() and (compiler == "xla") == (venv.name == ".venv"):
            return str(venv / "bin" / "python")
    return "python3"


def shape_name(dims):
    return "_".join(f"{key[0]}{value}" for key, value in dims.items())


def write_inputs(out, model):
    rng = np.random.default_rng(7)
    shapes = []
    for dims in SHAPES[model]:
        name = shape_name(dims)
        size = [dims[d] if isinstance(d, str) else d for d in INPUT_DIMS[model]]
        path = out / "inputs" / f"{model}.{name}.npz"
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, x=rng.standard_normal(size).astype(np.float32))
        shapes.append({"name": name, "dims": dims, "inputs": str(path)})
    return shapes


def onnx_path(model):
    return str(ROOT / "tests" / "data" / "compare" / f"{model}.onnx")


def request_for(args, out, model, compiler, shapes):
    shapes = [dict(shape) for shape in shapes]
    if compiler == "xla":
        tool = str(ROOT / "scripts" / "onnx_to_hlo.py")
        graph = out / "hlo" / f"{model}.graph.npz"
        graph.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([python_for("ort"), tool, "export", onnx_path(model), str(graph)],
                       check=True)
        for shape in shapes:
            hlo = out / "hlo" / f"{model}.{shape['name']}.hlo"
            subprocess.run([python_for("xla"), tool, "lower", str(graph), shape["inputs"],
                            str(hlo)], check=True)
            shape.update(model=str(hlo), model_format="hlo")
    return {"protocol": 1, "compiler": compiler,
            "model": onnx_path(model),
            "model_format": "onnx", "work_dir": str(out / "work" / model / compiler),
            "shapes": shapes, "reps": args.reps, "warmup": args.warmup, "threads": 0,
            "deadline_s": args.deadline,
            "options": {"dump": args.dump, "profile": args.profile,
                        "tvm_trials": args.tvm_trials}}


def percentile(times, q):
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def report(model, answer, reference):
    builds = {(b["variant"], s): b for b in answer["builds"] for s in b["shapes"]}
    for run in answer["runs"]:
        build = builds.get((run["variant"], run["shape"]), {})
        line = f"{model:5} {run['variant']:17} {run['shape']:9}"
        if run["error"] or build.get("error"):
            print(f"{line} ERROR {(build.get('error') or run['error'])[:300]}")
            continue
        times = run["times_us"]
        outputs = np.load(run["outputs"])
        arrays = [outputs[f"arr_{i}"] for i in range(len(outputs.files))]
        key = (model, run["shape"])
        diff = "ref"
        if key in reference:
            diff = max(float(np.max(np.abs(a.astype(np.float64) - b))) if a.shape == b.shape
                       else float("inf") for a, b in zip(arrays, reference[key]))
            diff = f"{diff:.2e}"
        else:
            reference[key] = [a.astype(np.float64) for a in arrays]
        mib = 1 << 20
        print(f"{line} p50 {percentile(times, 50):9.1f} p95 {percentile(times, 95):9.1f} "
              f"p99 {percentile(times, 99):9.1f} us | build {build.get('build_s') or 0:7.2f} s"
              f" tuning {build.get('tuning_s') or 0:6.1f} s trials {build.get('trials') or 0:4}"
              f" | rss base/build/run {(build.get('baseline_rss_bytes') or 0) / mib:5.0f}/"
              f"{(build.get('build_peak_rss_bytes') or 0) / mib:5.0f}/"
              f"{(run['run_peak_rss_bytes'] or 0) / mib:5.0f} MiB | diff {diff}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--peers", default="ort,iree,tvm,xla")
    parser.add_argument("--models", default="mlp,bert")
    parser.add_argument("--shapes", help="only these shapes (all by default)")
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--tvm-trials", type=int, default=64)
    parser.add_argument("--deadline", type=int, default=1800)
    parser.add_argument("--dump", action="store_true")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    reference = {}
    for model in args.models.split(","):
        shapes = write_inputs(args.out, model)
        if args.shapes:
            shapes = [shape for shape in shapes if shape["name"] in args.shapes.split(",")]
        for compiler in args.peers.split(","):
            request = request_for(args, args.out, model, compiler, shapes)
            stem = args.out / f"{model}.{compiler}"
            Path(f"{stem}.request.json").write_text(json.dumps(request, indent=1))
            start = time.monotonic()
            with open(f"{stem}.stderr.txt", "w") as log:
                done = subprocess.run(
                    [python_for(compiler), str(ROOT / "compare" / "adapters" / "peer.py"),
                     compiler], input=json.dumps(request), capture_output=False, text=True,
                    stdout=subprocess.PIPE, stderr=log, timeout=args.deadline)
            Path(f"{stem}.response.json").write_text(done.stdout)
            print(f"{model:5} {compiler:17} exit {done.returncode} in "
                  f"{time.monotonic() - start:.1f} s")
            try:
                answer = json.loads(done.stdout)
            except json.JSONDecodeError:
                print(f"  garbage answer: {done.stdout[:200]!r}")
                continue
            if not answer.get("available", True) or answer.get("error"):
                print(f"  available={answer.get('available')} error={answer.get('error')}")
            report(model, answer, reference)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
