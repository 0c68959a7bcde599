#!/usr/bin/env bash
# Packs what scripts/gpu_check.sh runs (the command line and the runtime and profiler test
# executables, debug info stripped) with every library they load but the C library's and the
# NVIDIA driver's, for a GPU machine that has the driver and the CUDA toolkit but not this
# build's packages (MLIR, LLVM, Qt, OpenBLAS, ...). The archive is cut into parts of at most
# PART_MB (default 40) so that each fits a transfer of limited size.
#   scripts/gpu_bundle.sh OUT_DIR [BUILD_DIR]      -> OUT_DIR/bundle.tar.xz.part-aa, -ab, ...
# On the GPU machine, once every part is there:
#   cat bundle.tar.xz.part-* | tar -xJ -C DIR && scripts/gpu_check.sh --prebuilt DIR/gpu
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu_bundle.sh OUT_DIR [BUILD_DIR]}
build=${2:-build}
part_mb=${PART_MB:-40}
binaries=("$build/app/fusescope" "$build/tests/fusescope_runtime_tests" "$build/tests/fusescope_profiler_tests")
cmake --build "$build" --target fusescope fusescope_runtime_tests fusescope_profiler_tests
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/gpu/bin" "$stage/gpu/lib" "$out"
for binary in "${binaries[@]}"; do
  strip --strip-debug -o "$stage/gpu/bin/$(basename "$binary")" "$binary"
done
# The C library and the loader come from the GPU machine; so does libcuda (opened at run time).
ldd "${binaries[@]}" | awk '/=>/ {print $3}' | sort -u |
  grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux[^/]*)\.so' |
  while read -r library; do cp -L "$library" "$stage/gpu/lib/"; done
rm -f "$out"/bundle.tar.xz.part-*
tar -C "$stage" -cf - gpu | xz -9 -T"$(nproc)" | split -b "${part_mb}M" - "$out/bundle.tar.xz.part-"
ls -l "$out"/bundle.tar.xz.part-*
