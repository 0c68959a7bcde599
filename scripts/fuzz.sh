#!/usr/bin/env bash
# Builds a libFuzzer target (clang-19, libFuzzer + ASan + UBSan) in build-fuzz and runs it for
# SECONDS (default 60). Targets:
#   hlo_parser  arbitrary bytes into the HLO parser (default); seeds in fuzz/corpus/hlo_parser
#   onnx        arbitrary bytes into the ONNX importer; seeds in fuzz/corpus/onnx (the models
#               of tests/data/onnx)
#   pipeline    generated valid modules through both built-in pipelines; seeds in
#               fuzz/corpus/pipeline (bytes for the generator, and HLO text of past bugs)
#   cpu_executable
#               generated valid modules through the CPU pipeline, compiled into CPU kernels
#               (MLIR JIT, OpenBLAS) and compared with the interpreter; seeds shared with
#               pipeline
#   xla_trace   bytes as a profiler trace (JSON or gzip) mapped onto a module; seeds in
#               fuzz/corpus/xla_trace
#   mlir_log    arbitrary bytes as an MLIR pass log: splitter, tolerant reader, IR built from
#               it, also as a model with StableHLO mapped onto HLO and verified; seeds in
#               fuzz/corpus/mlir_log (pieces of tests/data/mlir, jax programs)
#   xla_dump_file_name
#               arbitrary bytes as a file name of an XLA dump folder; seeds (real names) in
#               fuzz/corpus/xla_dump_file_name
#   fusion_process_dump
#               arbitrary bytes as XLA:GPU's priority_fusion_dump.txt (text protobuf); seeds
#               in fuzz/corpus/fusion_process_dump
#   tvmscript   arbitrary bytes as a TVM DumpIR stage file (TVMScript): reader and the IR built
#               from it; seeds in fuzz/corpus/tvmscript (files of tests/data/tvm_dumpir)
#   inductor_trace
#               arbitrary bytes as one graph's files of a PyTorch Inductor debug trace (cut at
#               NUL bytes: FX graphs, scheduler dumps, output_code.py, provenance mapping),
#               imported as a recording; seeds in fuzz/corpus/inductor_trace (tests/data/inductor)
#   tensorrt    arbitrary bytes as TensorRT's exported layer information, layer profile and
#               inference times, the engine graph built and printed back; seeds in
#               fuzz/corpus/tensorrt (the samples of tests/data/tensorrt)
# New inputs go to fuzz-corpus/TARGET; a crash is written to fuzz-corpus/crashes/TARGET-*.
# Further arguments go to libFuzzer as they are (e.g. -jobs=1, -seed=5). Prints the exec count.
#   scripts/fuzz.sh [SECONDS] [TARGET] [LIBFUZZER FLAGS...]
set -euo pipefail
seconds="${1:-60}"
target="${2:-hlo_parser}"
shift $(($# > 2 ? 2 : $#))
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-fuzz"
cd "$root"

seeds=""
case "$target" in
  hlo_parser | parser)
    target=hlo_parser
    flags=(-dict="$root/fuzz/hlo.dict" -max_len=16384 -timeout=10)
    ;;
  onnx)
    flags=(-max_len=16384 -timeout=10)
    ;;
  pipeline)
    # Generation reads at most a few thousand bytes; the limit is for the HLO text seeds.
    flags=(-max_len=24576 -timeout=60)
    ;;
  cpu_executable | cpu)
    target=cpu_executable
    seeds="$root/fuzz/corpus/pipeline"
    flags=(-max_len=4096 -timeout=120)
    ;;
  xla_trace)
    flags=(-max_len=65536 -timeout=10)
    ;;
  mlir_log)
    flags=(-dict="$root/fuzz/mlir.dict" -max_len=16384 -timeout=10)
    ;;
  xla_dump_file_name | dump_name)
    target=xla_dump_file_name
    flags=(-dict="$root/fuzz/xla_dump_file_name.dict" -max_len=512 -timeout=10)
    ;;
  fusion_process_dump)
    flags=(-max_len=16384 -timeout=10)
    ;;
  tvmscript)
    flags=(-dict="$root/fuzz/tvmscript.dict" -max_len=16384 -timeout=10)
    ;;
  tensorrt)
    flags=(-dict="$root/fuzz/tensorrt.dict" -max_len=16384 -timeout=10)
    ;;
  inductor_trace)
    flags=(-max_len=65536 -timeout=10)
    ;;
  *)
    echo "unknown fuzz target '$target' (known: hlo_parser, pipeline, cpu_executable, xla_trace, xla_dump_file_name, fusion_process_dump, tensorrt, mlir_log, tvmscript, inductor_trace, onnx)" >&2
    exit 2
    ;;
esac

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DFUSESCOPE_FUZZ=ON -DFUSESCOPE_BUILD_GUI=OFF -DFUSESCOPE_BUILD_TESTS=OFF -DFUSESCOPE_PACKAGING=OFF \
  -DFUSESCOPE_BUILD_BENCH=OFF >/dev/null
ninja -C "$build" -j2 "${target}_fuzzer"

corpus="$root/fuzz-corpus/$target"
crashes="$root/fuzz-corpus/crashes"
mkdir -p "$corpus" "$crashes"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Undefined behaviour counts as a crash, not a warning in the log.
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
set +e
"$build/fuzz/${target}_fuzzer" "$corpus" "${seeds:-$root/fuzz/corpus/$target}" "${flags[@]}" \
  -max_total_time="$seconds" -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$crashes/$target-" "$@" 2>&1 | tee "$log" |
  grep --line-buffered -E '^(#[0-9]+[[:space:]]+(INITED|DONE|pulse)|==[0-9]+==|Done|SUMMARY|artifact_prefix|generator bug|pass bug|CPU backend bug|.*runtime error)'
status="${PIPESTATUS[0]}"
set -e
execs="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)"
echo "$target execs: ${execs:-unknown} in ${seconds}s, exit status ${status}"
exit "$status"
