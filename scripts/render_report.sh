#!/usr/bin/env bash
# Renders a Fusescope HTML report (or any HTML/SVG page) to a PNG with headless Chromium, to
# look at what a report really shows without opening a browser.
#
#   scripts/render_report.sh REPORT.html|RUN.fsdb OUT.png [WIDTH [HEIGHT]]
#
# Given a recording (.fsdb), it first writes its report with `fusescope report` (the binary
# is $FUSESCOPE, or `fusescope` on PATH). The picture is WIDTH x HEIGHT pixels of the page's
# top (default 1400 x 3000). Chromium is installed with apt-get when it is missing and the
# script runs as root.
set -euo pipefail

if (($# < 2)); then
  echo "usage: $0 REPORT.html|RUN.fsdb OUT.png [WIDTH [HEIGHT]]" >&2
  exit 2
fi
input=$1
output=$2
width=${3:-1400}
height=${4:-3000}

find_browser() {
  for candidate in chromium chromium-browser google-chrome; do
    if command -v "$candidate" > /dev/null 2>&1; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

browser=$(find_browser || true)
if [[ -z $browser ]]; then
  if ((EUID == 0)); then
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium > /dev/null
    browser=$(find_browser)
  else
    echo "render_report: chromium not found; install it with: apt-get install -y chromium" >&2
    exit 1
  fi
fi

workdir=$(mktemp -d)
trap 'rm -rf "$workdir"' EXIT

if [[ $input == *.fsdb ]]; then
  fusescope=${FUSESCOPE:-fusescope}
  "$fusescope" report "$input" -o "$workdir/report.html"
  input=$workdir/report.html
fi
if [[ ! -f $input ]]; then
  echo "render_report: $input: no such file" >&2
  exit 1
fi

page=$(realpath "$input")
mkdir -p "$(dirname "$output")"
target=$(realpath -m "$output")
rm -f "$target"
if ! "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$workdir/profile" --window-size="$width,$height" \
    --screenshot="$target" "file://$page" > "$workdir/browser.log" 2>&1 || [[ ! -s $target ]]; then
  echo "render_report: $browser did not write $output:" >&2
  tail -n 5 "$workdir/browser.log" >&2
  exit 1
fi
echo "$output: ${width}x${height} screenshot of $page"
