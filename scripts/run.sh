#!/usr/bin/env bash
# Everything needed on a fresh Debian 12 machine (as root): install packages, build, and open
# the workbench on the built-in sample model. Extra arguments go to `fusescope`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  exec build/app/fusescope "$@"
fi
# No display: run the workbench in a virtual X server and save what it shows.
mkdir -p out
xvfb-run -a build/app/fusescope gui "$@" --screenshot out/workbench.png
echo "no display found: the workbench ran in a virtual X server; see out/workbench.png"
