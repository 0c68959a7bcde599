#!/usr/bin/env bash
# Writes the IREE test samples of tests/data/iree: iree-compile (pip's iree-base-compiler
# 3.13.0) on tests/data/mlir/stablehlo_matmul_tanh.mlir for llvm-cpu with
#  - --mlir-print-ir-after-all --mlir-print-ir-tree-dir: one file per pass and op scope; the
#    whole tree is ~750 files (6.7 MB), so a subset is kept: the module's first 20 passes, the
#    function passes run on @main between them, and the codegen of the one dispatch
#    (hal.executable, its variant, the module inside it, some passes on the dispatch
#    function: tiling, vectorization, bufferization), files and
#    folders as iree-compile named them;
#  - --iree-hal-dump-executable-files-to: the dispatch's sources, benchmark module, LLVM IR as
#    code generation wrote it (the linked and optimized .ll, ~140 KB each with the math library
#    linked in, are left out) and
#    assembly (binaries left out).
# usage: scripts/gen_iree_tree_dir.sh [IREE_COMPILE]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
compile="${1:-iree-compile}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
# Two runs: dumping executables adds passes, which renumbers the tree's files.
compile() {
  "$compile" "$root/tests/data/mlir/stablehlo_matmul_tanh.mlir" \
    --iree-hal-target-backends=llvm-cpu --iree-llvmcpu-target-cpu=generic \
    -o "$scratch/module.vmfb" "$@"
}
compile --mlir-print-ir-after-all --mlir-print-ir-tree-dir="$scratch/tree"
compile --iree-hal-dump-executable-files-to="$scratch/executables"

out="$root/tests/data/iree/print_ir_tree"
rm -rf "$out"
top=builtin_module_no-symbol-name
dispatch=$top/hal_executable_main_dispatch_0
variant=$dispatch/hal_executable_variant_embedded_elf_x86_64
inner=$variant/builtin_module_no-symbol-name
keep() {  # keep FOLDER GLOB...
  local folder=$1; shift
  mkdir -p "$out/$folder"
  for glob in "$@"; do
    for file in "$scratch/tree/$folder"/$glob; do
      if [[ -f "$file" ]]; then cp "$file" "$out/$folder/"; fi
    done
  done
}
keep "$top" '[0-9]_*.mlir' '1[0-9]_*.mlir' '16[45]_*.mlir'
keep "$top/util_func_main" '1[67]_*.mlir'
keep "$variant" '165_0_[0-2]_*.mlir'
keep "$inner" '165_0_1_[1-5]_*.mlir' '165_1_2_[68]_*.mlir'
keep "$inner/func_func_main_dispatch_0_matmul_4x16x8_f32" '165_0_1_3_9_*.mlir' \
  '165_1_2_6_1[4-9]_*.mlir' '165_1_2_6_4[0-8]_*.mlir'

exe="$root/tests/data/iree/executables"
rm -rf "$exe"
mkdir -p "$exe"
for file in "$scratch/executables"/*; do
  case "$file" in *.mlir | *.codegen.ll | *.s) cp "$file" "$exe/" ;; esac
done
du -sh "$out" "$exe"
