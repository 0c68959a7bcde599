#!/usr/bin/env bash
# Everything needed on a fresh Debian 12 machine (as root): install packages, build, run
# every test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure -j "$(nproc)"
