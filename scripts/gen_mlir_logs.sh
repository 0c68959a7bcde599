#!/usr/bin/env bash
# Regenerates the MLIR pass logs under tests/data/mlir from the inputs there:
#   mlir_opt_tosa_mlp.log      mlir-opt-19, a tosa MLP lowered to the LLVM dialect (32 passes)
#   mlir_opt_failed.log        mlir-opt-19 with before/after dumps and a failing one-shot-bufferize
#   mlir_opt_function_passes.log  mlir-opt-19, two functions through function passes (MLIR 19
#                              prints each function alone, no module), the inliner, and more
#   iree_stablehlo_abi.log   iree-compile (pip iree-base-compiler) on a stablehlo matmul+tanh,
#                              through input conversion to the ABI wrappers (pretty stablehlo, util.func)
#   mlp_stablehlo_generic.mlir jax's mlp (tests/data/mlp/stablehlo.mlir) in generic form, as
#                              iree-compile prints the module it refuses to compile to `start`
#   stages/N_name.mlir         mlir-opt-19, the tosa MLP lowered in five steps, one file each
#                              (a stage folder as ByteIR's and tt-mlir's tests write them)
# Usage: scripts/gen_mlir_logs.sh [IREE_COMPILE]   (default: .venv/bin/iree-compile)
set -euo pipefail
cd "$(dirname "$0")/../tests/data/mlir"
MLIR_OPT=${MLIR_OPT:-mlir-opt-19}
IREE_COMPILE=${1:-../../../.venv/bin/iree-compile}

"$MLIR_OPT" tosa_mlp.mlir --mlir-print-ir-after-all -o /dev/null \
  --pass-pipeline='builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,cse,func.func(linalg-fuse-elementwise-ops),linalg-generalize-named-ops,canonicalize,one-shot-bufferize{bufferize-function-boundaries},canonicalize,buffer-deallocation-pipeline,func.func(convert-linalg-to-loops),lower-affine,convert-scf-to-cf,canonicalize,cse,expand-strided-metadata,finalize-memref-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,convert-index-to-llvm,reconcile-unrealized-casts)' \
  2> mlir_opt_tosa_mlp.log

"$MLIR_OPT" two_functions.mlir --mlir-disable-threading --mlir-print-ir-after-all -o /dev/null \
  --pass-pipeline='builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,canonicalize,cse),inline,func.func(linalg-fuse-elementwise-ops,canonicalize))' \
  2> mlir_opt_function_passes.log

mkdir -p stages
rm -f stages/*.mlir
"$MLIR_OPT" tosa_mlp.mlir -o stages/1_input.mlir
"$MLIR_OPT" stages/1_input.mlir -o stages/2_tosa_to_linalg.mlir \
  --pass-pipeline='builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor))'
"$MLIR_OPT" stages/2_tosa_to_linalg.mlir -o stages/2b_linalg_fused.mlir \
  --pass-pipeline='builtin.module(canonicalize,cse,func.func(linalg-fuse-elementwise-ops),linalg-generalize-named-ops,canonicalize)'
"$MLIR_OPT" stages/2b_linalg_fused.mlir -o stages/3_bufferized.mlir \
  --pass-pipeline='builtin.module(one-shot-bufferize{bufferize-function-boundaries},canonicalize,buffer-deallocation-pipeline)'
"$MLIR_OPT" stages/3_bufferized.mlir -o stages/10_llvm.mlir \
  --pass-pipeline='builtin.module(func.func(convert-linalg-to-loops),lower-affine,convert-scf-to-cf,canonicalize,cse,expand-strided-metadata,finalize-memref-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,convert-cf-to-llvm,convert-func-to-llvm,convert-index-to-llvm,reconcile-unrealized-casts)'

# one-shot-bufferize cannot bufferize tosa ops: the pass fails after its Before dump.
"$MLIR_OPT" tosa_unbufferizable.mlir --mlir-print-ir-before-all --mlir-print-ir-after-all -o /dev/null \
  --pass-pipeline='builtin.module(canonicalize,cse,one-shot-bufferize{bufferize-function-boundaries},canonicalize)' \
  2> mlir_opt_failed.log || true

"$IREE_COMPILE" stablehlo_matmul_tanh.mlir --iree-input-type=stablehlo \
  --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu \
  --compile-to=abi --mlir-print-ir-after-all --mlir-disable-threading -o /dev/null \
  2> iree_stablehlo_abi.log
# iree-compile prints the module it was given in its error note; that note is the generic form.
"$IREE_COMPILE" ../mlp/stablehlo.mlir --compile-to=start --mlir-print-op-generic -o /dev/null 2>&1 |
  sed -n '/^"builtin.module"/,$p' > mlp_stablehlo_generic.mlir
# The version goes into tests/data/README.md (a .txt here would be taken for an XLA dump file).
"$IREE_COMPILE" --version | head -2 | tail -1
