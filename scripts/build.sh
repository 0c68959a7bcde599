#!/usr/bin/env bash
# Configures and builds Fusescope into build/ (Ninja, ccache when present).
# Usage: scripts/build.sh [extra cmake args...]
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
jobs=$(nproc)
cmake --build build -j "$jobs"
