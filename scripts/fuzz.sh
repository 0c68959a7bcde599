#!/usr/bin/env bash
# Builds the HLO parser fuzzer (clang-19, libFuzzer + ASan + UBSan) in build-fuzz and runs it
# for SECONDS (default 60) on the seed corpus in fuzz/corpus. New inputs go to
# fuzz-corpus/hlo_parser; a crash is written to fuzz-corpus/crashes. Prints the exec count.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
seconds="${1:-60}"
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-fuzz"
cd "$root"

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DFUSESCOPE_FUZZ=ON -DFUSESCOPE_BUILD_GUI=OFF -DFUSESCOPE_BUILD_TESTS=OFF \
  -DFUSESCOPE_BUILD_BENCH=OFF >/dev/null
ninja -C "$build" -j2 hlo_parser_fuzzer

corpus="$root/fuzz-corpus/hlo_parser"
crashes="$root/fuzz-corpus/crashes"
mkdir -p "$corpus" "$crashes"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Undefined behaviour counts as a crash, not a warning in the log.
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
set +e
"$build/fuzz/hlo_parser_fuzzer" "$corpus" "$root/fuzz/corpus" \
  -dict="$root/fuzz/hlo.dict" -max_total_time="$seconds" -max_len=16384 -timeout=10 \
  -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$crashes/" 2>&1 | tee "$log" |
  grep --line-buffered -E '^(#[0-9]+[[:space:]]+(INITED|DONE|pulse)|==[0-9]+==|Done|SUMMARY|artifact_prefix|.*runtime error)'
status="${PIPESTATUS[0]}"
set -e
execs="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)"
echo "execs: ${execs:-unknown} in ${seconds}s, exit status ${status}"
exit "$status"
