#!/usr/bin/env bash
# End-to-end checks of the `fusescope` executable: exit codes, one-line errors, JSON output,
# and the headless commands over real files.
# Usage: run_cli_tests.sh FUSESCOPE SOURCE_DIR [KERNEL_FIXTURE]
# KERNEL_FIXTURE (tests/kernel_fixture) writes a recording with kernels for `fusescope kernel`.
set -u
fs=$1
src=$2
kernel_fixture=${3:-}
# Kernels are compiled, not loaded from a cache, except where a check names one.
export FUSESCOPE_KERNEL_CACHE=off
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
# expect_usage NAME PATTERN CMD...: as expect_error, with the usage exit status 2.
expect_usage() {
  local name=$1 pattern=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [[ $rc -ne 2 ]]; then bad "$name: exit $rc, expected 2: $(head -3 "$tmp/err")"; return; fi
  if [[ $(wc -l <"$tmp/err") -ne 1 ]]; then bad "$name: stderr: $(cat "$tmp/err")"; return; fi
  if [[ -s "$tmp/out" ]]; then bad "$name: partial output on stdout"; return; fi
  if ! grep -Eq "$pattern" "$tmp/err"; then bad "$name: '$(cat "$tmp/err")' !~ /$pattern/"; return; fi
  ok
}
# same NAME ACTUAL EXPECTED
same() { if [[ "$2" == "$3" ]]; then ok; else bad "$1: $2, expected $3"; fi; }
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
# What a pass does, by the names compilers print it under; an unknown pass says so.
expect_ok "explain" "$fs" explain "Canonicalizer (canonicalize)" --json
json_ok "explain" "d['pass'] == 'canonicalize' and d['does'] and d['looks_for'] and d['cannot'] and d['docs']"
expect_ok "explain text" "$fs" explain priority-fusion
contains "explain text" 'what it does: ' "$tmp/out"
expect_error "explain unknown pass" "no explanation is written for pass 'no-such-pass'" "$fs" explain no-such-pass
expect_ok "explain list" "$fs" explain --list
# Lessons: each built-in one walks through; its recording is kept with -o; a lesson that does
# not fit its model fails naming the step; syntax errors carry FILE:LINE:COL.
expect_ok "lesson list" "$fs" lesson --list --json
json_ok "lesson list" "len(d) >= 3 and all(l['steps'] > 0 for l in d) and {'lesson:mlp_fusion', 'lesson:reduction_not_fused', 'lesson:graph_to_kernel'} <= {l['name'] for l in d}"
expect_ok "lesson mlp" "$fs" lesson lesson:mlp_fusion -o "$tmp/lesson.fsdb" --json
json_ok "lesson mlp" "len(d['steps']) == 6 and d['steps'][1]['pass_name'] == 'fusion' and d['steps'][3]['decision']['accepted'] is False and d['steps'][4]['what_if_result']['different'] > 0"
expect_ok "lesson on its recording" "$fs" lesson lesson:mlp_fusion --recording "$tmp/lesson.fsdb" --step 4
contains "lesson step text" '^Step 4/6  A pair it refused' "$tmp/out"
contains "lesson step decision" 'refused %exponential.35 -> %broadcast_divide_fusion \[expensive_duplication\]' "$tmp/out"
expect_ok "lesson what-if gpu" "$fs" lesson lesson:reduction_not_fused --step 5
contains "lesson what-if gpu" 'option target = gpu' "$tmp/out"
expect_ok "lesson kernels" "$fs" lesson lesson:graph_to_kernel --json
json_ok "lesson kernels" "d['steps'][-1]['kernel'] == 'subtract_exponential_fusion' and d['steps'][-1]['stage'] == 'asm'"
printf 'lesson: L\nmodel: sample:mlp\nstep: A\npass: fusion\nselect: reduce.99\ntext: t\n' >"$tmp/bad_node.lesson"
expect_error "lesson missing node" "bad_node.lesson:5:9: step 1 \('A'\): no node named 'reduce.99' before or after pass 7 \(fusion\)" "$fs" lesson "$tmp/bad_node.lesson"
printf 'lesson: L\nmodel: sample:mlp\nstep: A\nshow: film\ntext: t\n' >"$tmp/bad_view.lesson"
expect_error "lesson bad view" "bad_view.lesson:4:7: unknown view 'film'" "$fs" lesson "$tmp/bad_view.lesson"
printf 'lesson: L\nmodel: sample:mlp\nstep: A\ntext: t\nwhat-if: --fusion-limit bogus=1\n' >"$tmp/bad_whatif.lesson"
expect_error "lesson bad what-if" "bad_whatif.lesson:5:10: step 1 \('A'\): unknown fusion limit 'bogus'" "$fs" lesson "$tmp/bad_whatif.lesson"
printf 'lesson: L\nmodel: missing.hlo\nstep: A\ntext: t\n' >"$tmp/bad_model.lesson"
expect_error "lesson missing model" "bad_model.lesson: model: .*missing.hlo" "$fs" lesson "$tmp/bad_model.lesson"
expect_error "lesson missing file" "no-such.lesson: cannot read the lesson file" "$fs" lesson "$tmp/no-such.lesson"
expect_error "lesson unknown builtin" "no built-in lesson 'lesson:nope'" "$fs" lesson lesson:nope
expect_error "lesson step range" "lesson: --step 9 is out of range \(1 to 6\)" "$fs" lesson lesson:mlp_fusion --step 9
# XLA:GPU's own priority-fusion decisions (a sample in its documented dump layout).
expect_ok "import xla gpu fusion dump" "$fs" import "$src/tests/data/xla_gpu_fusion_dump" -o "$tmp/xla_gpu.fsdb" --json
json_ok "import xla gpu fusion dump" "d['xla_decisions'] == 23 and d['warnings'] == []"
expect_ok "why on xla's decision" "$fs" why "$tmp/xla_gpu.fsdb" broadcast.21 maximum.22
contains "why on xla's decision" 'XLA fused %broadcast.21 into %maximum.22 .*cost model: 2.00 us fused' "$tmp/out"
# A what-if: the same model with a fusion size limit of 4 and cse off, compared with the run.
expect_ok "what-if compile" "$fs" compile sample:mlp --fusion-limit max_instructions=4 --disable-pass cse -o "$tmp/whatif.fsdb"
"$fs" compile sample:mlp -o "$tmp/base.fsdb" >/dev/null
expect_ok "diff two recordings" "$fs" diff "$tmp/base.fsdb" "$tmp/whatif.fsdb" --json
json_ok "diff two recordings" "{o['key'] for o in d['options']} >= {'disabled_passes', 'fusion.max_instructions'} and any(p['skipped_b'] and p['name_b'] == 'cse' for p in d['passes']) and d['edges_fused_only_a'] and all(e['other_reason'] for e in d['edges_fused_only_a'])"
expect_ok "diff two recordings text" "$fs" diff "$tmp/base.fsdb" "$tmp/whatif.fsdb"
contains "diff two recordings names the reason" 'size_limit: fusion would hold' "$tmp/out"
"$fs" compile sample:bert_encoder -o "$tmp/other_model.fsdb" >/dev/null
expect_error "diff of different models" "start from different modules" "$fs" diff "$tmp/base.fsdb" "$tmp/other_model.fsdb"
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
# A lesson's replay: from the lesson's own recording, and from a temporary one (removed after).
expect_ok "lesson recording" "$fs" lesson lesson:mlp_fusion -o "$tmp/lesson.fsdb" --check
expect_ok "report lesson" "$fs" report "$tmp/lesson.fsdb" --lesson lesson:mlp_fusion -o "$tmp/lesson.html"
contains "report lesson says what it wrote" "^wrote $tmp/lesson\.html: lesson replay, 6 steps, [0-9]+ bytes\$" "$tmp/out"
contains "report lesson last step" '<article class="step" id="step-6"' "$tmp/lesson.html"
contains "report lesson what-if" 'What if: <code>--fusion-limit max_instructions=3</code>' "$tmp/lesson.html"
contains "report lesson refusal" '<span class="outcome refused">refused to fuse</span> %exponential' "$tmp/lesson.html"
if grep -Eq 'https?://|src="//' "$tmp/lesson.html"; then bad "lesson replay names a URL"; else ok; fi
mkdir -p "$tmp/scratch"
expect_ok "report lesson without recording" env TMPDIR="$tmp/scratch" "$fs" report --lesson lesson:reduction_not_fused -o "$tmp/reduction.html"
contains "report lesson without recording" '<article class="step" id="step-5"' "$tmp/reduction.html"
contains "report lesson gpu what-if" 'What if: <code>--pipeline gpu</code>' "$tmp/reduction.html"
left=$(ls "$tmp/scratch" | grep fusescope-lesson); if [[ -z "$left" ]]; then ok; else bad "report --lesson left $left"; fi
expect_ok "report kernel lesson" env TMPDIR="$tmp/scratch" "$fs" report --lesson lesson:graph_to_kernel -o "$tmp/kernel.html"
contains "report kernel lesson stage" '<h3>Kernel subtract_exponential_fusion, stage [0-9]+ of [0-9]+: asm</h3>' "$tmp/kernel.html"
contains "report kernel lesson stage diff" '<summary>What this stage changed after ' "$tmp/kernel.html"
left=$(ls "$tmp/scratch" | grep fusescope-lesson); if [[ -z "$left" ]]; then ok; else bad "report --lesson with kernels left $left"; fi
printf 'lesson: A node that is not there\nmodel: sample:mlp\n\nstep: Nowhere\npass: fusion\nselect: reduce.99\ntext: t\n' >"$tmp/bad.lesson"
expect_error "report lesson that does not resolve" "^$tmp/bad\.lesson:6:9: step 1 \('Nowhere'\): no node named 'reduce\.99' before or after pass [0-9]+ \(fusion\) \(is $tmp/lesson\.fsdb this lesson's recording\?" "$fs" report "$tmp/lesson.fsdb" --lesson "$tmp/bad.lesson" -o "$tmp/bad.html"
expect_error "report lesson that does not resolve, no recording" "^$tmp/bad\.lesson:6:9: step 1 \('Nowhere'\): no node named 'reduce\.99' before or after pass [0-9]+ \(fusion\)\$" "$fs" report --lesson "$tmp/bad.lesson" -o "$tmp/bad.html"
if [[ -e "$tmp/bad.html" ]]; then bad "a lesson that does not resolve wrote a replay"; else ok; fi
expect_error "report lesson on another model's recording" "^lesson:mlp_fusion:9:9: step 1 .*no node named 'dot\.17'" "$fs" report "$tmp/other_model.fsdb" --lesson lesson:mlp_fusion -o "$tmp/bad.html"
expect_error "report lesson file missing" "^$tmp/missing\.lesson: cannot read the lesson file\$" "$fs" report "$tmp/lesson.fsdb" --lesson "$tmp/missing.lesson" -o "$tmp/bad.html"
expect_error "report lesson recording missing" "^$tmp/missing\.fsdb: " "$fs" report "$tmp/missing.fsdb" --lesson lesson:mlp_fusion -o "$tmp/bad.html"
expect_error "report lesson unknown built-in" "no built-in lesson 'lesson:nope'" "$fs" report --lesson lesson:nope -o "$tmp/bad.html"
expect_error "report lesson --max-pictures" "^report: --max-pictures is for a recording's report" "$fs" report "$tmp/lesson.fsdb" --lesson lesson:mlp_fusion -o "$tmp/bad.html" --max-pictures 2
# --set: the pipeline's options by name, listed by --list-options as docs/what-if.md shows them.
expect_ok "list options" "$fs" compile --list-options
contains "list options" '^fusion\.max_operands +64 +operands plus outputs one fusion may have' "$tmp/out"
contains "list options gpu" '^gpu\.kernel_launch_us +1 us +gpu cost model' "$tmp/out"
if python3 - "$src/docs/what-if.md" "$tmp/out" <<'PY'
import sys
doc = open(sys.argv[1]).read().split('<!-- fusescope compile --list-options -->\n```text\n', 1)[1]
sys.exit(0 if doc.split('```', 1)[0] == open(sys.argv[2]).read() else 1)
PY
then ok; else bad "docs/what-if.md does not show what compile --list-options prints"; fi
expect_ok "list options json" "$fs" compile --list-options --json
json_ok "list options json" "len(d['options']) == 10 and any(o['key'] == 'fusion.max_operands' and o['alias'] == 'fusion.max_operands_and_outputs' and o['default'] == '64' and o['accepts'] == 'an integer from 1 to 1000000' for o in d['options'])"
"$fs" compile sample:bert_encoder -o "$tmp/bert_a.fsdb" >/dev/null
expect_ok "compile --set" "$fs" compile sample:bert_encoder --set fusion.max_operands=8 -o "$tmp/bert_b.fsdb" --json
expect_ok "diff --set" "$fs" diff "$tmp/bert_a.fsdb" "$tmp/bert_b.fsdb" --json
json_ok "diff --set" "[(o['key'], o['a'], o['b']) for o in d['options']] == [('fusion.max_operands', '64', '8')] and any(r['refused_by'] == 'b' and r['reason'] == 'too_many_operands' and r['members'] for f in d['different_fusions'] for r in f['refusals'])"
expect_ok "diff --set text" "$fs" diff "$tmp/bert_a.fsdb" "$tmp/bert_b.fsdb"
contains "diff --set text: the option" '^  fusion\.max_operands +A: 64 +B: 8$' "$tmp/out"
contains "diff --set text: B's refusal under the fusion" '^      B refused [a-z_.0-9]+ -> [a-z_.0-9]+ in fusion \(#[0-9]+\): too_many_operands: fusion would have 9 operands\+outputs, limit is 8 \[keeps out ' "$tmp/out"
expect_ok "fusion-limit long name" "$fs" compile sample:bert_encoder --fusion-limit max_operands_and_outputs=8 -o "$tmp/bert_limit.fsdb"
expect_ok "fusion-limit is --set" "$fs" diff "$tmp/bert_b.fsdb" "$tmp/bert_limit.fsdb" --json
json_ok "fusion-limit is --set" "d['options'] == [] and d['different_fusions'] == [] and d['fusions_only_a'] == []"
expect_ok "compile --set gpu cost model" "$fs" compile sample:bert_encoder --pipeline gpu --set gpu.kernel_launch_us=0 --set gpu.memory_bandwidth_gb_per_s=100000 -o "$tmp/gpu_b.fsdb"
"$fs" compile sample:bert_encoder --pipeline gpu -o "$tmp/gpu_a.fsdb" >/dev/null
expect_ok "diff gpu cost model" "$fs" diff "$tmp/gpu_a.fsdb" "$tmp/gpu_b.fsdb" --json
json_ok "diff gpu cost model" "sorted((o['key'], o['b']) for o in d['options']) == [('gpu.kernel_launch_us', '0'), ('gpu.memory_bandwidth_gb_per_s', '100000')] and d['different_fusions']"
expect_error "set unknown key" "^unknown pipeline option 'fusion\.max_operandz' \(fusion\.max_operands, .*gpu\.kernel_launch_us\)$" "$fs" compile sample:mlp -o "$tmp/x.fsdb" --set fusion.max_operandz=8
expect_error "set bad value" "^fusion\.max_operands needs an integer from 1 to 1000000, got 'eight'$" "$fs" compile sample:mlp -o "$tmp/x.fsdb" --set fusion.max_operands=eight
expect_error "set out of range" "^gpu\.peak_tflops needs a number from 0\.001 to 100000 \(TFLOP/s\), got '0'$" "$fs" compile sample:mlp -o "$tmp/x.fsdb" --set gpu.peak_tflops=0
expect_error "set bad switch" "^fusion\.multi_output needs true or false, got 'maybe'$" "$fs" compile sample:mlp -o "$tmp/x.fsdb" --set fusion.multi_output=maybe
expect_error "set without value" "^--set needs KEY=VALUE, got 'fusion\.max_operands'$" "$fs" compile sample:mlp -o "$tmp/x.fsdb" --set fusion.max_operands
# diff A B --pass N: that pass of both, the fusions it formed and B's refusals.
bert_fusion=$("$fs" passes "$tmp/bert_a.fsdb" --json | python3 -c "import json,sys; print(next(p['index'] for p in json.load(sys.stdin)['passes'] if p['name'] == 'fusion'))")
expect_ok "diff two recordings at a pass" "$fs" diff "$tmp/bert_a.fsdb" "$tmp/bert_b.fsdb" --pass "$bert_fusion" --json
json_ok "diff two recordings at a pass" "d['pass']['name_a'] == 'fusion' and d['pass']['changed_b'] and d['pass']['fusions_a'] != d['pass']['fusions_b'] and d['different_fusions'] and d['same_fusions'] and d['decisions_refused_b'] > d['decisions_refused_a']"
expect_ok "diff two recordings at a pass text" "$fs" diff "$tmp/bert_a.fsdb" "$tmp/bert_b.fsdb" --pass "$bert_fusion"
contains "diff at a pass text" "^pass $bert_fusion\$" "$tmp/out"
contains "diff at a pass text: each side" '^  B: fusion changed the module; after it [0-9]+ operations, [0-9]+ fusions; [0-9]+ fusion decisions accepted, [0-9]+ refused$' "$tmp/out"
contains "diff at a pass text: the refusal" 'too_many_operands: fusion would have 9 operands\+outputs, limit is 8' "$tmp/out"
expect_ok "diff two recordings before fusion" "$fs" diff "$tmp/bert_a.fsdb" "$tmp/bert_b.fsdb" --pass 0 --json
json_ok "diff two recordings before fusion" "not d['same_fusions'] and not d['different_fusions'] and d['decisions_refused_a'] == 0"
expect_error "diff two recordings at a missing pass" "no pass 99 \(A has [0-9]+ passes, B [0-9]+\)" "$fs" diff "$tmp/bert_a.fsdb" "$tmp/bert_b.fsdb" --pass 99
expect_ok "compile with options" "$fs" compile sample:bert_encoder -o "$tmp/b.fsdb" --disable-pass cse --fusion-limit max_instructions=4 --json
json_ok "disabled pass" "d['passes_run'] < d['passes']"
# compile --json counts as the pass table does
expect_ok "compile json" "$fs" compile sample:bert_encoder --pipeline gpu -o "$tmp/counts.fsdb" --json
cp "$tmp/out" "$tmp/compile.json"
expect_ok "passes json for counts" "$fs" passes "$tmp/counts.fsdb" --json
if python3 -c "import json; c=json.load(open('$tmp/compile.json')); p=json.load(open('$tmp/out'))['passes']; import sys; sys.exit(0 if c['operations_after'] == p[-1]['operations_after'] and c['operations_before'] == p[0]['operations_before'] and c['fused_instructions_after'] == p[-1]['fused_instructions_after'] and c['instructions_after'] == c['operations_after'] + c['fused_instructions_after'] else 1)"; then ok; else bad "compile --json and passes --json count differently"; fi
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

# --- XLA dump folders as recordings of XLA's own passes
mlp_dump="$src/tests/data/xla_dump_mlp"
expect_ok "import list" "$fs" import "$mlp_dump" --list --json
json_ok "import list" "len(d['modules']) == 1 and d['modules'][0]['name'] == 'jit_mlp' and d['modules'][0]['default'] and d['modules'][0]['snapshots'] == 36"
expect_ok "import list text" "$fs" import "$mlp_dump" --list
contains "import list text" 'module_0000\.jit_mlp +36 snapshots' "$tmp/out"
expect_ok "import mlp" "$fs" import "$mlp_dump" -o "$tmp/xla_mlp.fsdb" --json
json_ok "import mlp" "d['passes'] == 35 and d['files_read'] == 36 and d['fusions'] == 12 and d['carried']['into_fusions'] > 20 and d['warnings'] == []"
expect_ok "passes of import" "$fs" passes "$tmp/xla_mlp.fsdb" --json
json_ok "passes of import" "d['pipeline'] == 'xla-cpu' and d['passes'][-1]['name'] == 'cpu_after_optimizations' and any(p['name'] == 'algsimp (simplification)' and p['changed'] for p in d['passes'])"
xla_fusion=$(python3 -c "import json; print(next(p['index'] for p in json.load(open('$tmp/out'))['passes'] if p['name'] == 'fusion (HLO_passes_after_layout_assignment)'))")
json_ok "XLA fusion pass lowers operations" "any(p['index'] == $xla_fusion and p['operations_after'] < p['operations_before'] and p['fusions_after'] > p['fusions_before'] for p in d['passes'])"
expect_ok "diff of XLA fusion pass" "$fs" diff "$tmp/xla_mlp.fsdb" --pass "$xla_fusion"
contains "diff of XLA fusion pass" '^4 instructions became broadcast_maximum_fusion\.1 \(kLoop\): ' "$tmp/out"
expect_ok "diff of XLA fusion pass json" "$fs" diff "$tmp/xla_mlp.fsdb" --pass "$xla_fusion" --json
expect_ok "print after XLA fusion pass" "$fs" print "$tmp/xla_mlp.fsdb" --pass "$xla_fusion"
contains "print after XLA fusion pass" 'broadcast_maximum_fusion\.1 = ' "$tmp/out"
expect_ok "report of import" "$fs" report "$tmp/xla_mlp.fsdb" -o "$tmp/xla.html"
expect_ok "import attention" "$fs" import "$src/tests/data/xla_dump_attention" -o "$tmp/xla_att.fsdb" --module jit_attention --json
json_ok "import attention" "d['passes'] == 40 and d['fusions'] == 17 and d['module'] == 'module_0000.jit_attention'"
# A real dump holds more than snapshots, and may hold a broken file: skipped, warned, imported.
mkdir -p "$tmp/dump/module_0000.jit_mlp"
cp "$mlp_dump"/*.txt "$tmp/dump/"
printf 'x' >"$tmp/dump/module_0000.jit_mlp.cpu_after_optimizations-buffer-assignment.txt"
printf 'x' >"$tmp/dump/module_0000.jit_mlp.add_fusion_kernel_module.ir-no-opt.ll"
printf '\x00\x01garbage' >"$tmp/dump/module_0000.jit_mlp.0010.simplification.after_pipeline-start.before_algsimp.txt"
expect_ok "import with junk" "$fs" import "$tmp/dump" -o "$tmp/junk.fsdb"
contains "import skips reports" '^skipped module_0000\.jit_mlp\.cpu_after_optimizations-buffer-assignment\.txt: ' "$tmp/out"
contains "import skips LLVM IR" '^skipped module_0000\.jit_mlp\.add_fusion_kernel_module\.ir-no-opt\.ll: LLVM IR' "$tmp/out"
contains "import skips folders" '^skipped module_0000\.jit_mlp: a folder' "$tmp/out"
contains "import warns with position" "^warning: $tmp/dump/module_0000\.jit_mlp\.0010\.[^ ]*:1:1: " "$tmp/err"
contains "import after a broken file" '^  passes: +34,' "$tmp/out"
mkdir -p "$tmp/empty_dump" "$tmp/unrelated_dump"
printf 'notes\n' >"$tmp/unrelated_dump/notes.txt"
expect_error "import empty folder" "empty_dump: no XLA HLO dump files" "$fs" import "$tmp/empty_dump" -o "$tmp/x.fsdb"
expect_error "import unrelated folder" "unrelated_dump: no XLA HLO dump files .*1 other" "$fs" import "$tmp/unrelated_dump" -o "$tmp/x.fsdb"
expect_error "import missing folder" "nowhere: no such folder" "$fs" import "$tmp/nowhere" -o "$tmp/x.fsdb"
expect_error "import a file" "notes.txt: neither an XLA dump folder, an MLIR pass log .* nor TensorRT layer information" "$fs" import "$tmp/unrelated_dump/notes.txt" -o "$tmp/x.fsdb"
expect_error "import unknown module" "no module 'jit_nope' \(there are module_0000\.jit_mlp\)" "$fs" import "$mlp_dump" -o "$tmp/x.fsdb" --module jit_nope
expect_usage "import without -o" "^fusescope import: missing -o RUN\.fsdb; usage: fusescope import SOURCE -o RUN\.fsdb \[FLAGS\]$" "$fs" import "$mlp_dump"

# --- run and bisect: the reference interpreter
expect_ok "run sample" "$fs" run sample:mlp --json
json_ok "run sample json" "len(d['outputs']) == 1 and d['outputs'][0]['shape'] == 'f32[32,10]' and 'match' not in d"
"$fs" compile sample:mlp -o "$tmp/interp.fsdb" >/dev/null 2>&1
expect_ok "run recording" "$fs" run "$tmp/interp.fsdb" --json
json_ok "run recording json" "d['match'] and all(o['ok'] and o['max_abs_error'] < 1e-5 for o in d['outputs'])"
expect_ok "run recording text" "$fs" run "$tmp/interp.fsdb" --pass 3 --save-outputs "$tmp/outs"
contains "run text" '^  output 0 .* ok +vs original .* to exact: this .*, original ' "$tmp/out"
if [[ -s "$tmp/outs/out_000.npy" ]]; then ok; else bad "run --save-outputs wrote no out_000.npy"; fi
"$fs" export "$tmp/interp.fsdb" -o "$tmp/exported" >/dev/null 2>&1
expect_ok "run with exported inputs" "$fs" run "$tmp/interp.fsdb" --inputs "$tmp/exported/inputs" --json
json_ok "run exported inputs json" "d['match']"
# numpy's names: arg0.npy... in a folder, or one .npz (np.savez's arr_0...), or the .npz itself
mkdir -p "$tmp/numpy_names" "$tmp/npz"
count=$(ls "$tmp/exported/inputs" | wc -l)
for ((i = 0; i < count; i++)); do cp "$tmp/exported/inputs/$(printf 'arg_%03d.npy' $i)" "$tmp/numpy_names/arg$i.npy"; done
expect_ok "run with arg0.npy names" "$fs" run "$tmp/interp.fsdb" --inputs "$tmp/numpy_names" --json
json_ok "run arg0 names json" "d['match'] and all(o['max_abs_error'] == 0 for o in d['outputs'])"
python3 - "$tmp/exported/inputs" "$tmp/npz/inputs.npz" <<'PY'
import os, sys, zipfile
with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(os.listdir(sys.argv[1])):
        z.write(os.path.join(sys.argv[1], name), "arr_%d.npy" % int(name[4:7]))
PY
expect_ok "run with an npz folder" "$fs" run "$tmp/interp.fsdb" --inputs "$tmp/npz" --json
json_ok "run npz json" "d['match'] and all(o['max_abs_error'] == 0 for o in d['outputs'])"
expect_ok "run with an npz file" "$fs" run "$tmp/interp.fsdb" --inputs "$tmp/npz/inputs.npz"
expect_error "run npz missing array" "holds no array named arr_[0-9]+, arg[0-9]+ or " "$fs" run sample:bert_encoder --inputs "$tmp/npz/inputs.npz"
expect_error "run inputs not npz" "not an .npz archive" "$fs" run sample:mlp --inputs "$tmp/exported/original.hlo"
# A recurrence whose weight is scaled up inside the graph stays chaotic on any inputs: the
# compiled kernels round tanh differently, the outputs move by O(1), and the verdict is that
# the module is ill-conditioned on these inputs, not a mismatch; bisect blames no pass.
{
  printf 'HloModule rnn\nbody {\n  s = (s32[], f32[1,64], f32[64,64]) parameter(0)\n'
  printf '  i = s32[] get-tuple-element(s), index=0\n  h = f32[1,64] get-tuple-element(s), index=1\n'
  printf '  w = f32[64,64] get-tuple-element(s), index=2\n  one = s32[] constant(1)\n  n = s32[] add(i, one)\n'
  printf '  z = f32[1,64] dot(h, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n'
  printf '  t = f32[1,64] tanh(z)\n  ROOT o = (s32[], f32[1,64], f32[64,64]) tuple(n, t, w)\n}\n'
  printf 'cond {\n  s = (s32[], f32[1,64], f32[64,64]) parameter(0)\n  i = s32[] get-tuple-element(s), index=0\n'
  printf '  k = s32[] constant(50)\n  ROOT lt = pred[] compare(i, k), direction=LT\n}\n'
  printf 'ENTRY e {\n  h0 = f32[1,64] parameter(0)\n  w0 = f32[64,64] parameter(1)\n  g = f32[] constant(4)\n'
  printf '  gb = f32[64,64] broadcast(g), dimensions={}\n  w = f32[64,64] multiply(w0, gb)\n  zero = s32[] constant(0)\n'
  printf '  init = (s32[], f32[1,64], f32[64,64]) tuple(zero, h0, w)\n'
  printf '  l = (s32[], f32[1,64], f32[64,64]) while(init), condition=cond, body=body\n'
  printf '  ROOT r = f32[1,64] get-tuple-element(l), index=1\n}\n'
} >"$tmp/rnn.hlo"
expect_ok "run chaotic recurrence" "$fs" run "$tmp/rnn.hlo" --device cpu
contains "run chaotic is ill-conditioned" "^ill-conditioned on these inputs" "$tmp/out"
contains "run chaotic output row" '^  output 0 .* ill-conditioned +vs original ' "$tmp/out"
"$fs" compile "$tmp/rnn.hlo" -o "$tmp/rnn.fsdb" >/dev/null 2>&1
expect_ok "bisect chaotic recurrence" "$fs" bisect "$tmp/rnn.fsdb" --device cpu --json
json_ok "bisect chaotic blames nothing" "d['first_bad_pass'] is None and d['passes'][0]['verdict'] == 'ill-conditioned'"
# --- --device cuda: on a GPU the compiled snapshot against the interpreter; without one the
# driver's one sentence, before any work
if "$fs" machine 2>/dev/null | grep -q '^gpu: no NVIDIA driver/GPU found'; then
  expect_error "run cuda without a GPU" "^no NVIDIA driver/GPU found: " "$fs" run "$tmp/interp.fsdb" --device cuda
  expect_error "run cuda model without a GPU" "^no NVIDIA driver/GPU found: " "$fs" run sample:bert_encoder --device cuda --json
else
  expect_ok "run cuda recording" "$fs" run "$tmp/interp.fsdb" --device cuda --json
  json_ok "run cuda json" "d['match'] and d['device'] == 'cuda' and any(k['backend'] == 'nvptx' for k in d['kernels'])"
fi
# --- run --device cpu: the compiled snapshot (MLIR JIT kernels, OpenBLAS) against the interpreter
expect_ok "run cpu recording" "$fs" run "$tmp/interp.fsdb" --device cpu --json
# Without --kernels-dir nothing keeps the lowering stages: compiling prints none of them.
json_ok "run cpu json" "d['match'] and d['device'] == 'cpu' and all(o['ok'] for o in d['outputs']) and any(k['backend'] == 'mlir-cpu' for k in d['kernels']) and all(k['stages'] == 0 for k in d['kernels']) and d['kernel_summary'].startswith(str(len(d['kernels'])) + ' kernels: ')"
expect_ok "run cpu recording kernels-dir" "$fs" run "$tmp/interp.fsdb" --device cpu --json --kernels-dir "$tmp/kernels_json"
json_ok "run cpu json stages" "d['match'] and any(k['backend'] == 'mlir-cpu' and k['stages'] > 2 for k in d['kernels'])"
expect_ok "run cpu model text" "$fs" run sample:bert_encoder --device cpu --lowering "tile=16 vector=8" --kernels-dir "$tmp/kernels"
contains "run cpu text" '^[0-9]+ kernels: .*mlir-cpu' "$tmp/out"
contains "run cpu match" 'compiled snapshot matches the original module' "$tmp/out"
if ls "$tmp"/kernels/*/00_input.txt >/dev/null 2>&1 && grep -q "func.func @kernel" "$tmp"/kernels/*/00_input.txt; then ok; else bad "run --kernels-dir wrote no input stage"; fi
expect_error "run cpu bad lowering" "unknown lowering option 'interchange'" "$fs" run sample:mlp --device cpu --lowering "interchange=2"
expect_error "run kernels-dir without cpu" "kernels-dir needs --device cpu" "$fs" run sample:mlp --kernels-dir "$tmp/k2"
expect_error "run missing inputs" "nowhere does not exist" "$fs" run sample:mlp --inputs "$tmp/nowhere"
mkdir -p "$tmp/few"
expect_error "run missing input" "no input for parameter 0 (.*): .* holds none of arg_000.npy, arg0.npy, arr_0.npy or " "$fs" run sample:mlp --inputs "$tmp/few"
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
"$fs" bisect "$tmp/broken.fsdb" --device cpu --json >"$tmp/out" 2>"$tmp/err"
if [[ $? -eq 1 ]]; then ok; else bad "compiled bisect of a broken recording should exit 1"; fi
json_ok "compiled bisect names the pass" "d['device'] == 'cpu' and d['passes'][0]['index'] == -1 and d['passes'][0]['ok'] and '%d %s' % (d['first_bad_pass']['index'], d['first_bad_pass']['name']) == '$first_fusion'"
"$fs" bisect "$tmp/broken.fsdb" >"$tmp/out" 2>"$tmp/err"
contains "bisect text" "^first pass whose outputs differ: #${first_fusion// /.*}" "$tmp/out"
# --progress: the workbench's worker protocol on stderr ("progress: KIND INDEX/TOTAL NAME"),
# stdout and exit codes unchanged.
only_progress() {
  if grep -vq '^progress: [a-z-]* [0-9]*/[0-9]* .' "$1"; then bad "$2: stderr holds more than progress lines"; else ok; fi
}
expect_ok "run progress" "$fs" run "$tmp/interp.fsdb" --json --progress
json_ok "run progress json" "d['match']"
contains "run progress original" '^progress: instruction 1/[0-9]+ original module$' "$tmp/err"
contains "run progress snapshot done" '^progress: instruction ([0-9]+)/\1 final snapshot$' "$tmp/err"
only_progress "$tmp/err" "run progress"
expect_ok "run progress pass" "$fs" run "$tmp/interp.fsdb" --pass 2 --progress
contains "run progress pass" '^progress: instruction [0-9]+/[0-9]+ snapshot after pass 2$' "$tmp/err"
"$fs" bisect "$tmp/broken.fsdb" --json --progress >"$tmp/out" 2>"$tmp/err"
if [[ $? -eq 1 ]]; then ok; else bad "bisect --progress of a broken recording should exit 1"; fi
json_ok "bisect progress json" "'%d %s' % (d['first_bad_pass']['index'], d['first_bad_pass']['name']) == '$first_fusion'"
snapshots=$(( $("$fs" passes "$tmp/interp.fsdb" --json | python3 -c "import json,sys; print(len(json.load(sys.stdin)['passes']))") + 1 ))
contains "bisect progress input" "^progress: snapshot 0/$snapshots input$" "$tmp/err"
contains "bisect progress fusion" "^progress: snapshot $(( ${first_fusion%% *} + 1 ))/$snapshots ${first_fusion#* }$" "$tmp/err"
only_progress "$tmp/err" "bisect progress"
cp "$tmp/interp.fsdb" "$tmp/progress.fsdb"
expect_ok "profile progress" "$fs" profile "$tmp/progress.fsdb" --reps 3 --warmup 2 --save --json --progress
contains "profile progress first" '^progress: rep 1/5 warm-up$' "$tmp/err"
contains "profile progress timed" '^progress: rep 2/5 timed$' "$tmp/err"
contains "profile progress last" '^progress: rep 5/5 timed$' "$tmp/err"
contains "profile progress save" '^progress: save 0/1 profile$' "$tmp/err"
# profile on compiled CPU kernels: kernels measured, saved with the profile, shown by `kernel`
# (only where this build compiles kernels: the device line says so)
cp "$tmp/interp.fsdb" "$tmp/cpuprof.fsdb"
if "$fs" profile "$tmp/cpuprof.fsdb" --device cpu --reps 3 --json >"$tmp/out" 2>"$tmp/err"; then
  ok
  json_ok "profile cpu device" 'd["device"].startswith("cpu: compiled kernels") and d["compile_seconds"] > 0'
  json_ok "profile cpu kernels" 'len(d["kernels"]) > 0 and all(k["time_us"]["count"] == 3 for k in d["kernels"])'
  expect_ok "profile cpu overhead" "$fs" profile "$tmp/cpuprof.fsdb" --device cpu --reps 3 --overhead --json
  json_ok "profile cpu overhead figures" 'd["plain_latency_us"]["count"] == 3 and "profiling_overhead" in d'
  expect_error "profile overhead needs cpu" "overhead needs --device cpu" "$fs" profile "$tmp/cpuprof.fsdb" --overhead
  expect_ok "profile cpu save" "$fs" profile "$tmp/cpuprof.fsdb" --device cpu --reps 2 --sgemm --save
  contains "profile cpu saves kernels" '^saved [0-9]+ kernels of snapshot' "$tmp/err"
  expect_ok "kernel after profile" "$fs" kernel "$tmp/cpuprof.fsdb" --json
  json_ok "kernel after profile lists" 'len(d["kernels"]) > 0'
  expect_ok "hot after cpu profile" "$fs" hot "$tmp/cpuprof.fsdb" --json
  # A kernel cache named: the first profile compiles and stores the kernels, the second loads
  # them, stages and all; `machine` counts them.
  cp "$tmp/interp.fsdb" "$tmp/cached.fsdb"
  expect_ok "profile fills the kernel cache" env FUSESCOPE_KERNEL_CACHE="$tmp/kc/kernels.sqlite" "$fs" profile "$tmp/cached.fsdb" --device cpu --reps 1 --save
  expect_ok "kernels compiled" "$fs" kernel "$tmp/cached.fsdb" --json
  json_ok "kernels compiled, not loaded" 'all("kernel cache" not in k["note"] for k in d["kernels"])'
  expect_ok "profile from the kernel cache" env FUSESCOPE_KERNEL_CACHE="$tmp/kc/kernels.sqlite" "$fs" profile "$tmp/cached.fsdb" --device cpu --reps 1 --save
  expect_ok "kernels loaded" "$fs" kernel "$tmp/cached.fsdb" --json
  json_ok "kernels loaded with their stages" 'any(k["backend"] == "mlir-cpu" for k in d["kernels"]) and all("loaded from the kernel cache" in k["note"] and k["stages"] for k in d["kernels"] if k["backend"] == "mlir-cpu")'
  expect_ok "machine counts the cached kernels" env FUSESCOPE_KERNEL_CACHE="$tmp/kc/kernels.sqlite" "$fs" machine --json --cache-dir "$tmp/machine_kc" --probe-seconds 0.02
  json_ok "machine kernel cache" 'd["kernel_cache"]["on"] and d["kernel_cache"]["kernels"] > 0'
else
  bad "profile --device cpu: $(head -2 "$tmp/err")"
fi
expect_error "profile unknown device" "use cpu .compiled kernels., cuda or interpreter" "$fs" profile "$tmp/interp.fsdb" --device tpu
expect_error "profile lowering needs cpu" "needs --device cpu" "$fs" profile "$tmp/interp.fsdb" --lowering "tile=8"
expect_usage "progress is a flag" "^fusescope bisect: --progress takes no value, got '--progress=yes'$" "$fs" bisect "$tmp/interp.fsdb" --progress=yes
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
# What a name is, as the workbench tells it too (importers/input_kind.h).
printf '\x00\x01\xff noise\n' >"$tmp/noise"
expect_error "unknown file" "^$tmp/noise: not a file fusescope reads: no recording .*, MLIR pass log .* or HLO text" "$fs" stats "$tmp/noise"
mkdir -p "$tmp/no_dump"
expect_error "unknown folder" "^$tmp/no_dump: no XLA HLO dump files .*; nor is it an MLIR tree dump .*, a TVM DumpIR folder .*, a folder of MLIR stage files" "$fs" print "$tmp/no_dump"
expect_error "lesson as a model" "^lesson:mlp_fusion: a lesson, not a model: .fusescope lesson lesson:mlp_fusion. runs it" "$fs" stats lesson:mlp_fusion
expect_error "iree executables alone" "executables: IREE executable files .* import them with the tree dump .*--iree-executables" "$fs" stats "$src/tests/data/iree/executables"
expect_error "compile stage folder" "stages: a folder of MLIR stage files records another compiler's passes; it is no model for our pipeline" "$fs" compile "$src/tests/data/mlir/stages" -o "$tmp/x.fsdb"
expect_error "compile recording" "^$tmp/interp.fsdb: a recording, not a model" "$fs" compile "$tmp/interp.fsdb" -o "$tmp/x.fsdb"
printf 'not SQLite\n' >"$tmp/damaged.fsdb"
expect_error "damaged recording by name" "^$tmp/damaged.fsdb: " "$fs" stats "$tmp/damaged.fsdb"
expect_usage "bad --pass" "^fusescope stats: --pass needs an integer, got 'x'$" "$fs" stats sample:mlp --pass x
expect_usage "unknown flag" "^fusescope stats: unknown flag --bogus$" "$fs" stats sample:mlp --bogus
expect_usage "mistyped flag" "^fusescope stats: unknown flag --pas \(did you mean --pass\?\)$" "$fs" stats sample:mlp --pas 3
expect_usage "flag without its value" "^fusescope profile: --reps needs a value \(N\)$" "$fs" profile sample:mlp --reps
expect_usage "not a number" "^fusescope profile: --reps needs an integer, got 'many'$" "$fs" profile sample:mlp --reps=many
expect_usage "bad tolerance" "^fusescope run: --rtol needs a number of at least 0, got '-1'$" "$fs" run sample:mlp --rtol -1
expect_usage "single flag twice" "^fusescope compile: -o is given 2 times; it takes one value$" "$fs" compile sample:mlp -o "$tmp/a.fsdb" -o "$tmp/b.fsdb"
expect_usage "missing positional" "^fusescope why: missing CONSUMER; usage: fusescope why RUN\.fsdb PRODUCER CONSUMER \[FLAGS\]$" "$fs" why x.fsdb a
expect_usage "extra positional" "^fusescope passes: unexpected argument 'b'" "$fs" passes a b
expect_usage "compare-peer takes no arguments" "^fusescope compare-peer: unexpected argument 'x'; usage: fusescope compare-peer < REQUEST\.json$" "$fs" compare-peer x
expect_error "unknown command" "unknown command" "$fs" frobnicate

# --- help: every command's usage and flags, from its declaration
expect_ok "help" "$fs" --help
cp "$tmp/out" "$tmp/help.txt"
commands=$(sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p; s/^  \([a-z][a-z-]*\)$/\1/p' "$tmp/help.txt" | grep -v '^gui$')
[[ $(wc -w <<<"$commands") -ge 20 ]] && ok || bad "help lists $(wc -w <<<"$commands") commands"
for command in $commands; do
  expect_ok "help $command" "$fs" help "$command"
  contains "help $command usage" "^usage: fusescope $command( |$)" "$tmp/out"
  contains "help $command flags" "^  -h, --help " "$tmp/out"
  cp "$tmp/out" "$tmp/help_cmd.txt"
  expect_ok "$command --help" "$fs" "$command" --help
  if cmp -s "$tmp/out" "$tmp/help_cmd.txt"; then ok; else bad "$command --help differs from help $command"; fi
done
expect_ok "help compile" "$fs" help compile
contains "help compile: a pipeline flag" '^  --disable-pass NAME +leave this pass out \(repeatable\)$' "$tmp/out"
contains "help compile: a default" '^  --pipeline cpu\|gpu +the built-in pipeline \(default: cpu\)$' "$tmp/out"
contains "help compile: required" '^  -o RUN\.fsdb +the recording to write \(required\)$' "$tmp/out"
contains "help compile: a mode" '^  --list-options ' "$tmp/out"
expect_ok "help profile" "$fs" profile -h
contains "help profile: default from the measurer" '^  --reps N +timed runs \(default: 10\)$' "$tmp/out"
expect_usage "help of an unknown command" "unknown command 'nope'" "$fs" help nope
# The usage lines in the docs give each command only flags it declares.
expect_ok "docs' flags are declared" python3 "$src/tests/cli/check_doc_flags.py" "$fs" "$src"/docs/*.md "$src/README.md"
expect_ok "help --man" "$fs" help --man
contains "man: compile" '^\.B compile MODEL \\-o RUN\.fsdb \[FLAGS\]$' "$tmp/out"
contains "man: a flag" '^\\fB\\-\\-list\\-options\\fR$' "$tmp/out"
expect_error "unknown command" "unknown command" "$fs" frobnicate

# --- machine: measured limits, cached per machine; counters read or explained
expect_ok "machine json" "$fs" machine --json --cache-dir "$tmp/machine" --probe-seconds 0.02
json_ok "machine json" "d['peak_fp32_flops'] > 0 and d['memory_bandwidth_bytes_per_second'] > 0 and not d['from_cache'] and all(c['available'] or c['reason'] for c in d['counters'])"
expect_ok "machine cached" "$fs" machine --json --cache-dir "$tmp/machine"
# (figures measured while other tests had the cores are cached too, but measured again)
json_ok "machine cached" "d['from_cache'] or 'the cached figures were measured while the machine was busy' in d.get('note', '')"
json_ok "machine cpu share" "0 < d['cpu_share'] <= 1"
expect_usage "machine bad probe" "^fusescope machine: --probe-seconds needs a number of at least 0, got 'x'$" "$fs" machine --probe-seconds x
expect_error "machine absurd probe" "probe time must be" "$fs" machine --recalibrate --probe-seconds 1e9 --cache-dir "$tmp/machine"
# hot places the hottest kernels on the cached machine's roofline, or says why it cannot
expect_ok "machine for roofline" env XDG_CACHE_HOME="$tmp/xdg" "$fs" machine --probe-seconds 0.02
expect_ok "hot roofline" env XDG_CACHE_HOME="$tmp/xdg" "$fs" hot "$tmp/progress.fsdb" --json
json_ok "hot roofline points" 'len(d["roofline"]) > 0 and all(r["roof_flops"] > 0 and r["fraction_of_roof"] > 0 and r["bound"] in ("memory", "compute") for r in d["roofline"])'
expect_ok "hot without machine" env XDG_CACHE_HOME="$tmp/no-xdg" "$fs" hot "$tmp/progress.fsdb" --json
json_ok "hot says no roofline" 'd["roofline"] == [] and d["roofline_unavailable"].startswith("no roofline")'

# --- xla-trace: XLA's own profile on XLA's own fusions
expect_ok "xla-trace" "$fs" xla-trace "$src/tests/data/attention/xla_cpu_trace.json.gz" "$src/tests/data/attention/after_optimizations.hlo" --top 5
contains "xla-trace latency" '^jit_attention: 5 runs in the trace, latency p50 ' "$tmp/out"
contains "xla-trace source" 'subtract_exponential_fusion|ynn_fusion' "$tmp/out"
contains "xla-trace latency is" "^latency: a run's first op's start to its last op's end" "$tmp/out"
expect_ok "xla-trace json" "$fs" xla-trace "$src/tests/data/mlp/xla_cpu_trace.json.gz" "$src/tests/data/mlp/after_optimizations.hlo" --json
json_ok "xla-trace json" "d['runs'] == 5 and d['ops'] and not d['unmatched_ops'] and len(d['run_latency_us']) == 5 and abs(sum(o['share'] for o in d['ops']) - d['op_time_share']) < 1e-9 and 0 < d['covered_share'] <= 1 and all(o['source_lines'] for o in d['ops'])"
expect_ok "xla-trace threads" "$fs" xla-trace "$src/tests/data/gpt_block/xla_cpu_trace.json.gz" "$src/tests/data/gpt_block/after_optimizations.hlo" --json
json_ok "xla-trace threads" "d['runs'] == 5 and len(d['run_latency_us']) == 5 and d['max_threads'] == 3 and d['covered_share'] <= 1 < d['op_time_share']"
expect_error "xla-trace other module" "holds no run of module jit_mlp" "$fs" xla-trace "$src/tests/data/attention/xla_cpu_trace.json.gz" "$src/tests/data/mlp/after_optimizations.hlo"
printf '{"traceEvents": [' >"$tmp/cut.json"
expect_error "xla-trace cut" "cut.json: line 1, column 18: " "$fs" xla-trace "$tmp/cut.json" "$src/tests/data/mlp/after_optimizations.hlo"

# --- XLA's own profile on an imported XLA dump, carried back to the model's ops
expect_ok "import attention for hot" "$fs" import "$src/tests/data/xla_dump_attention" -o "$tmp/xa.fsdb"
expect_error "hot without profile" "holds no profile" "$fs" hot "$tmp/xa.fsdb"
expect_ok "xla-trace save" "$fs" xla-trace "$src/tests/data/attention/xla_cpu_trace.json.gz" "$tmp/xa.fsdb" --save --json
json_ok "xla-trace save" "d['runs'] == 5 and not d['unmatched_ops']"
expect_ok "hot final" "$fs" hot "$tmp/xa.fsdb" --json
json_ok "hot final measured" "d['nodes'] and all(n['measured'] for n in d['nodes']) and d['snapshot'] == d['profiled_snapshot']"
expect_ok "hot input" "$fs" hot "$tmp/xa.fsdb" --pass -1 --json
json_ok "hot input: the model's dots first, estimated, with source lines" "d['snapshot'] == 0 and d['nodes'][0]['opcode'] == 'dot' and not d['nodes'][0]['measured'] and d['nodes'][0]['source_lines'][0].startswith('scripts/gen_fixtures.py:')"
expect_ok "hot trace export" "$fs" hot "$tmp/xa.fsdb" --trace "$tmp/hot_trace.json"
if python3 -c "import json; d=json.load(open('$tmp/hot_trace.json')); import sys; sys.exit(0 if sum(e['ph'] == 'X' for e in d['traceEvents']) == 5 * 17 else 1)"; then ok; else bad "hot --trace: expected 85 kernel events"; fi
expect_ok "xla-trace save again" "$fs" xla-trace "$src/tests/data/attention/xla_cpu_trace.json.gz" "$tmp/xa.fsdb" --save
expect_ok "hot compare" "$fs" hot "$tmp/xa.fsdb" --compare 1 --json
json_ok "hot compare" "d['only_before'] == 0 and d['only_after'] == 0 and all(abs(k['delta_us']) < 1e-9 for k in d['kernels'])"
expect_error "hot no such profile" "no profile 9" "$fs" hot "$tmp/xa.fsdb" --profile 9
expect_error "xla-trace save to hlo" "not one" "$fs" xla-trace "$src/tests/data/attention/xla_cpu_trace.json.gz" "$src/tests/data/attention/after_optimizations.hlo" --save

# --- xla-vs-ours: XLA's fusion of a real dump next to ours, with our reasons
expect_ok "xla-vs-ours gpu" "$fs" xla-vs-ours "$src/tests/data/xla_dump_attention" --pipeline gpu --json
json_ok "xla-vs-ours counts" "d['edges'] == d['fused_by_both'] + d['fused_by_xla_only'] + d['fused_by_us_only'] + d['fused_by_neither'] and d['fused_by_both'] > 20 and d['base_snapshot'] > 0"
json_ok "xla-vs-ours reasons" "any('reduction epilogues are not fused' in p['our_explanation'] for p in d['xla_only'])"
expect_ok "xla-vs-ours text" "$fs" xla-vs-ours "$src/tests/data/xla_dump_mlp"
contains "xla-vs-ours text" 'producer->consumer pairs: [0-9]+ fused by both' "$tmp/out"
expect_error "xla-vs-ours not a dump" "no XLA HLO dump files" "$fs" xla-vs-ours "$src/tests/data/attention"

# --- MLIR: pass logs of mlir-opt and iree-compile as recordings, .mlir files as models
mlir="$src/tests/data/mlir"
expect_ok "import mlir-opt log" "$fs" import "$mlir/mlir_opt_tosa_mlp.log" -o "$tmp/mlir_opt.fsdb" --json
json_ok "import mlir-opt log" "d['sections'] == 32 and d['passes'] == 32 and d['sections_left_out'] == 0 and not d['cut_off'] and not d['failed'] and d['section_list'][5]['pass'] == 'CSE (cse)' and d['warnings'] == []"
expect_ok "passes of mlir log" "$fs" passes "$tmp/mlir_opt.fsdb" --json
json_ok "passes of mlir log" "d['pipeline'] == 'mlir' and d['passes'][0]['name'] == 'TosaToLinalgNamed (tosa-to-linalg-named)' and any(p['name'] == 'OneShotBufferize (one-shot-bufferize)' and p['changed'] for p in d['passes'])"
expect_ok "diff of mlir log" "$fs" diff "$tmp/mlir_opt.fsdb" --pass 9 --text
# An MLIR recording prints as the log printed it: the whole IR after pass N (functions that the
# log printed alone spliced into it), with --hlo for our rendering; passes were not timed here.
expect_ok "print mlir log pass" "$fs" print "$mlir/mlir_opt_function_passes.log" --pass 5
contains "print mlir log pass helper" '^func\.func @helper\(' "$tmp/out"
contains "print mlir log pass main" '^func\.func @main\(' "$tmp/out"
expect_ok "print mlir log final" "$fs" print "$tmp/mlir_opt.fsdb"
contains "print mlir log final" '^    llvm\.return' "$tmp/out"
expect_ok "print mlir log as hlo" "$fs" print "$tmp/mlir_opt.fsdb" --hlo
contains "print mlir log as hlo" '^HloModule' "$tmp/out"
expect_ok "passes of mlir log text" "$fs" passes "$tmp/mlir_opt.fsdb"
contains "passes of mlir log untimed" '^   5  CSE \(cse\) +[-y].* +- +' "$tmp/out"
expect_ok "passes of mlir log imported" "$fs" passes "$tmp/mlir_opt.fsdb" --json
json_ok "passes of mlir log imported" "d['imported']"
# A folder of numbered stage files: one snapshot per file, in numeric order (2b after 2, 10 last).
expect_ok "import stage folder" "$fs" import "$mlir/stages" -o "$tmp/stages.fsdb" --json
json_ok "import stage folder" "d['sections'] == 5 and [s['pass'] for s in d['section_list']][2:] == ['linalg_fused (2b_linalg_fused)', 'bufferized (3_bufferized)', 'llvm (10_llvm)'] and d['section_list'][4]['file'].endswith('/stages/10_llvm.mlir') and d['warnings'] == []"
expect_ok "print stage folder's last stage" "$fs" print "$mlir/stages"
contains "last stage is MLIR's own text" "llvm.func @mlp" "$tmp/out"
# A TVM DumpIR folder (apache-tvm's own, tests/data/tvm_dumpir): one snapshot per NNN_<Pass>.py.
tvm="$src/tests/data/tvm_dumpir/mlp"
expect_ok "import tvm dumpir" "$fs" import "$tvm" -o "$tmp/tvm.fsdb" --json
json_ok "import tvm dumpir" "d['sections'] == 36 and d['section_list'][7]['pass'] == 'FuseOps' and all(s['reader'] == 'tvmscript' for s in d['section_list']) and d['warnings'] == [] and 0 < d['passes_changed'] < 36"
expect_ok "import tvm dumpir text" "$fs" import "$tvm" -o "$tmp/tvm2.fsdb"
contains "import tvm dumpir text" '^imported TVM DumpIR folder \(36 stage files\)' "$tmp/out"
expect_ok "print tvm dumpir stage" "$fs" print "$tvm" --pass 7
contains "tvm stage is TVM's own text" 'lv: R.Tensor\(\(batch, 32\), dtype="float32"\) = cls.fused_matmul_add_relu' "$tmp/out"
expect_ok "stats of tvm dumpir fuseops" "$fs" stats "$tmp/tvm.fsdb" --pass 7 --json
json_ok "stats of tvm dumpir fuseops" "d['opcodes'].get('cls.fused_matmul_add_relu') == 1 and d['opcodes'].get('R.function') == 3"
# PyTorch Inductor's debug trace (torch 2.15's own, tests/data/inductor): one snapshot per stage,
# a function per graph, each kernel linked to the ONNX nodes it computes.
inductor="$src/tests/data/inductor"
expect_ok "import inductor trace" "$fs" import "$inductor/mlp" -o "$tmp/inductor.fsdb" --json
json_ok "import inductor trace" "[s['pass'] for s in d['section_list']] == ['aot_autograd', 'post_grad_passes', 'graph_lowering', 'scheduler_fusion'] and all(s['reader'] == 'inductor' for s in d['section_list']) and d['warnings'] == [] and d['passes'] == 3"
expect_ok "import inductor trace text" "$fs" import "$inductor/train" -o "$tmp/inductor2.fsdb"
contains "import inductor trace text" '^imported Inductor debug trace \(4 stage files\)' "$tmp/out"
expect_ok "stats of inductor fusion stage" "$fs" stats "$tmp/inductor.fsdb" --json
json_ok "stats of inductor fusion stage" "d['opcodes'].get('extern_kernels.addmm') == 2 and d['opcodes'].get('inductor.loop') == 1 and d['opcodes'].get('ops.relu') == 1"
expect_ok "print inductor trace" "$fs" print "$inductor/mlp" --pass 0
contains "inductor stage is Inductor's own text" 'addmm_default_1: "f32\[8, 512\]" = torch.ops.aten.addmm.default' "$tmp/out"
expect_error "compile inductor trace" "records another compiler's passes" \
  "$fs" compile "$inductor/mlp" -o "$tmp/inductor3.fsdb"
# iree-compile's --mlir-print-ir-tree-dir folder (tests/data/iree/print_ir_tree), with the
# executables it dumped as the kernel level.
iree="$src/tests/data/iree"
expect_ok "import print-ir tree" "$fs" import "$iree/print_ir_tree" -o "$tmp/tree.fsdb" --iree-executables "$iree/executables" --json
json_ok "import print-ir tree" "d['sections'] == 52 and d['warnings'] == [] and d['kernels'] == 1 and d['kernels_attached'] == 1 and d['section_list'][0]['file'].endswith('/0_iree-check-vhlostablehlo-mix-usage.mlir')"
expect_ok "kernels of print-ir tree" "$fs" kernel "$tmp/tree.fsdb" --json
json_ok "kernels of print-ir tree" "[k['name'] for k in d['kernels']] == ['main_dispatch_0'] and [s['name'] for s in d['kernels'][0]['stages']] == ['source', 'configured', 'benchmark', 'llvm-ir', 'asm']"
expect_ok "asm of iree dispatch" "$fs" kernel "$tmp/tree.fsdb" main_dispatch_0 --stage asm
contains "asm of iree dispatch" '^main_dispatch_0_matmul_4x16x8_f32:' "$tmp/out"
expect_error "iree executables not a folder" 'not a folder' "$fs" import "$iree/print_ir_tree" -o "$tmp/tree2.fsdb" --iree-executables "$iree/nothing"
expect_ok "import iree log" "$fs" import "$mlir/iree_stablehlo_abi.log" -o "$tmp/iree.fsdb" --json
json_ok "import iree log" "d['sections'] == 47 and d['read_tolerantly'] >= 40 and all(s['operations'] > 0 for s in d['section_list'])"
expect_ok "import iree log text" "$fs" import "$mlir/iree_stablehlo_abi.log" -o "$tmp/iree2.fsdb"
contains "import iree log text" 'by the tolerant reader \(libMLIR refused [0-9]+\)' "$tmp/out"
expect_ok "import failed log" "$fs" import "$mlir/mlir_opt_failed.log" -o "$tmp/failed.fsdb" --json
json_ok "import failed log" "d['failed'] and d['passes'] == 3"
expect_ok "stats of mlir log" "$fs" stats "$mlir/mlir_opt_tosa_mlp.log" --json
json_ok "stats of mlir log" "d['opcodes'].get('llvm.call', 0) + d['opcodes'].get('llvm.mlir.constant', 0) > 10"
expect_ok "stats of mlir log pass 0" "$fs" stats "$mlir/mlir_opt_tosa_mlp.log" --pass 0 --json
json_ok "stats of mlir log pass 0" "d['opcodes'].get('linalg.batch_matmul') == 1"
expect_ok "print of xla dump folder" "$fs" print "$mlp_dump"
contains "print of xla dump folder" '^HloModule' "$tmp/out"
expect_ok "stats of stablehlo" "$fs" stats "$src/tests/data/mlp/stablehlo.mlir" --json
json_ok "stats of stablehlo" "d['opcodes']['dot'] == 3 and d['opcodes']['reduce'] == 6"
expect_ok "compile stablehlo" "$fs" compile "$src/tests/data/mlp/stablehlo.mlir" -o "$tmp/shlo.fsdb" --json
json_ok "compile stablehlo" "d['fusions'] > 0"
expect_ok "print tosa" "$fs" print "$mlir/tosa_mlp.mlir"
contains "print tosa" 'tosa\.matmul' "$tmp/out"
expect_error "compile tosa" "loads as a graph but cannot be compiled: 6 operations have no HLO counterpart" \
  "$fs" compile "$mlir/tosa_mlp.mlir" -o "$tmp/tosa.fsdb"
expect_error "compile mlir log" "an MLIR pass log records another compiler's passes" \
  "$fs" compile "$mlir/mlir_opt_failed.log" -o "$tmp/log.fsdb"
# Cut off mid-section, junk in a section, binary junk: a warning or one clear error each.
head -c 60000 "$mlir/mlir_opt_tosa_mlp.log" >"$tmp/cut.log"
expect_ok "import cut log" "$fs" import "$tmp/cut.log" -o "$tmp/cut.fsdb" --json
json_ok "import cut log" "d['cut_off'] and d['passes'] > 5"
contains "import cut log warns" 'cut\.log:[0-9]+:[0-9]+: text ends inside' "$tmp/err"
{ head -14 "$mlir/mlir_opt_tosa_mlp.log"; echo '// -----// IR Dump After Garbage (garbage) //----- //'; printf '\x00\x01\xff ))) }}}\n'; } >"$tmp/junk.log"
expect_ok "import junk section" "$fs" import "$tmp/junk.log" -o "$tmp/junk_mlir.fsdb"
contains "import junk section warns" "junk\.log:15:1: section 'Garbage \(garbage\)' holds no readable IR" "$tmp/err"
head -c 4096 /dev/urandom >"$tmp/random.bin"
expect_error "import binary" "random.bin: neither an XLA dump folder, an MLIR pass log .* nor TensorRT layer information" "$fs" import "$tmp/random.bin" -o "$tmp/random.fsdb"
truncate -s 2G "$tmp/huge.log"
{ echo '// -----// IR Dump After CSE (cse) //----- //'; } | dd of="$tmp/huge.log" conv=notrunc status=none
expect_error "import 2 GB log" "over the limit" "$fs" import "$tmp/huge.log" -o "$tmp/huge.fsdb"
rm -f "$tmp/huge.log"

# --- profile: repeated runs on the reference interpreter, saved and carried onto any pass
expect_ok "profile compile" "$fs" compile sample:mlp -o "$tmp/prof.fsdb"
expect_ok "profile json" "$fs" profile "$tmp/prof.fsdb" --reps 4 --warmup 1 --save --json
json_ok "profile json" "d['latency_us']['count'] == 4 and d['latency_us']['p50'] <= d['latency_us']['p99'] and d['kernels'] and all(k['time_us']['count'] == 4 for k in d['kernels']) and 'interpreter' in d['device'] and (d['counters'] or d['counters_unavailable'])"
expect_ok "profile hot" "$fs" hot "$tmp/prof.fsdb" --pass -1 --json
json_ok "profile hot input" "d['snapshot'] == 0 and d['nodes'] and not d['nodes'][0]['measured']"
expect_ok "profile text" "$fs" profile sample:mlp --reps 2 --warmup 0 --trace "$tmp/prof_trace.json"
contains "profile text device" '^device: reference interpreter' "$tmp/out"
if python3 -c "import json; d=json.load(open('$tmp/prof_trace.json')); import sys; sys.exit(0 if any(e['ph'] == 'X' for e in d['traceEvents']) else 1)"; then ok; else bad "profile --trace wrote no events"; fi
if "$fs" machine 2>/dev/null | grep -q '^gpu: no NVIDIA driver/GPU found'; then
  expect_error "profile cuda without a GPU" "^no NVIDIA driver/GPU found: " "$fs" profile sample:mlp --device cuda
else
  expect_ok "profile cuda" "$fs" profile sample:mlp --device cuda --reps 3 --json
  json_ok "profile cuda json" "d['gpu_kernels'] and d['unclaimed_launches'] == 0 and 'cupti_overhead' in d and d['device'].startswith('cuda: ')"
fi
expect_error "profile reps" "repetitions must be" "$fs" profile sample:mlp --reps 0
expect_error "profile save needs recording" "need a recording" "$fs" profile sample:mlp --save

# --- the kernel level: kernels of the compiled snapshot, one kernel's stages, texts and diffs
"$fs" compile sample:mlp -o "$tmp/no_kernels.fsdb" >/dev/null 2>&1
expect_error "kernel without kernels" "no_kernels.fsdb: no kernels in this recording: .*fusescope profile .*--device cpu --save" "$fs" kernel "$tmp/no_kernels.fsdb"
expect_error "kernel missing file" "nowhere.fsdb: no such file" "$fs" kernel "$tmp/nowhere.fsdb"
expect_error "kernel corrupt file" "corrupt.fsdb: not a Fusescope recording" "$fs" kernel "$tmp/corrupt.fsdb"
if [[ -n $kernel_fixture ]]; then
  kr="$tmp/kernels.fsdb"
  if "$kernel_fixture" "$kr"; then ok; else bad "kernel fixture could not be written"; fi
  expect_ok "kernel list" "$fs" kernel "$kr"
  contains "kernel list names" '^broadcast_maximum_fusion +mlir-cpu +11 +- ' "$tmp/out"
  contains "kernel list failed stage" '^add_reduce_fusion +mlir-cpu +7 +convert-to-llvm ' "$tmp/out"
  contains "kernel list snapshot" 'kernel\(s\) of the graph after pass [0-9]+' "$tmp/out"
  expect_ok "kernel list json" "$fs" kernel "$kr" --list --json
  json_ok "kernel list json" "len(d['kernels']) >= 4 and {k['backend'] for k in d['kernels']} >= {'mlir-cpu', 'openblas', 'host'} and [s['name'] for s in next(k for k in d['kernels'] if k['name'] == 'broadcast_maximum_fusion')['stages']][-3:] == ['reconcile-unrealized-casts', 'llvm-ir', 'asm']"
  expect_ok "kernel timeline" "$fs" kernel "$kr" broadcast_maximum_fusion
  contains "kernel timeline unchanged stage" '^ +2 +canonicalize +11 +no change' "$tmp/out"
  contains "kernel timeline changed stage" '^ +3 +one-shot-bufferize +16 +\+15 +-10' "$tmp/out"
  expect_ok "kernel timeline json" "$fs" kernel "$kr" broadcast_maximum_fusion --json
  json_ok "kernel timeline json" "d['backend'] == 'mlir-cpu' and d['stages'][0]['name'] == 'input' and d['stages'][-1]['name'] == 'asm' and not d['stages'][2]['changed'] and d['stages'][3]['added'] == 15 and d['stages'][3]['removed'] == 10"
  expect_ok "kernel failed timeline" "$fs" kernel "$kr" add_reduce_fusion
  contains "kernel failed line" "^FAILED at convert-to-llvm: failed to legalize" "$tmp/out"
  expect_ok "kernel asm" "$fs" kernel "$kr" broadcast_maximum_fusion --asm
  if cmp -s "$tmp/out" "$src/tests/data/kernels/broadcast_maximum_fusion.s"; then ok; else bad "kernel --asm is not the stored assembly"; fi
  expect_ok "kernel llvm" "$fs" kernel "$kr" broadcast_maximum_fusion --llvm
  if cmp -s "$tmp/out" "$src/tests/data/kernels/broadcast_maximum_fusion.ll"; then ok; else bad "kernel --llvm is not the stored LLVM IR"; fi
  expect_ok "kernel stage" "$fs" kernel "$kr" broadcast_maximum_fusion --stage input
  if cmp -s "$tmp/out" "$src/tests/data/kernels/broadcast_maximum_fusion.mlir"; then ok; else bad "kernel --stage input is not the input"; fi
  expect_ok "kernel diff" "$fs" kernel "$kr" broadcast_maximum_fusion --diff convert-linalg-to-loops
  contains "kernel diff header" '^\+\+\+ broadcast_maximum_fusion/convert-linalg-to-loops$' "$tmp/out"
  contains "kernel diff added loop" '^\+ +scf\.for %arg2 = %c0 to %c32 step %c1 \{$' "$tmp/out"
  contains "kernel diff removed generic" '^- +linalg\.generic' "$tmp/out"
  # The unified diff applies: patch turns the stage before into the stage.
  "$fs" kernel "$kr" broadcast_maximum_fusion --stage one-shot-bufferize >"$tmp/before.mlir"
  "$fs" kernel "$kr" broadcast_maximum_fusion --stage convert-linalg-to-loops >"$tmp/after.mlir"
  "$fs" kernel "$kr" broadcast_maximum_fusion --diff convert-linalg-to-loops >"$tmp/stage.diff"
  if patch -s -o "$tmp/patched.mlir" "$tmp/before.mlir" "$tmp/stage.diff" && cmp -s "$tmp/patched.mlir" "$tmp/after.mlir"; then ok; else bad "kernel --diff does not patch the stage before into the stage"; fi
  expect_ok "kernel diff json" "$fs" kernel "$kr" broadcast_maximum_fusion --diff llvm-ir --json
  json_ok "kernel diff json" "d['previous'] == 'reconcile-unrealized-casts' and d['stage'] == 'llvm-ir' and d['added'] > 0 and d['diff'].startswith('--- ')"
  # Ignoring indentation, the function that one-shot-bufferize printed inside its module
  # keeps the lines the loops stage prints re-indented, alone.
  expect_ok "kernel diff ignoring indentation" "$fs" kernel "$kr" broadcast_maximum_fusion --diff convert-linalg-to-loops --ignore-indentation --json
  json_ok "kernel diff ignoring indentation" "d['removed'] < 13 and d['added'] < 15 and '+  %c128 = arith.constant 128 : index' in d['diff'].splitlines()"
  expect_error "kernel ignore indentation alone" "goes with --diff" "$fs" kernel "$kr" broadcast_maximum_fusion --ignore-indentation
  expect_ok "kernel diff unchanged" "$fs" kernel "$kr" broadcast_maximum_fusion --diff canonicalize
  contains "kernel diff unchanged" 'canonicalize changed nothing' "$tmp/out"
  expect_ok "kernel library call" "$fs" kernel "$kr" dot.28
  contains "kernel library call" 'no lowering stages \(openblas kernel\)' "$tmp/out"
  expect_error "kernel unknown fusion" "no kernel 'nope' in .*\(kernels: .*broadcast_maximum_fusion" "$fs" kernel "$kr" nope
  expect_error "kernel unknown stage" "no stage 'nope' \(stages: input, .*asm\)" "$fs" kernel "$kr" broadcast_maximum_fusion --stage nope
  expect_error "kernel asm of failed kernel" "no stage 'asm' .*lowering failed at convert-to-llvm" "$fs" kernel "$kr" add_reduce_fusion --asm
  expect_error "kernel diff of first stage" "is the first" "$fs" kernel "$kr" broadcast_maximum_fusion --diff input
  expect_error "kernel two choices" "choose one of" "$fs" kernel "$kr" broadcast_maximum_fusion --asm --llvm
  expect_error "kernel stage without fusion" "need a FUSION" "$fs" kernel "$kr" --asm
  # Damaged kernel tables: one line naming the file and the tables; the graph level still loads.
  cp "$kr" "$tmp/damaged_kernels.fsdb"
  python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE kernel_stages SET encoding='lz4'\"); c.commit()" "$tmp/damaged_kernels.fsdb"
  expect_error "kernel damaged tables" "damaged_kernels.fsdb: damaged kernel tables \(stage .* unknown encoding 'lz4'\)" "$fs" kernel "$tmp/damaged_kernels.fsdb" broadcast_maximum_fusion
  expect_ok "passes of recording with damaged kernels" "$fs" passes "$tmp/damaged_kernels.fsdb"
  expect_error "kernel other pass" "no kernels of the graph after pass 0 \(there are kernels after pass [0-9]+" "$fs" kernel "$kr" --pass 0
fi

# --- an ONNX model's hot spots named by its ONNX nodes (where the ONNX importer is built)
if "$fs" stats "$src/tests/data/onnx/cnn.onnx" >/dev/null 2>&1; then
  expect_ok "onnx compile" "$fs" compile "$src/tests/data/onnx/cnn.onnx" -o "$tmp/cnn.fsdb"
  expect_ok "onnx profile" "$fs" profile "$tmp/cnn.fsdb" --reps 2 --warmup 0 --save
  expect_ok "onnx hot" "$fs" hot "$tmp/cnn.fsdb" --pass -1 --json
  json_ok "onnx hot names ONNX nodes" "d['nodes'] and all(n['op_names'] for n in d['nodes']) and any(n.startswith('conv') for x in d['nodes'] for n in x['op_names'])"
  # Shapes computed at run time fold for the sizes given; the weight past the literal limit
  # reaches the compiled kernels as bytes, not as elided text.
  chain="$src/tests/data/onnx/shape_chain/model.onnx"
  expect_ok "onnx computed shapes compile" "$fs" compile "$chain" --dim batch=2 --dim seq=5 -o "$tmp/chain.fsdb"
  expect_ok "onnx computed shapes run compiled" "$fs" run "$tmp/chain.fsdb" --device cpu --json
  json_ok "onnx computed shapes outputs ok" "len(d['outputs']) == 4 and all(o['verdict'].startswith('ok') for o in d['outputs'])"
fi

# --- compare: our own adapter through the harness (the peers' tier is scripts/compare_tier.sh)
expect_ok "compare ours on a sample" "$fs" compare sample:mlp --compilers ours --reps 3 --warmup 1 --json --work "$tmp/cmp_sample"
json_ok "compare ours ran and was judged" "d['compilers'][0]['status'] == 'ok' and d['rows'][0]['verdict'].startswith('ok') and d['rows'][0]['latency_us']['count'] == 3 and d['rows'][0]['max_abs_error'] is not None"
expect_error "compare batch of a static model" "has no symbolic batch dimension" "$fs" compare sample:mlp --batch 2
# Without --work, the scratch folder compare makes (in $TMPDIR) is gone when it returns.
mkdir -p "$tmp/cmp_tmpdir"
expect_error "compare refused, own scratch" "has no symbolic batch dimension" env TMPDIR="$tmp/cmp_tmpdir" "$fs" compare sample:mlp --batch 2
expect_ok "compare with its own scratch" env TMPDIR="$tmp/cmp_tmpdir" "$fs" compare sample:mlp --compilers ours --reps 2 --warmup 0
contains "compare says the scratch went" "^scratch removed \(no compiler failed\)" "$tmp/out"
same "compare left no scratch" "$(ls -A "$tmp/cmp_tmpdir" | wc -l)" 0
expect_error "compare unknown compiler" "unknown compiler 'gcc'" "$fs" compare sample:mlp --compilers ours,gcc
expect_error "compare a recording" "compare takes a model" "$fs" compare "$run"
expect_error "compare unknown dimension" "no symbolic dimension of that name" "$fs" compare sample:mlp --dim batch=2
if "$fs" stats "$src/tests/data/onnx/cnn.onnx" >/dev/null 2>&1; then
  cmp_model="$src/tests/data/compare/mlp.onnx"
  expect_error "compare bad sizes" "expected positive sizes" "$fs" compare "$cmp_model" --batch 1,0
  expect_ok "compare onnx at two batch sizes" "$fs" compare "$cmp_model" --compilers ours --batch 1,2 --reps 2 --warmup 0 --json -o "$tmp/cmp.fsdb" --work "$tmp/cmp_chain"
  json_ok "compare rows per shape" "[r['shape'] for r in d['rows']] == ['b1', 'b2'] and all(r['verdict'].startswith('ok') for r in d['rows']) and d['rows'][1]['batch'] == 2"
  expect_ok "compare recording opens" "$fs" passes "$tmp/cmp.fsdb"
  expect_ok "compare in the report" "$fs" report "$tmp/cmp.fsdb" -o "$tmp/cmp.html"
  contains "compare report section" "<section id=\"compare\"><h2>Compilers compared" "$tmp/cmp.html"
  contains "compare report latency picture" "Latency at b2" "$tmp/cmp.html"
  expect_ok "compare csv" "$fs" compare "$cmp_model" --compilers ours --batch 1 --reps 2 --warmup 0 --csv "$tmp/cmp.csv" --work "$tmp/cmp_csv"
  contains "compare csv header and row" "^ours,ours,b1,1," "$tmp/cmp.csv"
  expect_ok "compare batch and sequence" "$fs" compare "$src/tests/data/compare/bert.onnx" --compilers ours --batch 2 --seq 4,8 --reps 2 --warmup 0 --json --work "$tmp/cmp_seq"
  json_ok "compare batch and sequence shapes" "[r['shape'] for r in d['rows']] == ['b2_s4', 'b2_s8'] and all(r['verdict'].startswith('ok') for r in d['rows']) and d['shapes'][1]['dims'] == {'batch': 2, 'seq': 8}"
fi

# --- ONNX Runtime's optimized graph of the BERT layer (tests/data/onnx/ort_optimized)
ortopt="$src/tests/data/onnx/ort_optimized/bert.optimized.weightless.onnx"
expect_ok "import ort optimized" "$fs" import "$ortopt" --optimized-from "$src/tests/data/compare/bert.onnx" -o "$tmp/ort.fsdb" --json
json_ok "import ort optimized" "d['nodes'] == 27 and d['fused_nodes'] == 4 and d['model_nodes_linked'] == 33"
expect_ok "passes ort optimized" "$fs" passes "$tmp/ort.fsdb"
contains "passes ort optimized" 'onnxruntime-graph-optimizations' "$tmp/out"
expect_error "import ort optimized missing" "nope.onnx: cannot read" "$fs" import "$tmp/nope.onnx" --optimized-from "$src/tests/data/compare/bert.onnx" -o "$tmp/ort2.fsdb"

# --- a TensorRT engine's exports (written by hand in TensorRT's layout: tests/data/tensorrt)
trt="$src/tests/data/tensorrt"
expect_ok "import tensorrt" "$fs" import "$trt/cnn.graph.json" -o "$tmp/trt.fsdb"
contains "import tensorrt summary" '^imported TensorRT engine cnn.graph.json \(detailed layer information, optimization profile 0 of 1\)' "$tmp/out"
contains "import tensorrt layers" '^  layers: +5, 2 fused from 2 or more ONNX nodes; 4 edges, 1 inputs, 1 outputs' "$tmp/out"
contains "import tensorrt latency" '^  latency: +cnn.times.json: 20 inferences, p50 70.350 us, p95 74.225 us, p99 91.325 us' "$tmp/out"
contains "import tensorrt conv layer" '^conv1_bn1_relu1 +CaskConvolution +3 +0.0118 +24.6%  conv1 \+2' "$tmp/out"
expect_ok "import tensorrt json" "$fs" import "$trt/cnn.graph.json" -o "$tmp/trt.fsdb" --json
json_ok "import tensorrt json" "d['layers'] == 5 and d['fused_layers'] == 2 and d['onnx_nodes_linked'] == 9 and d['edges'] == 4 and d['profile_id'] == 1 and abs(d['latency_ms']['p50'] - 0.07035) < 1e-9 and abs(d['latency_ms']['p99'] - 0.091325) < 1e-9 and d['layer_list'][3]['onnx_nodes'] == ['conv2_dw', 'relu2', 'gap', 'flatten', 'fc'] and d['layer_list'][1]['median_ms'] == 0.0118"
expect_ok "hot tensorrt" "$fs" hot "$tmp/trt.fsdb" --json
json_ok "hot tensorrt layers" "d['nodes'][0]['name'] == 'ForeignNode_conv2_dw...fc' and d['nodes'][0]['measured'] and sorted(d['nodes'][0]['op_names']) == ['conv2_dw', 'fc', 'flatten', 'gap', 'relu2'] and len(d['nodes']) == 5 and len(d['kernels_without_provenance']) == 2 and not d['roofline'] and 'its own GPU' in d['roofline_unavailable']"
expect_ok "hot tensorrt text" "$fs" hot "$tmp/trt.fsdb"
contains "hot tensorrt text" '^conv1_bn1_relu1 +custom-call +242.00 ' "$tmp/out"
expect_ok "hot tensorrt onnx nodes" "$fs" hot "$tmp/trt.fsdb" --pass -1 --json
json_ok "hot tensorrt onnx nodes" "len(d['nodes']) == 9 and {n['op_names'][0] for n in d['nodes']} == {'conv1', 'bn1', 'relu1', 'pool1', 'conv2_dw', 'relu2', 'gap', 'flatten', 'fc'}"
expect_ok "passes tensorrt" "$fs" passes "$tmp/trt.fsdb"
contains "passes tensorrt" 'tensorrt-engine-build' "$tmp/out"
expect_ok "report tensorrt" "$fs" report "$tmp/trt.fsdb" -o "$tmp/trt.html"
expect_ok "stats of tensorrt layer info" "$fs" stats "$trt/cnn.graph.json" --json
json_ok "stats of tensorrt layer info" "d['opcodes'].get('custom-call') == 5 and d['opcodes'].get('parameter') == 1"
expect_ok "import tensorrt names only" "$fs" import "$trt/cnn_names.graph.json" --profile "$trt/cnn.profile.json" -o "$tmp/trt_names.fsdb" --json
json_ok "import tensorrt names only" "not d['detailed'] and d['layers'] == 5 and d['edges'] == 0 and d['onnx_nodes_linked'] == 0 and len(d['layer_list']) == 5 and all('median_ms' in l for l in d['layer_list'])"
contains "import tensorrt names only warns" 'without --profilingVerbosity=detailed' "$tmp/err"
expect_ok "import tensorrt two profiles" "$fs" import "$trt/mlp_two_profiles.graph.json" -o "$tmp/trt_two.fsdb" --json
json_ok "import tensorrt two profiles" "d['optimization_profile'] == 1 and d['optimization_profiles'] == 2 and d['layers'] == 3 and d['layer_list'][0]['layer'] == 'fc1 + relu1 [profile 1]'"
contains "import tensorrt two profiles warns" 'has 2 optimization profiles; this recording holds profile 1' "$tmp/err"
expect_error "import tensorrt profile of another shape profile" "most layers of this profile are not in the engine's optimization profile 0" "$fs" import "$trt/mlp_two_profiles.graph.json" --shape-profile 0 -o "$tmp/trt_p0.fsdb"
expect_error "import tensorrt malformed" "bad_dimensions.graph.json:7:57: a dimension should be an integer" "$fs" import "$trt/malformed/bad_dimensions.graph.json" -o "$tmp/bad.fsdb"
expect_error "import tensorrt truncated" "truncated.graph.json:29:[0-9]+: " "$fs" import "$trt/malformed/truncated.graph.json" -o "$tmp/bad.fsdb"
expect_error "import tensorrt bad times" "missing_latency.times.json:3:3: an inference needs \"latencyMs\"" "$fs" import "$trt/cnn.graph.json" --times "$trt/malformed/missing_latency.times.json" -o "$tmp/bad.fsdb"
expect_error "import --profile of a dump folder" "import: --profile is for TensorRT layer information" "$fs" import "$src/tests/data/xla_dump_mlp" --profile "$trt/cnn.profile.json" -o "$tmp/bad.fsdb"
expect_error "compile tensorrt layer info" "describes an engine TensorRT built; it is no model for our pipeline" "$fs" compile "$trt/cnn.graph.json" -o "$tmp/bad.fsdb"
if "$fs" stats "$src/tests/data/onnx/cnn.onnx" >/dev/null 2>&1; then
  expect_ok "import tensorrt with onnx" "$fs" import "$trt/cnn.graph.json" --onnx "$src/tests/data/onnx/cnn.onnx" -o "$tmp/trt_onnx.fsdb" --json
  json_ok "import tensorrt with onnx" "d['onnx_nodes_linked'] == 9 and d['onnx_nodes_missing'] == 0 and d['fused_layers'] == 2"
  expect_ok "hot tensorrt on onnx model" "$fs" hot "$tmp/trt_onnx.fsdb" --pass -1 --top 100 --json
  json_ok "hot tensorrt on onnx model" "{n for x in d['nodes'] for n in x['op_names']} == {'conv1', 'bn1', 'relu1', 'pool1', 'conv2_dw', 'relu2', 'gap', 'flatten', 'fc'}"
fi

# --- a kill in the middle of saving leaves the file as it was (recording/kill_point.h): the
# process kills itself with SIGKILL inside the write, rows written and not committed
rows() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM ' + sys.argv[2]).fetchone()[0])" "$@"; }
killed_at() {
  local point=$1; shift
  FUSESCOPE_TEST_KILL_AT=$point "$@" >/dev/null 2>&1
  local rc=$?
  if [[ $rc -eq 137 ]]; then ok; else bad "kill at $point: exit $rc, expected 137 (SIGKILL)"; fi
}
kf="$tmp/killed.fsdb"
expect_ok "kill: a recording" "$fs" compile sample:mlp -o "$kf"
expect_ok "kill: its first profile and kernels" "$fs" profile "$kf" --device cpu --reps 2 --warmup 0 --save
profiles_before=$(rows "$kf" profiles)
kernels_before=$(rows "$kf" kernel_stages)
killed_at profile-write "$fs" profile "$kf" --device cpu --reps 2 --warmup 0 --save
same "kill in the profile's write: profiles" "$(rows "$kf" profiles)" "$profiles_before"
killed_at kernels-write "$fs" profile "$kf" --device cpu --reps 2 --warmup 0 --save
same "kill in the kernels' write: the profile before it committed" "$(rows "$kf" profiles)" "$((profiles_before + 1))"
same "kill in the kernels' write: kernel stages" "$(rows "$kf" kernel_stages)" "$kernels_before"
expect_ok "kill: the file still opens (hot)" "$fs" hot "$kf"
expect_ok "kill: the file still opens (kernel)" "$fs" kernel "$kf" --list
killed_at recording-write "$fs" compile sample:bert_encoder -o "$kf"
expect_ok "kill in a recording's rewrite: the old one is there" "$fs" stats "$kf" --json
json_ok "kill in a recording's rewrite: still the mlp" "'mlp' in json.dumps(d)"
same "kill in a recording's rewrite: its profiles" "$(rows "$kf" profiles)" "$((profiles_before + 1))"
killed_at comparison-write "$fs" compare sample:mlp --compilers ours --reps 2 --warmup 0 --work "$tmp/kill_cmp" -o "$kf"
expect_ok "kill in a comparison's write: the file opens" "$fs" passes "$kf"
same "kill in a comparison's write: no comparison" "$(python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute(\"SELECT count(*) FROM sqlite_schema WHERE name='comparisons'\").fetchone()[0] and c.execute('SELECT count(*) FROM comparisons').fetchone()[0])" "$kf")" "0"

# Kernel tuning: a small search stored in the recording, the forms executors elsewhere use
# (--plan, --trial, --merge), the plot, and a kill in the middle of storing a run.
# OpenBLAS runs kernels this CPU can use: on a CPU with AVX2 and FMA, never its pre-AVX2 ones
# (an unknown CPU gets them at load; fusescope starts again with OPENBLAS_CORETYPE).
expect_ok "machine: OpenBLAS kernels" "$fs" machine --json
json_ok "machine: OpenBLAS kernels this CPU runs" "not ({'avx2', 'fma'} <= set(open('/proc/cpuinfo').read().split())) or d['openblas_core'] not in ('Prescott', 'Core2', 'Penryn', 'Nehalem', 'Sandybridge', 'Atom', 'Barcelona')"
expect_ok "machine: the user's OPENBLAS_CORETYPE is kept" env OPENBLAS_CORETYPE=Nehalem "$fs" machine --json
json_ok "machine: Nehalem as asked" "d['openblas_core'] == 'Nehalem'"
tf="$tmp/tune.fsdb"
expect_ok "tune: a recording" "$fs" compile sample:mlp -o "$tf"
expect_ok "tune: a grid search" "$fs" tune "$tf" --space "tile=0,16 vector=4,8" --reps 2 --warmup 0 --json --plot "$tmp/tune.svg"
json_ok "tune: defaults first, then candidates" "d['run_id'] == 1 and d['trials'][0]['default'] and any(not t['default'] for t in d['trials'])"
json_ok "tune: each ok trial has its paired default" "all(t['baseline_us'] > 0 for t in d['trials'] if t['status'] == 'ok' and not t['default'])"
json_ok "tune: two pairs show no win beyond chance, so nothing is composed" "d['composed'] and d['composition'] == [] and not any(t['win'] for t in d['trials'])"
expect_ok "tune --no-compose" "$fs" tune "$tf" --space "tile=16" --reps 2 --warmup 0 --no-compose --no-save
contains "tune --no-compose: says so" "not composed" "$tmp/out"
contains "tune: the plot names a kernel" "trial, in search order" "$tmp/tune.svg"
expect_ok "tune --list" "$fs" tune "$tf" --list --json
json_ok "tune --list: one run" "len(d['runs']) == 1"
expect_ok "tune --plan" "$fs" tune "$tf" --plan --space "tile=0,16" --strategy random --trials 1 --seed 3
json_ok "tune --plan: a default and one candidate per kernel" "len(d['trials']) == 2 * len({t['kernel'] for t in d['trials']}) and d['trials'][0]['config'] == 'default'"
kernel=$(python3 -c "import json; print(json.load(open('$tmp/out'))['trials'][1]['kernel'])")
config=$(python3 -c "import json; print(json.load(open('$tmp/out'))['trials'][1]['config'])")
expect_ok "tune --trial" "$fs" tune "$tf" --trial --kernel "$kernel" --config "$config" --reps 2 --warmup 0
json_ok "tune --trial: ok and timed" "d['status'] == 'ok' and len(d['samples_us']) == 2 and d['kernel'] == '$kernel'"
cp "$tmp/out" "$tmp/trial.json"
snap=$("$fs" tune "$tf" --list --json | python3 -c "import json,sys; print(json.load(sys.stdin)['runs'][0]['snapshot'])")
python3 - "$tmp/trial.json" "$snap" "$tmp/merge.json" <<'PY'
import json, sys
trial = json.load(open(sys.argv[1]))
trial["worker"], trial["attempts"] = "node-b", 2
json.dump({"snapshot": int(sys.argv[2]), "strategy": "random", "space": "tile=0,16",
           "executor": "ray", "trials": [trial]}, open(sys.argv[3], "w"))
PY
expect_ok "tune --merge" "$fs" tune "$tf" --merge "$tmp/merge.json"
expect_ok "tune --list after merge" "$fs" tune "$tf" --list --json
json_ok "tune --merge: kept as a ray run, its worker and attempts" "len(d['runs']) == 2 and d['runs'][1]['executor'] == 'ray' and d['runs'][1]['trials'][0]['attempts'] == 2 and d['runs'][1]['trials'][0]['worker'] == 'node-b'"
echo '{"snapshot": 0, "trials": [{"kernel": "x", "status": "maybe"}]}' >"$tmp/bad_merge.json"
expect_error "tune --merge: a bad status" "bad_merge.json:1:28: trial 0 has status 'maybe'" "$fs" tune "$tf" --merge "$tmp/bad_merge.json"
expect_error "tune: unknown knob" "unknown knob 'tiles'" "$fs" tune "$tf" --space "tiles=8"
expect_error "tune: unknown strategy" "grid, random or evolutionary" "$fs" tune "$tf" --strategy annealing
expect_error "tune: not a recording" "tuning needs a recording" "$fs" tune sample:mlp
expect_error "tune: unknown kernel" "no kernel named 'nope'" "$fs" tune "$tf" --kernel nope --reps 1 --warmup 0
expect_error "tune --plan of an evolutionary search" "chooses each trial from the times before" "$fs" tune "$tf" --plan --strategy evolutionary
# A run composed elsewhere is stored as it says (no second composition here), and its kept
# step is what --tuned applies.
python3 - "$tmp/trial.json" "$snap" "$tmp/kept.json" <<'PY'
import json, sys
trial = json.load(open(sys.argv[1]))
step = {"kernel": trial["kernel"], "config": trial["config"], "status": "ok", "kept": True,
        "pairs": 20, "pairs_faster": 20, "module_us": 90.0, "module_before_us": 100.0}
json.dump({"snapshot": int(sys.argv[2]), "strategy": "grid", "space": "tile=0,16",
           "composed": True, "module_speedup": 1.11, "trials": [trial], "composition": [step]},
          open(sys.argv[3], "w"))
PY
expect_ok "tune --merge: a composed run" "$fs" tune "$tf" --merge "$tmp/kept.json"
expect_ok "tune --list: the kept step" "$fs" tune "$tf" --list
contains "tune --list: the kept step shown" "20/20 runs faster  kept" "$tmp/out"
expect_ok "run --tuned" "$fs" run "$tf" --device cpu --tuned
# The kept step's kernel comes from run 3; the other kernels of run 1 (which ones are hot
# depends on the machine) keep their defaults.
if grep -Eq "tuned: 1 kernel from tuning runs? ([0-9]+, )*3 " "$tmp/err"; then ok; else
  bad "run --tuned: says what it applied: stderr was: $(cat "$tmp/err")"
fi
contains "run --tuned: still right" "compiled snapshot matches the original module" "$tmp/out"
expect_ok "profile before tuning" "$fs" profile "$tf" --device cpu --reps 2 --warmup 0 --save
expect_ok "profile --tuned" "$fs" profile "$tf" --device cpu --tuned --reps 2 --warmup 0 --save
expect_ok "hot --compare: before and after tuning" "$fs" hot "$tf" --profile 2 --compare 1
contains "hot --compare: the tuned profile named" "after: profile 2 .*, tuned" "$tmp/out"
expect_error "run --tuned on a model file" "needs a recording with tuning runs" "$fs" run sample:mlp --device cpu --tuned
expect_error "run --tuned without --device cpu" "run: --tuned needs --device cpu" "$fs" run "$tf" --tuned
runs_before=$(rows "$tf" tuning_runs)
trials_before=$(rows "$tf" tuning_trials)
killed_at tuning-write "$fs" tune "$tf" --space "tile=0,16" --reps 1 --warmup 0
same "kill in a tuning run's write: runs" "$(rows "$tf" tuning_runs)" "$runs_before"
same "kill in a tuning run's write: trials" "$(rows "$tf" tuning_trials)" "$trials_before"
expect_ok "kill in a tuning run's write: the file opens" "$fs" tune "$tf" --list
expect_ok "kill in a tuning run's write: the recording opens" "$fs" passes "$tf"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
