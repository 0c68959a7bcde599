#!/usr/bin/env bash
# The checks that need an NVIDIA GPU, as one script for a machine that has one: builds the
# runtime and profiler tests and the CLI (no workbench), runs the GPU tests (PTX lowering,
# the driver running a launch plan, the CUDA executable against the interpreter, the GEMM
# mapping, CUPTI activity mapped to fusions and its overhead), `fusescope machine`, and
# bert_encoder run and profiled on the GPU through the CLI.
# Results go to $OUT (default: out/gpu) as text files. Without a GPU the GPU tests skip with
# the driver's sentence, which is what CI sees.
# A GPU machine that lacks the build's packages (MLIR, Qt, ...) runs binaries built elsewhere:
# `scripts/gpu_bundle.sh DIR` packs them with their libraries, and `--prebuilt DIR` (the
# unpacked bundle: DIR/bin, DIR/lib) runs them instead of building.
# Usage: scripts/gpu_check.sh [-j JOBS] [--prebuilt DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/gpu}
jobs=$(nproc)
prebuilt=
while [[ $# -gt 0 ]]; do
  case $1 in
    -j) jobs=$2; shift 2 ;;
    --prebuilt) prebuilt=$2; shift 2 ;;
    *) echo "usage: scripts/gpu_check.sh [-j JOBS] [--prebuilt DIR]" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
if [[ -n $prebuilt ]]; then
  tests=$prebuilt/bin cli=$prebuilt/bin/fusescope
  # The CUDA toolkit's libraries (cuBLAS, CUPTI) wherever this machine keeps them, after ours.
  cuda_dirs=$(find / -xdev \( -name 'libcupti.so*' -o -name 'libcublas.so.13' \) -printf '%h\n' 2>/dev/null |
              sort -u | paste -sd:)
  export LD_LIBRARY_PATH=$prebuilt/lib:${cuda_dirs}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  # The tests read their data from the source folder they were built in.
  src=$(strings "$tests/fusescope_runtime_tests" | grep -m1 -o '^/.*/tests/runtime/' | sed 's,/tests/runtime/$,,')
  if [[ -n $src && ! -e $src ]]; then mkdir -p "$(dirname "$src")" && ln -s "$PWD" "$src"; fi
  { nvidia-smi 2>&1 | head -15; echo "prebuilt: $prebuilt; LD_LIBRARY_PATH=$LD_LIBRARY_PATH; sources: $src"
    ldd "$cli" "$tests"/fusescope_*_tests | grep "not found"; } >"$out/build.txt" 2>&1
  echo "prebuilt binaries from $prebuilt (see $out/build.txt)"
else
  tests=build-gpu/tests cli=build-gpu/app/fusescope
  {
    nvidia-smi 2>&1 | head -15
    cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFUSESCOPE_BUILD_GUI=OFF \
          -DFUSESCOPE_BUILD_BENCH=OFF >/dev/null &&
      cmake --build build-gpu -j "$jobs" --target fusescope_runtime_tests fusescope_profiler_tests fusescope
  } >"$out/build.txt" 2>&1
  echo "build: exit $? (see $out/build.txt)"
fi
"$tests"/fusescope_runtime_tests --gtest_filter='Ptx*:Cuda*:GemmPlan*' >"$out/runtime_gpu_tests.txt" 2>&1
echo "runtime GPU tests: exit $?"
"$tests"/fusescope_profiler_tests --gtest_filter='Cupti*' >"$out/cupti_tests.txt" 2>&1
echo "CUPTI tests: exit $?"
"$cli" machine >"$out/machine.txt" 2>&1
"$cli" run sample:bert_encoder --device cuda >"$out/run_bert_cuda.txt" 2>&1
echo "run bert_encoder on cuda: exit $?"
"$cli" profile sample:bert_encoder --device cuda --reps 20 >"$out/profile_bert_cuda.txt" 2>&1
echo "profile bert_encoder on cuda: exit $?"
"$cli" profile sample:bert_encoder --device cuda --reps 20 --json \
  >"$out/profile_bert_cuda.json" 2>"$out/profile_bert_cuda_json.err"
echo "profile bert_encoder on cuda (JSON): exit $?"
grep -h "CUPTI overhead\|SKIPPED\|FAILED\|PASSED" "$out"/*_tests.txt
grep -h "^gpu:" "$out/machine.txt"
grep -h "matches\|DIFFERS\|kernels:" "$out/run_bert_cuda.txt"
grep -h "^device:\|CUPTI overhead" "$out/profile_bert_cuda.txt"
