#!/usr/bin/env python3
"""End-to-end CPU latency of Fusescope's compiled modules next to XLA CPU and ONNX Runtime.

For every model, in one process per peer and on the same inputs:
  * Fusescope: `fusescope compile MODEL --pipeline cpu -o RUN.fsdb`, then
    `fusescope profile RUN.fsdb --device DEVICE --reps N --json` (latency of the compiled
    module, per-kernel times);
  * XLA CPU: the model's unoptimized HLO (for an .onnx model, the HLO our importer made of it)
    parsed, compiled and executed by the XLA CPU client that jax.jit uses (jaxlib);
  * ONNX Runtime, for .onnx models: the same file in an InferenceSession.
The inputs are the seeded ones `fusescope export` writes, so all peers see the same numbers;
every peer's outputs are checked against XLA's before its time is printed.

Printed: p50/p95 latency per peer (ours: of plain runs, without the per-kernel clocks of the
profile's timed runs, as the peers' runs have none), the ratio ours/peer (below 1 means we are faster), build
time in the process, as XLA's is its compile() call: ours is the pipeline's passes (`compile
--json`'s seconds) plus compiling every kernel in a fresh `profile` process; XLA's in this
process, where the models before warmed it up, and "XLA fresh" as the first compile of a
process of its own, as ours is; "warm ours" the pipeline plus a second build that
loads the kernels from this run's kernel cache (the JSON also keeps ours_build_wall_s, with the
`compile` process's start), and, from the per-kernel times, the GB/s of each elementwise fusion as a fraction of this
machine's measured memory bandwidth and the GFLOP/s of each dot as a fraction of its measured
FP32 peak (`fusescope machine`).

With --tune SPACE, each model is also tuned (`fusescope tune RUN.fsdb --space SPACE`, the hot
kernels covering 90 % of the time) and profiled again with `--tuned`: the table then shows
ours before and after tuning against the same peers' times, in the same run: the default and the
tuned build profiled in turns (--pairs times each, the median of their p50s), since one profile
of each can swing by half on a shared CPU.

Usage: bench/cpu_vs_peers.py [--fusescope build/app/fusescope] [--device cpu] [--reps 50]
                             [--threads N] [--tune SPACE] [--tune-reps N] [--json OUT.json]
                             [MODEL ...]
Needs a Python with jax/jaxlib (scripts/setup_python.sh) and, for ONNX Runtime, onnxruntime.
--threads 1 pins every peer (and OpenBLAS, oneDNN and BLIS) to one thread for a like-for-like
kernel comparison.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MODELS = [
    "resources/samples/mlp.hlo",
    "resources/samples/bert_encoder.hlo",
    "resources/samples/resnet_block.hlo",
    "tests/data/mlp/before_optimizations.hlo",
    "tests/data/attention/before_optimizations.hlo",
    "tests/data/convnet/before_optimizations.hlo",
    "tests/data/bert_layer/before_optimizations.hlo",
    "tests/data/onnx/mlp.onnx",
    "tests/data/onnx/cnn.onnx",
    "tests/data/onnx/transformer.onnx",
]


# Times XLA's compile of one module as the first compile of its process (argv: the scripts
# folder, the HLO file); the interpreter's and jax's start-up and the client are not counted.
COLD_XLA_COMPILE = """
import sys, time
sys.path.insert(0, sys.argv[1])
from xla_run import Xla
xla = Xla()
text = open(sys.argv[2]).read()
started = time.perf_counter()
xla.compile(text)
print(time.perf_counter() - started)
"""


def plain_latency(profiled):
    """The latency of a profile's plain runs (no kernel clocks) where it has them."""
    return profiled.get("plain_latency_us") or profiled["latency_us"]


def percentile(values, q):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = (len(ordered) - 1) * q
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def fusescope(binary, *args):
    started = time.perf_counter()
    done = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"fusescope {' '.join(map(str, args))}: {done.stderr.strip()}")
    return done.stdout, seconds


def time_calls(call, reps, warmup):
    for _ in range(warmup):
        call()
    samples = []
    for _ in range(reps):
        started = time.perf_counter()
        call()
        samples.append((time.perf_counter() - started) * 1e6)
    return samples


def compare(np, got, want, rtol=1e-4, atol=1e-5):
    """Largest relative error over elements above atol, and whether all are within bounds."""
    worst, ok = 0.0, len(got) == len(want)
    for a, b in zip(got, want):
        a = np.asarray(a, dtype=np.float64).reshape(-1)
        b = np.asarray(b, dtype=np.float64).reshape(-1)
        if a.shape != b.shape:
            return float("inf"), False
        # NaN where the reference has NaN counts as agreeing (seeded inputs can make a
        # normalisation's variance negative); NaN anywhere else does not.
        both_nan = np.isnan(a) & np.isnan(b)
        a, b = np.where(both_nan, 0.0, a), np.where(both_nan, 0.0, b)
        diff = np.abs(a - b)
        big = np.abs(b) > atol
        if big.any():
            worst = max(worst, float(np.max(diff[big] / np.abs(b[big]))))
        ok = ok and bool(np.all(diff <= atol + rtol * np.abs(b)))
    return worst, ok


def machine_figures(binary):
    out, _ = fusescope(binary, "machine", "--json")
    figures = json.loads(out)
    return figures["peak_fp32_flops"], figures["memory_bandwidth_bytes_per_second"]


def kernel_rates(profile, peak_flops, bandwidth):
    """Per kernel with measured time: GFLOP/s of dots (vs peak) and GB/s of loop fusions."""
    rows = []
    for info in profile["kernels"]:
        seconds = info["time_us"]["p50"] * 1e-6
        if seconds <= 0:
            continue
        if info.get("kind") == "dot" and info.get("flops", 0) > 0:
            rate = info["flops"] / seconds
            rows.append((info["name"], "dot", rate / 1e9, "GFLOP/s", rate / peak_flops))
        elif info.get("kind") == "elementwise" and info.get("bytes", 0) > 0:
            rate = info["bytes"] / seconds
            rows.append((info["name"], "elementwise", rate / 1e9, "GB/s", rate / bandwidth))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*", default=DEFAULT_MODELS)
    parser.add_argument("--fusescope", default=str(ROOT / "build/app/fusescope"))
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--threads", type=int, default=0, help="0: each peer's default")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--tune", metavar="SPACE",
                        help='also tune each model over SPACE ("tile=0,16,32 vector=4,8,16 ...")')
    parser.add_argument("--tune-reps", type=int, default=8)
    parser.add_argument("--pairs", type=int, default=3,
                        help="with --tune: before and after profiled in turns this many times")
    args = parser.parse_args()

    if args.threads:
        os.environ["OPENBLAS_NUM_THREADS"] = str(args.threads)
        # oneDNN and BLIS (tuned kernels) use OpenMP's count.
        os.environ["OMP_NUM_THREADS"] = str(args.threads)
        os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                                   " --xla_cpu_multi_thread_eigen=false").strip()
    sys.path.insert(0, str(ROOT / "scripts"))
    from xla_run import Xla, read_inputs  # noqa: E402  (needs jax, imported after XLA_FLAGS)
    xla = Xla()
    np = xla.np
    try:
        import onnxruntime
    except ImportError:
        onnxruntime = None
        print("onnxruntime is not installed: ONNX Runtime is left out", file=sys.stderr)

    peak_flops, bandwidth = machine_figures(args.fusescope)
    print(f"machine: FP32 peak {peak_flops / 1e9:.0f} GFLOP/s, memory bandwidth "
          f"{bandwidth / 1e9:.1f} GB/s; device {args.device}; threads "
          f"{args.threads or 'default'}; {args.reps} reps after {args.warmup} warm-up")
    # Single-precision GEMMs, as the peers use (the default widens f32 dots to f64 to match the
    # interpreter's numbers exactly); outputs are still checked against XLA's.
    cpu_flags = ["--sgemm"] if args.device == "cpu" else []
    # Our latency is that of plain runs, without the per-kernel clocks the profile's own runs
    # carry (`profile --overhead`: one plain run beside each timed one), as the peers' runs
    # have none; per-kernel times come from the timed runs.
    latency_flags = ["--overhead"] if args.device == "cpu" else []
    results = []
    with tempfile.TemporaryDirectory(prefix="fusescope-bench-") as scratch:
        # Our kernels are cached on disk in this run's own cache: the first build of a model
        # compiles them (the build time compared), a second build loads them (warm).
        os.environ["FUSESCOPE_KERNEL_CACHE"] = str(Path(scratch) / "kernels.sqlite")
        for model in args.models:
            path = (ROOT / model) if not Path(model).is_absolute() else Path(model)
            name = path.parent.name + "/" + path.name if path.parent.name != "samples" else path.name
            work = Path(scratch) / name.replace("/", "_")
            work.mkdir()
            row = {"model": name}
            try:
                out, wall_s = fusescope(args.fusescope, "compile", path, "--pipeline", "cpu",
                                        "-o", work / "run.fsdb", "--json")
                build_s = json.loads(out)["seconds"]
                fusescope(args.fusescope, "export", work / "run.fsdb", "--pass", "0", "-o",
                          work / "export")
                inputs = read_inputs(np, work / "export")
                out, _ = fusescope(args.fusescope, "profile", work / "run.fsdb", "--device",
                                   args.device, "--reps", args.reps, "--warmup", args.warmup,
                                   "--inputs", work / "export", "--json", *cpu_flags,
                                   *latency_flags)
                ours = json.loads(out)
                row["ours_build_s"] = build_s + ours.get("compile_seconds", 0.0)
                row["ours_build_wall_s"] = wall_s + ours.get("compile_seconds", 0.0)
                out, _ = fusescope(args.fusescope, "profile", work / "run.fsdb", "--device",
                                   args.device, "--reps", 1, "--warmup", 0, "--inputs",
                                   work / "export", "--json", *cpu_flags)
                row["ours_warm_build_s"] = build_s + json.loads(out).get("compile_seconds", 0.0)
                row["ours_p50_us"] = plain_latency(ours)["p50"]
                row["ours_p95_us"] = plain_latency(ours)["p95"]
                row["ours_timed_p50_us"] = ours["latency_us"]["p50"]
                row["kernels"] = kernel_rates(ours, peak_flops, bandwidth)
                if args.tune and args.device == "cpu":
                    _, row["tune_s"] = fusescope(
                        args.fusescope, "tune", work / "run.fsdb", "--space", args.tune,
                        "--reps", args.tune_reps, "--warmup", 2, "--inputs", work / "export",
                        *cpu_flags)
                    # Before and after in turns, --pairs times each, each the median of its
                    # profile: one profile of each swings by half on a busy or shared CPU.
                    befores, afters = [], []
                    for _ in range(args.pairs):
                        for tuned_flag, samples in (([], befores), (["--tuned"], afters)):
                            out, _ = fusescope(args.fusescope, "profile", work / "run.fsdb",
                                               "--device", args.device, "--reps", args.reps,
                                               "--warmup", args.warmup, "--inputs",
                                               work / "export", "--json", *tuned_flag,
                                               *cpu_flags, *latency_flags)
                            profiled = json.loads(out)
                            samples.append(plain_latency(profiled)["p50"])
                            if tuned_flag:
                                row["tuned_kernels"] = kernel_rates(profiled, peak_flops, bandwidth)
                    row["ours_p50_us"] = statistics.median(befores)
                    row["tuned_p50_us"] = statistics.median(afters)
                run_args = ["run", work / "run.fsdb", "--inputs", work / "export", "--save-outputs",
                            work / "ours"]
                if args.device != "interpreter":
                    run_args += ["--device", args.device, *cpu_flags, "--rtol", "1e-4"]
                fusescope(args.fusescope, *run_args)

                text = (work / "export" / "original.hlo").read_text()
                started = time.perf_counter()
                executable = xla.compile(text)
                row["xla_build_s"] = time.perf_counter() - started
                # The same compile as the first of a fresh process, as each of ours is: XLA
                # here has compiled the models before this one, and its LLVM's code is warm.
                cold = subprocess.run(
                    [sys.executable, "-c", COLD_XLA_COMPILE, str(ROOT / "scripts"),
                     str(work / "export" / "original.hlo")],
                    capture_output=True, text=True, check=True)
                row["xla_fresh_build_s"] = float(cold.stdout.strip().splitlines()[-1])
                buffers = [xla.jax.device_put(a, xla.device) for a in inputs]

                def run_xla():
                    outs = executable.execute(buffers)
                    for o in outs:
                        o.block_until_ready()
                    return outs

                reference = [np.asarray(o) for o in run_xla()]
                samples = time_calls(run_xla, args.reps, args.warmup)
                row["xla_p50_us"] = percentile(samples, 0.5)
                row["xla_p95_us"] = percentile(samples, 0.95)
                ours_outputs = [np.load(p) for p in sorted((work / "ours").glob("*.npy"))]
                row["ours_vs_xla_rel_err"], row["ours_matches_xla"] = compare(
                    np, ours_outputs, reference)

                if path.suffix == ".onnx" and onnxruntime is not None:
                    options = onnxruntime.SessionOptions()
                    if args.threads:
                        options.intra_op_num_threads = args.threads
                        options.inter_op_num_threads = 1
                    started = time.perf_counter()
                    session = onnxruntime.InferenceSession(str(path), options,
                                                           providers=["CPUExecutionProvider"])
                    row["ort_build_s"] = time.perf_counter() - started
                    feeds = {i.name: a for i, a in zip(session.get_inputs(), inputs)}
                    got = session.run(None, feeds)
                    row["ort_vs_xla_rel_err"], row["ort_matches_xla"] = compare(np, got, reference)
                    samples = time_calls(lambda: session.run(None, feeds), args.reps, args.warmup)
                    row["ort_p50_us"] = percentile(samples, 0.5)
                    row["ort_p95_us"] = percentile(samples, 0.95)
            except Exception as error:  # noqa: BLE001  (one model's failure is reported, not fatal)
                row["error"] = str(error).strip().splitlines()[0][:300]
            results.append(row)

    print(f"\n{'model':34} {'ours p50':>10} {'XLA p50':>10} {'ours/XLA':>9} {'ORT p50':>10} "
          f"{'ours/ORT':>9} {'build ours/XLA/ORT s':>22} {'XLA fresh s':>11} "
          f"{'warm ours s':>11}  agrees")
    tuned_rows = [row for row in results if "tuned_p50_us" in row]
    for row in results:
        if "error" in row and "ours_p50_us" not in row:
            print(f"{row['model']:34} error: {row['error']}")
            continue
        ort = row.get("ort_p50_us")
        xla_p50 = row.get("xla_p50_us")
        builds = "/".join(f"{row[k]:.2f}" if k in row else "-"
                          for k in ("ours_build_s", "xla_build_s", "ort_build_s"))
        agrees = "yes" if row.get("ours_matches_xla") else f"NO ({row.get('ours_vs_xla_rel_err', 0):.1e})"
        print(f"{row['model']:34} {row['ours_p50_us']:10.1f} "
              f"{xla_p50 if xla_p50 else float('nan'):10.1f} "
              f"{row['ours_p50_us'] / xla_p50 if xla_p50 else float('nan'):9.2f} "
              f"{ort if ort else float('nan'):10.1f} "
              f"{row['ours_p50_us'] / ort if ort else float('nan'):9.2f} {builds:>22} "
              f"{row.get('xla_fresh_build_s', float('nan')):11.2f} "
              f"{row.get('ours_warm_build_s', float('nan')):11.2f}  {agrees}")
        if "error" in row:
            print(f"{'':34} error: {row['error']}")
    if tuned_rows:
        print(f"\n{'model (tuned: ' + args.tune + ')':34} {'before':>10} {'after':>10} "
              f"{'before/XLA':>10} {'after/XLA':>10} {'after/ORT':>10} {'tune s':>8}")
        for row in tuned_rows:
            xla_p50, ort = row.get("xla_p50_us"), row.get("ort_p50_us")
            print(f"{row['model']:34} {row['ours_p50_us']:10.1f} {row['tuned_p50_us']:10.1f} "
                  f"{row['ours_p50_us'] / xla_p50 if xla_p50 else float('nan'):10.2f} "
                  f"{row['tuned_p50_us'] / xla_p50 if xla_p50 else float('nan'):10.2f} "
                  f"{row['tuned_p50_us'] / ort if ort else float('nan'):10.2f} "
                  f"{row['tune_s']:8.1f}")
    print("\nkernel rates (median time), as a fraction of the machine's measured limit:")
    for row in results:
        for kernel, kind, rate, unit, fraction in row.get("kernels", []):
            print(f"  {row['model']:32} {kernel:36} {kind:11} {rate:8.2f} {unit:8} "
                  f"{100 * fraction:5.1f}%")
    if args.json:
        args.json.write_text(json.dumps({"device": args.device, "threads": args.threads,
                                         "peak_fp32_flops": peak_flops,
                                         "bandwidth_bytes_per_second": bandwidth,
                                         "models": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
