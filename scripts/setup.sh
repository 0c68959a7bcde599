#!/usr/bin/env bash
# Installs every Debian package Fusescope's build, tests, fuzzing and benchmarks need.
# Idempotent: apt-get skips what is already installed. Run as root on Debian 12.
# libomp-19-dev: clang-19's omp.h, which BLIS's OpenMP header includes (the sanitizer build).
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git python3 python3-venv
  llvm-19-dev libmlir-19-dev mlir-19-tools clang-19 libclang-rt-19-dev lld-19
  libomp-19-dev
  qt6-base-dev qt6-svg-dev qt6-charts-dev qt6-qpa-plugins libgl-dev libqt6opengl6-dev
  libgraphviz-dev graphviz libopenblas-dev libdnnl-dev libblis-dev
  libsqlite3-dev zlib1g-dev
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev
  libonnx-dev libprotobuf-dev libonnx-testdata
  xvfb xauth fonts-dejavu-core chromium-headless-shell
  desktop-file-utils dpkg-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y --no-install-recommends "${missing[@]}"
fi
echo "setup: all ${#packages[@]} packages present"
