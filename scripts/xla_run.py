#!/usr/bin/env python3
"""Runs an exported snapshot with XLA and compares it with the original module.

`fusescope export RUN.fsdb --pass N -o DIR` writes DIR/original.hlo, DIR/snapshot.hlo,
DIR/snapshot.inlined.hlo (fusions put back in place: XLA compiles unoptimized modules only)
and DIR/inputs/arg_*.npy. This script hands both modules to XLA's CPU client through jaxlib
(HLO text -> XLA's parser -> StableHLO -> compile), runs them on the inputs and prints the
largest absolute and relative error per output. Exit status 0 when every output matches
within --rtol, 1 when one does not, 2 when XLA refuses a module.

Usage: scripts/xla_run.py DIR [--rtol 1e-5] [--atol 1e-6]
"""

import argparse
import os
import sys
from pathlib import Path


def load_xla():
    """(jax, numpy, xla_client, _jax); raises ImportError without jax."""
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import numpy as np
    import jax
    import jax.extend  # noqa: F401  (registers jax.extend.backend)
    from jax._src.lib import _jax, xla_client

    jax.config.update("jax_platforms", "cpu")
    return jax, np, xla_client, _jax


class Xla:
    """XLA's CPU client, one device."""

    def __init__(self):
        self.jax, self.np, self.xla_client, self._jax = load_xla()
        self.backend = self.jax.extend.backend.get_backend("cpu")
        self.device = self.backend.local_devices()[0]

    def parse(self, text):
        """XLA's own HLO text parser; raises on what it refuses."""
        return self.xla_client.hlo.hlo_module_from_text(text)

    def compile(self, text):
        module = self.parse(text)
        computation = self.xla_client.XlaComputation(module.as_serialized_hlo_module_proto())
        mlir = self._jax.mlir.xla_computation_to_mlir_module(computation)
        return self.backend.compile_and_load(mlir, self._jax.DeviceList((self.device,)),
                                             self._jax.CompileOptions())

    def run(self, executable, args):
        buffers = [self.jax.device_put(a, self.device) for a in args]
        return [self.np.asarray(out) for out in executable.execute(buffers)]


def read_inputs(np, folder):
    return [np.load(path) for path in sorted((Path(folder) / "inputs").glob("arg_*.npy"))]


def compare(np, got, want, rtol, atol):
    """Per output (max_abs_err, max_rel_err, ok); a missing or misshapen output fails.
    max_rel_err is taken over elements whose expected magnitude exceeds atol."""
    results = []
    for index in range(max(len(got), len(want))):
        if index >= len(got) or index >= len(want) or got[index].shape != want[index].shape:
            results.append((float("inf"), float("inf"), False))
            continue
        a = got[index].astype(np.float64)
        b = want[index].astype(np.float64)
        both_nan = np.isnan(a) & np.isnan(b)
        diff = np.where(both_nan, 0.0, np.abs(a - b))
        bound = atol + rtol * np.abs(b)
        abs_err = float(np.max(diff)) if diff.size else 0.0
        # Relative error where it means something: elements larger than atol. Below it (sums
        # that cancel to ~0), only the absolute error is meaningful and atol bounds it.
        significant = np.abs(b) > atol
        rel_err = (float(np.max(np.where(significant, diff / np.where(significant, np.abs(b), 1.0),
                                         0.0))) if diff.size else 0.0)
        ok = bool(np.all(diff <= bound)) if diff.size else True
        results.append((abs_err, rel_err, ok))
    return results


NARROW_ULPS = 4  # as runtime/output_judgement.h


def effective_rtol(dtype, rtol):
    """rtol for outputs of `dtype`: narrow floats are held to their own precision."""
    bits = {"float16": 10, "bfloat16": 7}.get(str(dtype))
    return max(rtol, NARROW_ULPS * 2.0 ** -bits) if bits else rtol


def distance(np, a, x):
    """max |a - x|, NaN matching NaN and equal infinities matching."""
    a = a.astype(np.float64)
    same = (np.isnan(a) & np.isnan(x)) | (a == x)
    diff = np.where(same, 0.0, np.abs(a - x))
    return float(np.where(np.isnan(diff), np.inf, diff).max()) if diff.size else 0.0


def arbitrate(np, got, ref, exact, rtol, atol, names=("interpreter", "XLA")):
    """(verdict, note): a candidate's output `got` against the reference `ref`, judged by the
    exact (f64) answer: "ok (exact)" when the candidate is no further from it than the
    reference plus the tolerance, "ill-conditioned" when the reference itself is further than
    the tolerance from it, else "MISMATCH" (runtime/output_judgement.h)."""
    finite = np.abs(exact[np.isfinite(exact)])
    tolerance = atol + rtol * (float(finite.max()) if finite.size else 0.0)
    ours_off = distance(np, got, exact)
    xla_off = distance(np, ref, exact)
    note = (f"f64 arbiter: {names[0]} off the exact answer by {ours_off:.2e}, {names[1]} by "
            f"{xla_off:.2e}")
    if ours_off <= xla_off + tolerance:
        return "ok (exact)", note
    if xla_off > tolerance:
        return "ill-conditioned", note
    return "MISMATCH", note


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--rtol", type=float, default=1e-5)
    parser.add_argument("--atol", type=float, default=1e-6)
    args = parser.parse_args()
    try:
        xla = Xla()
    except ImportError as error:
        print(f"xla_run: jax is not importable ({error}); set FUSESCOPE_PYTHON to a Python "
              "with jax and jaxlib", file=sys.stderr)
        return 2
    inputs = read_inputs(xla.np, args.folder)
    outputs = {}
    for name in ("original.hlo", "snapshot.inlined.hlo"):
        try:
            executable = xla.compile((args.folder / name).read_text())
        except Exception as error:  # noqa: BLE001  (XLA raises several types)
            print(f"{name}: XLA refused it: {str(error).strip().splitlines()[0]}")
            return 2
        outputs[name] = xla.run(executable, inputs)
    results = compare(xla.np, outputs["snapshot.inlined.hlo"], outputs["original.hlo"],
                      args.rtol, args.atol)
    for index, (abs_err, rel_err, ok) in enumerate(results):
        print(f"output {index}: {'ok' if ok else 'MISMATCH'} max_abs_err={abs_err:.3e} "
              f"max_rel_err={rel_err:.3e}")
    return 0 if all(ok for _, _, ok in results) else 1


if __name__ == "__main__":
    sys.exit(main())
