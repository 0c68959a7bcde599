#!/usr/bin/env bash
# Regenerates tests/data/kernels: the lowering stages of two fusions of sample:mlp, written by
# MLIR 19 itself (mlir-opt --mlir-print-ir-after-all, mlir-translate, llc), so that the kernel
# store, `fusescope kernel` and the Kernel view are tested on real MLIR, LLVM IR and assembly.
# add_reduce_fusion stops before convert-to-llvm: the fixture's failed kernel keeps the stages
# before the one that failed.
set -euo pipefail
dir=$(cd "$(dirname "$0")/../tests/data/kernels" && pwd)
cd "$dir"
lower='func.func(linalg-fuse-elementwise-ops,canonicalize),one-shot-bufferize{bufferize-function-boundaries},func.func(convert-linalg-to-loops,lower-affine),convert-scf-to-cf'
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mlir-opt-19 broadcast_maximum_fusion.mlir --mlir-print-ir-after-all \
  --pass-pipeline="builtin.module($lower,convert-to-llvm,reconcile-unrealized-casts)" \
  -o "$tmp/llvm.mlir" 2>broadcast_maximum_fusion.passes.log
mlir-translate-19 --mlir-to-llvmir "$tmp/llvm.mlir" -o broadcast_maximum_fusion.ll
llc-19 -O2 broadcast_maximum_fusion.ll -o broadcast_maximum_fusion.s
mlir-opt-19 add_reduce_fusion.mlir --mlir-print-ir-after-all \
  --pass-pipeline="builtin.module($lower)" -o /dev/null 2>add_reduce_fusion.passes.log
