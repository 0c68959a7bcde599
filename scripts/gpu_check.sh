#!/usr/bin/env bash
# The checks that need an NVIDIA GPU, as one script for a machine that has one: builds the
# runtime and profiler tests and the CLI (no workbench), runs the GPU tests (PTX lowering,
# the driver running a launch plan, the CUDA executable against the interpreter, the GEMM
# mapping, CUPTI activity mapped to fusions and its overhead), `fusescope machine`, and
# bert_encoder run and profiled on the GPU through the CLI.
# Results go to $OUT (default: out/gpu) as text files. Without a GPU the GPU tests skip with
# the driver's sentence, which is what CI sees.
# Usage: scripts/gpu_check.sh [-j JOBS]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-out/gpu}
jobs=$(nproc)
[[ ${1:-} == -j ]] && jobs=$2
mkdir -p "$out"
{
  nvidia-smi 2>&1 | head -15
  cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFUSESCOPE_BUILD_GUI=OFF \
        -DFUSESCOPE_BUILD_BENCH=OFF >/dev/null &&
    cmake --build build-gpu -j "$jobs" --target fusescope_runtime_tests fusescope_profiler_tests fusescope
} >"$out/build.txt" 2>&1
echo "build: exit $? (see $out/build.txt)"
build-gpu/tests/fusescope_runtime_tests --gtest_filter='Ptx*:Cuda*:GemmPlan*' >"$out/runtime_gpu_tests.txt" 2>&1
echo "runtime GPU tests: exit $?"
build-gpu/tests/fusescope_profiler_tests --gtest_filter='Cupti*' >"$out/cupti_tests.txt" 2>&1
echo "CUPTI tests: exit $?"
build-gpu/app/fusescope machine >"$out/machine.txt" 2>&1
build-gpu/app/fusescope run sample:bert_encoder --device cuda >"$out/run_bert_cuda.txt" 2>&1
echo "run bert_encoder on cuda: exit $?"
build-gpu/app/fusescope profile sample:bert_encoder --device cuda --reps 20 >"$out/profile_bert_cuda.txt" 2>&1
echo "profile bert_encoder on cuda: exit $?"
build-gpu/app/fusescope profile sample:bert_encoder --device cuda --reps 20 --json \
  >"$out/profile_bert_cuda.json" 2>"$out/profile_bert_cuda_json.err"
echo "profile bert_encoder on cuda (JSON): exit $?"
grep -h "CUPTI overhead\|SKIPPED\|FAILED\|PASSED" "$out"/*_tests.txt
grep -h "^gpu:" "$out/machine.txt"
grep -h "matches\|DIFFERS\|kernels:" "$out/run_bert_cuda.txt"
grep -h "^device:\|CUPTI overhead" "$out/profile_bert_cuda.txt"
