#!/usr/bin/env bash
# End-to-end checks of the `fusescope` executable: exit codes, one-line errors, JSON output,
# and the headless commands over real files. Usage: run_cli_tests.sh FUSESCOPE SOURCE_DIR
set -u
fs=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }

# expect_ok NAME CMD...: exit 0, stdout to $tmp/out, stderr to $tmp/err.
expect_ok() {
  local name=$1; shift
  if "$@" >"$tmp/out" 2>"$tmp/err"; then ok; else bad "$name (exit $?): $(head -3 "$tmp/err")"; fi
}
# expect_error NAME PATTERN CMD...: non-zero exit, exactly one stderr line matching PATTERN,
# nothing on stdout.
expect_error() {
  local name=$1 pattern=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  local lines
  lines=$(wc -l <"$tmp/err")
  if [[ $rc -eq 0 ]]; then bad "$name: exit 0, expected failure"; return; fi
  if [[ $rc -ge 128 ]]; then bad "$name: crashed (exit $rc)"; return; fi
  if [[ $lines -ne 1 ]]; then bad "$name: $lines stderr lines: $(cat "$tmp/err")"; return; fi
  if [[ -s "$tmp/out" ]]; then bad "$name: partial output on stdout"; return; fi
  if ! grep -Eq "$pattern" "$tmp/err"; then bad "$name: '$(cat "$tmp/err")' !~ /$pattern/"; return; fi
  ok
}
contains() {
  local name=$1 pattern=$2 file=$3
  if grep -Eq "$pattern" "$file"; then ok; else bad "$name: no /$pattern/ in output"; fi
}
json_ok() {
  local name=$1 expr=$2
  if python3 -c "import json,sys; d=json.load(open('$tmp/out')); sys.exit(0 if ($expr) else 1)"; then
    ok
  else
    bad "$name: JSON check failed: $expr"
  fi
}

# --- stats and print on the built-in samples
for sample in mlp bert_encoder resnet_block; do
  expect_ok "stats $sample" "$fs" stats "sample:$sample"
  contains "stats $sample text" '^  instructions: +[0-9]+' "$tmp/out"
  expect_ok "stats $sample json" "$fs" stats "sample:$sample" --json
  json_ok "stats $sample json" "d['instructions'] > 10 and d['computations'] >= 1 and sum(d['opcodes'].values()) == d['instructions']"
  expect_ok "print $sample" "$fs" print "sample:$sample"
  cp "$tmp/out" "$tmp/p1.hlo"
  expect_ok "print printed $sample" "$fs" print "$tmp/p1.hlo"
  if cmp -s "$tmp/out" "$tmp/p1.hlo"; then ok; else bad "print is not a fixed point for $sample"; fi
  expect_ok "print canonical $sample" "$fs" print "sample:$sample" --canonical
done

# --- real XLA output
for f in "$src"/tests/data/*/*.hlo "$src"/tests/data/*/*.txt; do
  [[ -f $f ]] || continue
  expect_ok "stats $(basename "$f")" "$fs" stats "$f" --json
  json_ok "stats $(basename "$f") json" "d['instructions'] > 0"
  break
done

# --- bad input: one line, FILE:LINE:COL where it applies, no crash, no partial output
printf 'HloModule m\n\nENTRY main {\n  p = f32[8] parameter(0)\n  ROOT a = f32[8] add(p, q)\n}\n' >"$tmp/undef.hlo"
expect_error "undefined operand" "^$tmp/undef.hlo:5:[0-9]+: .*q" "$fs" stats "$tmp/undef.hlo"
printf 'HloModule m\n\nENTRY main {\n  p = f32[8 parameter(0)\n' >"$tmp/trunc.hlo"
expect_error "malformed shape" "^$tmp/trunc.hlo:4:[0-9]+: " "$fs" print "$tmp/trunc.hlo"
printf '\x00\x01garbage' >"$tmp/garbage.hlo"
expect_error "binary garbage" "^$tmp/garbage.hlo:1:1: " "$fs" stats "$tmp/garbage.hlo"
expect_error "missing file" "$tmp/none.hlo" "$fs" stats "$tmp/none.hlo"
expect_error "unknown sample" "no built-in sample" "$fs" stats sample:nope
expect_error "bad --pass" "integer" "$fs" stats sample:mlp --pass x
expect_error "unknown option" "unknown option" "$fs" stats sample:mlp --bogus
expect_error "unknown command" "unknown command" "$fs" frobnicate

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
