#!/usr/bin/env python3
"""The reference interpreter against XLA: every built-in sample and jax fixture, same inputs.

For each model, `fusescope export` writes seeded inputs and the module as XLA reads it;
`fusescope run --inputs --save-outputs --save-exact` interprets the module on those inputs,
in its own types and in f64 (the exact answer), and XLA's CPU client (through jaxlib) compiles
and runs it. Every output must match: floats within --rtol plus --atol (for f16 and bf16
outputs at least four units of the type's precision, as runtime/output_judgement.h), integers
and predicates exactly. Prints a table of models x outputs with the worst errors and how each
was judged; exit status 1 on any mismatch or refusal, 77 when jax is not importable.

A float output outside the tolerance is judged once more against the exact answer (the f64
arbiter): it passes when the interpreter is no further from it than XLA's own run is, plus
the tolerance. Large sums (a conv over 576 terms) differ from XLA by XLA's rounding, not the
interpreter's, and CPUs that compute f16 natively (AVX-512 FP16) round f16 differently from
those that go through f32; the table says where the arbiter decided. When XLA's own run is
itself beyond tolerance from the exact answer the output is ill-conditioned on these inputs:
reported, not failed.

Usage: scripts/interp_vs_xla.py FUSESCOPE [--rtol 1e-5] [--atol 1e-6]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import xla_run  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
MODELS = sorted(str(p.relative_to(REPO)) for p in (REPO / "resources" / "samples").glob("*.hlo"))
MODELS += sorted(str(p.relative_to(REPO)) for p in (REPO / "tests" / "data").glob("*/before_optimizations.hlo"))
MODELS += sorted(str(p.relative_to(REPO)) for p in (REPO / "tests" / "data" / "training").glob("*.hlo"))
# Small modules that exercise each opcode family's corner cases (padding, dilation, groups,
# batching dims, out-of-range indices, integer edge cases, narrow floats).
MODELS += sorted(str(p.relative_to(REPO)) for p in (REPO / "tests" / "runtime" / "xla_cases").glob("*.hlo"))
# Models left out on purpose, with the reason. Nothing else is skipped.
EXCLUDED = {
    "tests/data/training/bert_train_step.rbg.hlo":
        "rng-bit-generator: the interpreter does not reproduce XLA's random bits and refuses it",
}


def run(binary, *args):
    return subprocess.run([binary, *args], capture_output=True, text=True)


def compare_floats(np, got, want, rtol, atol):
    """(max abs err, max rel err, ok); NaN matches NaN and equal infinities match."""
    if got.shape != want.shape:
        return float("inf"), float("inf"), False
    a = got.astype(np.float64)
    b = want.astype(np.float64)
    same = (np.isnan(a) & np.isnan(b)) | (a == b)
    diff = np.where(same, 0.0, np.abs(a - b))
    diff = np.where(np.isnan(diff), np.inf, diff)
    if not diff.size:
        return 0.0, 0.0, True
    rel = diff / np.maximum(np.abs(np.where(np.isnan(b), 1.0, b)), 1e-30)
    ok = bool(np.all(diff <= atol + rtol * np.abs(np.where(np.isnan(b), 0.0, b))))
    return float(diff.max()), float(rel.max()), ok


def check(binary, xla, model, work, rtol, atol):
    """A list of rows (output, dtype, shape, max abs err, max rel err, verdict, note) or a
    failure text."""
    folder = work / model.replace("/", "_")
    done = run(binary, "export", str(REPO / model), "-o", str(folder))
    if done.returncode != 0:
        return f"export failed: {done.stderr.strip()}"
    done = run(binary, "run", str(REPO / model), "--inputs", str(folder / "inputs"),
               "--save-outputs", str(folder / "ours"), "--save-exact", str(folder / "exact"),
               "--json")
    if done.returncode != 0:
        return f"interpreter failed: {done.stderr.strip()}"
    count = len(json.loads(done.stdout)["outputs"])
    ours = [xla.np.load(folder / "ours" / f"out_{i:03d}.npy") for i in range(count)]
    exact = [xla.np.load(folder / "exact" / f"out_{i:03d}.npy") for i in range(count)]
    inputs = xla_run.read_inputs(xla.np, folder)
    try:
        want = xla.run(xla.compile((folder / "original.hlo").read_text()), inputs)
    except Exception as error:  # noqa: BLE001  (XLA raises several types)
        return "XLA refused it: " + (str(error).strip().splitlines() or ["?"])[0]
    rows = []
    if len(want) != len(ours):
        return f"{len(ours)} outputs, XLA has {len(want)}"
    for index, (got, ref) in enumerate(zip(ours, want)):
        if got.dtype.kind in "biu" or ref.dtype.kind in "biu":
            same = got.shape == ref.shape and bool((got == ref).all())
            err = 0.0 if same else float("inf")
            rows.append((index, str(ref.dtype), ref.shape, err, err, "ok" if same else "MISMATCH", ""))
            continue
        output_rtol = xla_run.effective_rtol(ref.dtype, rtol)
        abs_err, rel_err, ok = compare_floats(xla.np, got, ref, output_rtol, atol)
        verdict, note = "ok", ""
        if output_rtol != rtol:
            note = f"{ref.dtype}: rtol {output_rtol:.1e} ({xla_run.NARROW_ULPS} units of its precision)"
        if not ok:
            if got.shape != ref.shape or exact[index].shape != ref.shape:
                verdict = "MISMATCH"
            else:
                verdict, arbiter = xla_run.arbitrate(xla.np, got, ref, exact[index], output_rtol, atol)
                note = (note + "; " if note else "") + arbiter
        rows.append((index, str(ref.dtype), ref.shape, abs_err, rel_err, verdict, note))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fusescope")
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-6)
    args = parser.parse_args()
    # XLA may otherwise keep f32 precision across bf16/f16 ops (it drops the convert pairs
    # between them); the interpreter rounds every op to its element type, as the HLO says.
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_allow_excess_precision=false").strip()
    try:
        xla = xla_run.Xla()
    except ImportError as error:
        print(f"SKIP: jax/jaxlib not importable by {sys.executable} ({error})")
        return 77
    xla.jax.config.update("jax_enable_x64", True)  # f64 inputs and outputs stay f64
    start = time.monotonic()
    failures = 0
    print(f"{'model':52} {'outputs':>7} {'matched':>7} {'worst abs err':>13} {'worst rel err':>13}")
    with tempfile.TemporaryDirectory() as tmp:
        for model in MODELS:
            if model in EXCLUDED:
                print(f"{model:52} EXCLUDED: {EXCLUDED[model]}")
                continue
            result = check(args.fusescope, xla, model, Path(tmp), args.rtol, args.atol)
            if isinstance(result, str):
                failures += 1
                print(f"{model:52} FAILED: {result}")
                continue
            matched = sum(r[5] != "MISMATCH" for r in result)
            worst_abs = max((r[3] for r in result), default=0.0)
            worst_rel = max((r[4] for r in result), default=0.0)
            print(f"{model:52} {len(result):7} {matched:7} {worst_abs:13.2e} {worst_rel:13.2e}")
            for index, dtype, shape, abs_err, rel_err, verdict, note in result:
                if note:
                    print(f"    output {index} {dtype}{list(shape)} {verdict}, judged with {note}")
                if verdict == "MISMATCH":
                    failures += 1
                    print(f"    MISMATCH output {index} {dtype}{list(shape)}: abs {abs_err:.2e} rel {rel_err:.2e}")
    print(f"{len(MODELS)} models, {len(EXCLUDED)} excluded, {failures} failures, "
          f"{time.monotonic() - start:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
