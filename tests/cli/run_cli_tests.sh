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
  contains "stats $sample text" '^  operations: +[0-9]+' "$tmp/out"
  contains "stats $sample text" '^  fused instructions: +[0-9]+' "$tmp/out"
  expect_ok "stats $sample json" "$fs" stats "sample:$sample" --json
  json_ok "stats $sample json" "d['instructions'] > 10 and d['computations'] >= 1 and sum(d['opcodes'].values()) == d['instructions'] and d['operations'] + d['fused_instructions'] == d['instructions'] and sum(d['fused_opcodes'].values()) == d['fused_instructions']"
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

# --- compile, passes, why, diff, report over a recording of the default sample
for pipeline in cpu gpu; do
  run="$tmp/$pipeline.fsdb"
  expect_ok "compile $pipeline" "$fs" compile sample:mlp --pipeline "$pipeline" -o "$run" --json
  json_ok "compile $pipeline json" "d['fusions'] > 0 and d['decisions_refused'] > 0 and d['passes_changed'] > 0 and not d['failed']"
  expect_ok "passes $pipeline" "$fs" passes "$run" --json
  json_ok "passes $pipeline json" "len(d['passes']) > 5 and any(p['changed'] for p in d['passes']) and all(p['operations_before'] > 0 for p in d['passes'])"
  # Operations and fused instructions add up to all instructions, pass after pass.
  json_ok "passes $pipeline counts add up" "all(p['operations_' + s] + p['fused_instructions_' + s] == p['instructions_' + s] for p in d['passes'] for s in ('before', 'after')) and all(a['operations_after'] == b['operations_before'] for a, b in zip(d['passes'], d['passes'][1:]))"
  # A fusion pass lowers the operations; what it fused is counted inside its fusions.
  json_ok "passes $pipeline fusion lowers operations" "any(p['operations_after'] < p['operations_before'] and p['fusions_after'] > p['fusions_before'] and p['fused_instructions_after'] > p['fused_instructions_before'] for p in d['passes'] if 'fusion' in p['name'] and p['changed'])"
  changed_fusion=$(python3 -c "import json; print(next(p['index'] for p in json.load(open('$tmp/out'))['passes'] if 'fusion' in p['name'] and p['changed']))")
  fused_after=$(python3 -c "import json; print(next(p['fused_instructions_after'] for p in json.load(open('$tmp/out'))['passes'] if p['index'] == $changed_fusion))")
  expect_ok "passes $pipeline text" "$fs" passes "$run"
  contains "passes $pipeline text" ' ops +ops +delta +fusions +fused ' "$tmp/out"
  expect_ok "stats of recording" "$fs" stats "$run" --json
  json_ok "stats of recording" "d['fusions'] > 0"
  # The module after the fusion pass, counted from the rebuilt IR, agrees with the pass table.
  expect_ok "stats after fusion pass" "$fs" stats "$run" --pass "$changed_fusion" --json
  json_ok "stats after fusion pass" "d['fusions'] > 0 and d['fused_instructions'] == $fused_after"
  expect_ok "print input of recording" "$fs" print "$run" --pass -1
  contains "print input of recording" '^HloModule mlp' "$tmp/out"
done
run="$tmp/cpu.fsdb"
# A fusion pass and one refused pair out of the recording itself.
fusion_pass=$("$fs" passes "$run" --json | python3 -c "import json,sys; print(next(p['index'] for p in json.load(sys.stdin)['passes'] if 'fusion' in p['name']))")
expect_ok "diff text" "$fs" diff "$run" --pass "$fusion_pass"
contains "diff text names fusions" 'fusion' "$tmp/out"
expect_ok "diff json" "$fs" diff "$run" --pass "$fusion_pass" --json
expect_ok "diff svg" "$fs" diff "$run" --pass "$fusion_pass" --svg "$tmp/d.svg"
if python3 -c "import xml.dom.minidom,sys; xml.dom.minidom.parse('$tmp/d.svg')"; then ok; else bad "diff svg is not XML"; fi
# The softmax of the MLP sample: exp feeds both the sum and the divide, so fusing it would
# compute it twice; the refusal must be findable by the original names (through provenance).
exp=$("$fs" print "$run" --pass -1 | grep -oE '^ *exponential\.[0-9]+' | head -1 | tr -d ' ')
divide=$("$fs" print "$run" --pass -1 | grep -oE '^ *(ROOT )?divide\.[0-9]+' | head -1 | sed 's/ROOT //' | tr -d ' ')
expect_ok "why $exp $divide" "$fs" why "$run" "$exp" "$divide" --json
json_ok "why refused with reason" "len(d['decisions']) >= 1 and all(x['reason'] and x['explanation'] for x in d['decisions']) and any(not x['accepted'] for x in d['decisions'])"
expect_ok "why text" "$fs" why "$run" "$exp" "$divide"
contains "why text" 'refused \[' "$tmp/out"
expect_ok "report" "$fs" report "$run" -o "$tmp/r.html"
contains "report is self-contained" '<svg' "$tmp/r.html"
if grep -Eq '(src|href)="https?:' "$tmp/r.html"; then bad "report refers to the network"; else ok; fi
expect_ok "compile with options" "$fs" compile sample:bert_encoder -o "$tmp/b.fsdb" --disable-pass cse --fusion-limit max_instructions=4 --json
json_ok "disabled pass" "d['passes_run'] < d['passes']"
expect_error "unknown pass" "no pass named 'nope'" "$fs" compile sample:mlp -o "$tmp/x.fsdb" --disable-pass nope
expect_error "bad limit" "unknown fusion limit" "$fs" compile sample:mlp -o "$tmp/x.fsdb" --fusion-limit foo=1
expect_error "unknown pipeline" "unknown pipeline" "$fs" compile sample:mlp -o "$tmp/x.fsdb" --pipeline tpu
expect_error "pass out of range" "pass" "$fs" diff "$run" --pass 999
expect_error "why unknown name" "no instruction named" "$fs" why "$run" nope.1 nope.2
printf 'not a database at all, just text that is long enough' >"$tmp/corrupt.fsdb"
expect_error "corrupt recording" "corrupt.fsdb" "$fs" passes "$tmp/corrupt.fsdb"
head -c 3000 "$run" >"$tmp/truncated.fsdb"
expect_error "truncated recording" "truncated.fsdb: " "$fs" passes "$tmp/truncated.fsdb"
printf 'HloModule m\n\nENTRY main {\n  p = f32[8] parameter(0)\n  ROOT a = f32[8] add(p, q)\n}\n' >"$tmp/undef.hlo"
cp "$run" "$tmp/keep.fsdb"; before=$(md5sum <"$tmp/keep.fsdb")
expect_error "failed save keeps file" "." "$fs" compile "$tmp/undef.hlo" -o "$tmp/keep.fsdb"
if [[ "$(md5sum <"$tmp/keep.fsdb")" == "$before" ]]; then ok; else bad "a failed compile damaged an existing recording"; fi

# --- run and bisect: the reference interpreter
expect_ok "run sample" "$fs" run sample:mlp --json
json_ok "run sample json" "len(d['outputs']) == 1 and d['outputs'][0]['shape'] == 'f32[32,10]' and 'match' not in d"
"$fs" compile sample:mlp -o "$tmp/interp.fsdb" >/dev/null 2>&1
expect_ok "run recording" "$fs" run "$tmp/interp.fsdb" --json
json_ok "run recording json" "d['match'] and all(o['ok'] and o['max_abs_error'] < 1e-5 for o in d['outputs'])"
expect_ok "run recording text" "$fs" run "$tmp/interp.fsdb" --pass 3 --save-outputs "$tmp/outs"
contains "run text" 'max abs err .* ok$' "$tmp/out"
if [[ -s "$tmp/outs/out_000.npy" ]]; then ok; else bad "run --save-outputs wrote no out_000.npy"; fi
"$fs" export "$tmp/interp.fsdb" -o "$tmp/exported" >/dev/null 2>&1
expect_ok "run with exported inputs" "$fs" run "$tmp/interp.fsdb" --inputs "$tmp/exported/inputs" --json
json_ok "run exported inputs json" "d['match']"
expect_error "run --device" "only the reference interpreter exists so far" "$fs" run "$tmp/interp.fsdb" --device cuda
expect_error "run missing inputs" "arg_000.npy" "$fs" run sample:mlp --inputs "$tmp/nowhere"
printf 'HloModule m\n\nENTRY main {\n  p = f32[8] parameter(0)\n  ROOT c = f32[8] custom-call(p), custom_call_target="Secret"\n}\n' >"$tmp/cc.hlo"
expect_error "run custom-call" "c: custom-call Secret" "$fs" run "$tmp/cc.hlo"
expect_ok "bisect clean" "$fs" bisect "$tmp/interp.fsdb" --json
json_ok "bisect clean json" "d['first_bad_pass'] is None and all(p['ok'] for p in d['passes'])"
# Break the numbers inside every fused computation (add -> subtract) straight in the file: the
# first pass that made fusions must be named.
cp "$tmp/interp.fsdb" "$tmp/broken.fsdb"
python3 - "$tmp/broken.fsdb" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("update records set opcode='subtract', text=replace(text, ' add(', ' subtract(') "
           "where computation like 'fused%' and opcode='add'")
db.commit()
PY
first_fusion=$("$fs" passes "$tmp/interp.fsdb" --json | python3 -c "import json,sys; p=[x for x in json.load(sys.stdin)['passes'] if x['fusions_after'] > 0][0]; print(p['index'], p['name'])")
"$fs" bisect "$tmp/broken.fsdb" --json >"$tmp/out" 2>"$tmp/err"
if [[ $? -eq 1 ]]; then ok; else bad "bisect of a broken recording should exit 1"; fi
json_ok "bisect names the pass" "'%d %s' % (d['first_bad_pass']['index'], d['first_bad_pass']['name']) == '$first_fusion'"
"$fs" bisect "$tmp/broken.fsdb" >"$tmp/out" 2>"$tmp/err"
contains "bisect text" "^first pass whose outputs differ: #${first_fusion// /.*}" "$tmp/out"
expect_error "bisect model file" "not a recording" "$fs" bisect "$tmp/cc.hlo"
expect_error "bisect bad rtol" "rtol" "$fs" bisect "$tmp/interp.fsdb" --rtol abc

# --- bad input: one line, FILE:LINE:COL where it applies, no crash, no partial output
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
