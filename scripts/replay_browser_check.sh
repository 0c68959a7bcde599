#!/usr/bin/env bash
# The lesson replays (`fusescope report --lesson`) opened in a real browser, offline: for each
# built-in lesson (or the lessons given), writes the replay into a temporary folder and loads
# it in headless Chromium from a file:// address with
#  - #selftest: the page walks every step with its own Next button, the arrow keys and
#    Previous, then the address #step-1, and writes "steps=N visited=N failures=F errors=E"
#    into <pre id="selftest-result"> (views/lesson_report.h);
#  - #step-N (N the last step): that step, and only it, is the one shown.
# Chromium's own log is searched for console lines: the page writes nothing to the console,
# so every console line (an uncaught error, a refused load, a warning) counts as an error.
# A copy of one page with an error thrown by its script must be caught, so that a check that
# sees nothing cannot pass. Prints per lesson: steps, file size in bytes, console errors.
#
#   scripts/replay_browser_check.sh FUSESCOPE [lesson:NAME|FILE ...]
#
# Chromium: $FUSESCOPE_CHROMIUM, else chromium-headless-shell, else chromium (Debian's
# packages; scripts/setup.sh installs chromium-headless-shell). Without one the check exits
# 77 (skipped) with the reason; with FUSESCOPE_REQUIRE_CHROMIUM=1 (scripts/test.sh sets it
# where the package is installed) that is a failure instead.
set -uo pipefail
if [[ $# -lt 1 ]]; then
  echo "usage: scripts/replay_browser_check.sh FUSESCOPE [lesson:NAME|FILE ...]" >&2
  exit 2
fi
fs=$1
shift

chromium=${FUSESCOPE_CHROMIUM:-}
if [[ -z "$chromium" ]]; then
  for candidate in chromium-headless-shell chromium; do
    if command -v "$candidate" >/dev/null 2>&1; then
      chromium=$(command -v "$candidate")
      break
    fi
  done
fi
if [[ -z "$chromium" || ! -x "$chromium" ]]; then
  reason="no headless Chromium (chromium-headless-shell or chromium, or \$FUSESCOPE_CHROMIUM)"
  if [[ "${FUSESCOPE_REQUIRE_CHROMIUM:-0}" == 1 ]]; then
    echo "FAILED: $reason, but FUSESCOPE_REQUIRE_CHROMIUM=1: a skipped browser check is not a pass"
    exit 1
  fi
  echo "SKIPPED: $reason; apt-get install chromium-headless-shell"
  exit 77
fi

lessons=("$@")
if [[ ${#lessons[@]} -eq 0 ]]; then
  mapfile -t lessons < <("$fs" lesson --list --json |
    python3 -c "import json, sys; print('\n'.join(l['name'] for l in json.load(sys.stdin)))")
  if [[ ${#lessons[@]} -eq 0 ]]; then
    echo "FAILED: \`$fs lesson --list --json\` listed no lessons"
    exit 1
  fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# browse URL DOM LOG: the page's DOM after its scripts ran, and Chromium's log.
browse() {
  timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --no-first-run \
    --user-data-dir="$tmp/profile" --virtual-time-budget=10000 --enable-logging=stderr --v=0 \
    --dump-dom "$1" >"$2" 2>"$3"
}

# page_facts DOM: "RESULT" lines of the self-test (first line "none" when the page wrote
# none), then "CURRENT ids" of the steps marked current.
page_facts() {
  python3 - "$1" <<'EOF'
import html, re, sys
dom = open(sys.argv[1], encoding="utf-8", errors="replace").read()
match = re.search(r'<pre id="selftest-result"[^>]*>(.*?)</pre>', dom, re.S)
text = html.unescape(match.group(1)).strip() if match else ""
print("RESULT " + (text.replace("\n", "\nRESULT ") if text else "none"))
current = re.findall(r'<article class="step current" id="(step-\d+)"', dom)
print("CURRENT " + " ".join(current))
EOF
}

console_lines() { grep -E ':CONSOLE[:(]' "$1"; }

# check_page LABEL HTML STEPS: prints the lesson's line; returns non-zero on any problem.
check_page() {
  local label=$1 page=$2 expected=$3
  local bytes problems=()
  bytes=$(stat -c %s "$page")
  browse "file://$page#selftest" "$tmp/dom" "$tmp/log"
  local rc=$?
  [[ $rc -eq 0 ]] || problems+=("chromium exited $rc: $(tail -n 2 "$tmp/log" | tr '\n' ' ')")
  page_facts "$tmp/dom" >"$tmp/facts"
  local result
  result=$(sed -n 's/^RESULT //p' "$tmp/facts" | head -n 1)
  local console
  console=$(console_lines "$tmp/log" | wc -l)
  if [[ "$result" == none ]]; then
    problems+=("the page wrote no self-test result")
  else
    local steps visited failures errors
    steps=$(sed -n 's/.*steps=\([0-9]*\).*/\1/p' <<<"$result")
    visited=$(sed -n 's/.*visited=\([0-9]*\).*/\1/p' <<<"$result")
    failures=$(sed -n 's/.*failures=\([0-9]*\).*/\1/p' <<<"$result")
    errors=$(sed -n 's/.*errors=\([0-9]*\).*/\1/p' <<<"$result")
    [[ "$steps" == "$expected" ]] || problems+=("the page has ${steps:-?} steps, the lesson $expected")
    [[ "$visited" == "$expected" ]] || problems+=("visited ${visited:-?} of $expected steps")
    [[ "$failures" == 0 ]] || problems+=("${failures:-?} self-test failures")
    [[ "$errors" == 0 ]] || problems+=("${errors:-?} script errors")
  fi
  [[ $console -eq 0 ]] || problems+=("$console console errors")
  # The last step's own address shows that step alone.
  browse "file://$page#step-$expected" "$tmp/dom_step" "$tmp/log_step"
  local shown
  shown=$(page_facts "$tmp/dom_step" | sed -n 's/^CURRENT //p')
  [[ "$shown" == "step-$expected" ]] || problems+=("#step-$expected showed '${shown}'")
  local console_step
  console_step=$(console_lines "$tmp/log_step" | wc -l)
  [[ $console_step -eq 0 ]] || problems+=("$console_step console errors at #step-$expected")
  console=$((console + console_step))

  echo "$label: steps=$expected bytes=$bytes console_errors=$console selftest: $result"
  if [[ ${#problems[@]} -gt 0 ]]; then
    printf '  problem: %s\n' "${problems[@]}"
    sed -n '2,$s/^RESULT /  selftest: /p' "$tmp/facts"
    console_lines "$tmp/log" | head -n 5 | sed 's/^/  console: /'
    return 1
  fi
  return 0
}

first_page=""
first_steps=0
for lesson in "${lessons[@]}"; do
  name=$(basename "${lesson#lesson:}" .lesson)
  page="$tmp/$name.html"
  if ! "$fs" report --lesson "$lesson" -o "$page" >/dev/null 2>"$tmp/err"; then
    echo "$lesson: FAILED to write the replay: $(cat "$tmp/err")"
    failed=1
    continue
  fi
  steps=$(grep -c '<article class="step"' "$page")
  expected=$("$fs" lesson --list --json | python3 -c "
import json, sys
print(next((l['steps'] for l in json.load(sys.stdin) if l['name'] == sys.argv[1]), $steps))" "$lesson")
  check_page "$lesson" "$page" "$expected" || failed=1
  if [[ -z "$first_page" ]]; then
    first_page=$page
    first_steps=$expected
  fi
done

# The control: the first page with an error thrown once it has loaded must fail the check.
if [[ -n "$first_page" ]]; then
  control="$tmp/control.html"
  sed 's|</body>|<script>window.addEventListener("load", function () { throw new Error("deliberate control error"); });</script>\n</body>|' \
    "$first_page" >"$control"
  if check_page "control (a copy with a deliberate script error)" "$control" "$first_steps" \
    >"$tmp/control.out"; then
    cat "$tmp/control.out"
    echo "FAILED: the deliberate script error went unnoticed: this check cannot fail"
    failed=1
  elif ! grep -q "deliberate control error" "$tmp/control.out"; then
    cat "$tmp/control.out"
    echo "FAILED: the control failed, but not on its deliberate error"
    failed=1
  else
    echo "control: the deliberate script error was caught ($(grep -c '^  problem' "$tmp/control.out") problems reported)"
  fi
fi

if [[ $failed -ne 0 ]]; then
  echo "FAILED: lesson replays in $chromium"
  exit 1
fi
echo "ok: ${#lessons[@]} lesson replays in $($chromium --version 2>/dev/null || echo "$chromium")"
