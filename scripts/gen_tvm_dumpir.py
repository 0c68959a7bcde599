#!/usr/bin/env python3
"""Writes a TVM DumpIR stage folder: an ONNX model through TVM's Relax default CPU pipeline.

usage: gen_tvm_dumpir.py MODEL.onnx OUT_DIR [--keep N-M,...]

Needs apache-tvm (0.27: `pip install apache-tvm apache-tvm-ffi==0.1.14.post1 onnx numpy`).
`tvm.ir.instrument.DumpIR(dir)` writes one `NNN_<Pass>.py` TVMScript file after every pass that
runs, numbered in run order. `tvm.compile(mod, "llvm")` on its own runs the generic Relax
pipeline, which does not fuse on CPU; the CPU backend's default pipeline
(`relax.get_default_pipeline(target)`, legalize -> FuseOps -> FuseTIR -> lower) is the one with
fusion, so it is passed explicitly. `--keep` keeps only the listed stage numbers (inclusive
ranges), so a test sample stays small; the numbers in the kept names are TVM's own.
"""

import argparse
import pathlib
import re
import shutil
import tempfile

import onnx
import tvm
from tvm import relax
from tvm.ir.instrument import DumpIR
from tvm.relax.frontend.onnx import from_onnx


def kept(spec):
    numbers = set()
    for part in spec.split(","):
        low, _, high = part.partition("-")
        numbers.update(range(int(low), int(high or low) + 1))
    return numbers


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("out")
    parser.add_argument("--keep", help="stage numbers to keep, e.g. 0-19,38,76")
    args = parser.parse_args()
    mod = from_onnx(onnx.load(args.model), keep_params_in_input=False)
    target = tvm.target.Target("llvm")
    with tempfile.TemporaryDirectory() as scratch:
        with tvm.transform.PassContext(opt_level=3, instruments=[DumpIR(scratch)]):
            tvm.compile(mod, target, relax_pipeline=relax.get_default_pipeline(target))
        out = pathlib.Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        keep = kept(args.keep) if args.keep else None
        for path in sorted(pathlib.Path(scratch).iterdir()):
            number = int(re.match(r"\d+", path.name).group(0))
            if keep is None or number in keep:
                shutil.copy(path, out / path.name)


if __name__ == "__main__":
    main()
